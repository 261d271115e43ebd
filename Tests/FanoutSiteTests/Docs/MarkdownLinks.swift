import Foundation

/// The relative links of a Markdown page and the anchors of its headings, as GitHub renders them: what
/// DocumentLinkTests checks in the README, CONTRIBUTING.md and docs/.
enum MarkdownLinks {
    /// The lines of `text` outside fenced code blocks, where `#` and brackets are code, not headings or links; and
    /// without code spans unless `keepingCodeSpans` (a heading's code span is part of its anchor, a link's is not).
    static func prose(_ text: String, keepingCodeSpans: Bool = false) -> [String] {
        var lines: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            lines.append(keepingCodeSpans ? String(line) : String(line).replacing(/`+[^`]*`+/, with: ""))
        }
        return lines
    }

    /// The targets of `text`'s links and images (`[…](target)`, `![…](target)`, `<img src="target">`) that are
    /// not URLs with a scheme.
    static func relativeTargets(_ text: String) -> [String] {
        prose(text).flatMap { (line: String) -> [String] in
            let links: [String] = line.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map { String($0.1) }
            let images: [String] = line.matches(of: /<img\s[^>]*src="([^"]+)"/).map { String($0.1) }
            return links + images
        }.filter { $0.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) == nil }
    }

    /// The anchors GitHub gives `text`'s headings: the heading's text lower-cased, without what is not a letter,
    /// digit, space, `-` or `_`, spaces made `-`; a repeated anchor gets `-1`, `-2`, ….
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in prose(text, keepingCodeSpans: true) {
            guard let heading = line.firstMatch(of: /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/) else { continue }
            let base = anchor(String(heading.1))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// One heading's anchor; a link in it counts by its text.
    static func anchor(_ heading: String) -> String {
        let text = heading.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }.lowercased()
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.compactMap { scalar in
                    if scalar == " " { return "-" }
                    return scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) ? scalar : nil
                }))
    }
}
