/// The other templates a template's text names, as partials (`{{> post-list}}`) or parents (`{{< layout}}`): what
/// a change to a template reaches (docs/site.md "Rebuilds, progress and timings": a page is rendered again when its
/// template or any template it includes, directly or not, changed).
enum TemplateIncludes {
    /// The names `text` includes; nil when it cannot tell, because the template changes its delimiters
    /// (`{{=<% %>=}}`) or names a partial dynamically (`{{>*name}}`): such a template depends on every template.
    ///
    /// Reads a tag as swift-mustache's parser does: any whitespace (`Character.isWhitespace`: tabs and line
    /// breaks too) may stand around the name, and the name is a run of the characters a partial's name may hold.
    /// Whitespace before the `>` or `<` is skipped too: reading a tag the engine does not take as a partial
    /// only adds a dependency, and a page rendered once more is harmless, a page left stale is not.
    static func names(in text: String) -> Set<String>? {
        var names = Set<String>()
        var i = text.startIndex
        func skipWhitespace() { while i < text.endIndex, text[i].isWhitespace { i = text.index(after: i) } }
        while let open = text[i...].firstRange(of: "{{") {
            i = open.upperBound
            while i < text.endIndex, text[i] == "{" { i = text.index(after: i) }  // `{{{` opens a triple tag
            skipWhitespace()
            guard i < text.endIndex else { break }
            switch text[i] {
            case "=": return nil
            case ">", "<":
                i = text.index(after: i)
                skipWhitespace()
                if i < text.endIndex, text[i] == "*" { return nil }
                let start = i
                while i < text.endIndex, partialNameCharacters.contains(text[i]) { i = text.index(after: i) }
                names.insert(String(text[start..<i]))
            default: break
            }
        }
        return names
    }

    /// The characters swift-mustache reads as a partial's name.
    private static let partialNameCharacters = Set<Character>(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*/")

    /// Every template each of `texts` (by name) includes, directly or through others, itself included; a
    /// template whose includes cannot be told includes them all.
    static func closures(_ texts: [String: String]) -> [String: Set<String>] {
        let direct = texts.mapValues { names(in: $0) ?? Set(texts.keys) }
        var closures: [String: Set<String>] = [:]
        for name in texts.keys {
            var reached: Set<String> = [name]
            var pending = [name]
            while let next = pending.popLast() {
                for included in direct[next] ?? [] where reached.insert(included).inserted { pending.append(included) }
            }
            closures[name] = reached
        }
        return closures
    }
}
