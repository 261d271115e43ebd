import FanoutJSON

/// The schema file `fanout infer` writes: TOML sections in the order docs/layouts.md lists them, each with the
/// comments that give its evidence, then the candidates it did not declare, as comments saying why.
package struct SchemaText: Sendable {
    /// One `[section]` or `[[array]]` entry: its comment lines and its `key = value` lines (values already TOML).
    package struct Section: Sendable {
        package var header: String
        package var comments: [String] = []
        package var entries: [(key: String, value: String)] = []

        package init(_ header: String, comments: [String] = []) {
            self.header = header
            self.comments = comments
        }

        package mutating func set(_ key: String, _ value: String, comment: String? = nil) {
            if let comment { comments.append(comment) }
            entries.append((key, value))
        }
    }

    package var preamble: [String] = []
    package var top: [(key: String, value: String)] = []
    package var sections: [Section] = []
    /// Candidates not declared, one comment line each.
    package var rejected: [String] = []

    package init() {}

    package var text: String {
        var lines = preamble.map { "# " + $0 }
        for (key, value) in top { lines.append("\(key) = \(value)") }
        for section in sections {
            lines.append("")
            lines += section.comments.map { "# " + $0 }
            lines.append(section.header)
            for (key, value) in section.entries { lines.append("\(key) = \(value)") }
        }
        if !rejected.isEmpty {
            lines.append("")
            lines.append("# Candidates not declared (the data does not show them to be copies):")
            lines += rejected.map { "# - " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A TOML basic string.
    package static func string(_ text: String) -> String { JSONWriter.quoted(text) }

    /// A TOML key: bare when it can be, else quoted.
    package static func key(_ text: String) -> String {
        let bare =
            !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
        return bare ? text : string(text)
    }

    /// `{ a = "x", b = "y" }`.
    package static func table(_ pairs: [(String, String)]) -> String {
        "{ " + pairs.map { "\(key($0.0)) = \(string($0.1))" }.joined(separator: ", ") + " }"
    }
}
