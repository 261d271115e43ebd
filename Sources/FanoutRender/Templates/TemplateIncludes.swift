/// The other templates a template's text names, as partials (`{{> post-list}}`) or parents (`{{< layout}}`): what
/// a change to a template reaches (README, "Rebuilds": a page is rendered again when its template or any
/// template it includes, directly or not, changed).
enum TemplateIncludes {
    /// The names `text` includes; nil when it cannot tell, because the template changes its delimiters
    /// (`{{=<% %>=}}`) or names a partial dynamically (`{{>*name}}`): such a template depends on every template.
    static func names(in text: String) -> Set<String>? {
        var names = Set<String>()
        let bytes = Array(text.utf8)
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == UInt8(ascii: "{"), bytes[i + 1] == UInt8(ascii: "{") else {
                i += 1
                continue
            }
            var j = i + 2
            while j < bytes.count, bytes[j] == UInt8(ascii: "{") { j += 1 }  // `{{{` opens a triple tag
            while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
            guard j < bytes.count else { break }
            switch bytes[j] {
            case UInt8(ascii: "="): return nil
            case UInt8(ascii: ">"), UInt8(ascii: "<"):
                j += 1
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "*") { return nil }
                let start = j
                while j < bytes.count, bytes[j] != UInt8(ascii: "}"), bytes[j] != UInt8(ascii: " ") { j += 1 }
                names.insert(String(decoding: bytes[start..<j], as: UTF8.self))
            default: break
            }
            i = j
        }
        return names
    }

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
