/// Finds the line a key is written on in a TOML document, for error messages.
///
/// TOMLKit gives positions for syntax errors only, not for the values of a parsed table, so the lines of keys
/// are found by reading the text: table headers (`[rules]`) and `key =` lines, quoted keys included. Good
/// enough for a configuration file; a key it cannot find is reported without a line.
struct TOMLKeyLines {
    private var lines: [(table: String, key: String, line: Int)] = []

    init(_ text: String) {
        var table = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingLeadingSpaces()
            if line.hasPrefix("[") {
                let name = line.drop { $0 == "[" }.prefix { $0 != "]" }
                table = Self.unquoted(name.trimmingLeadingSpaces().trimmingTrailingSpaces())
                continue
            }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = Self.unquoted(line[..<equals].trimmingTrailingSpaces())
            // A dotted key (`rules.x = …`) at the top level belongs to the table it names.
            if table.isEmpty, let dot = key.firstIndex(of: "."), !line.hasPrefix("\"") {
                lines.append((String(key[..<dot]), String(key[key.index(after: dot)...]), index + 1))
            }
            lines.append((table, key, index + 1))
        }
    }

    /// The line of `key` in `table` (`""` for the top level), if found.
    func line(of key: String, in table: String = "") -> Int? {
        lines.first { $0.table == table && $0.key == key }?.line
    }

    private static func unquoted<S: StringProtocol>(_ text: S) -> String {
        if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return String(text)
    }
}

extension StringProtocol {
    fileprivate func trimmingLeadingSpaces() -> SubSequence { drop { $0 == " " || $0 == "\t" } }

    fileprivate func trimmingTrailingSpaces() -> String {
        var text = String(self)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}
