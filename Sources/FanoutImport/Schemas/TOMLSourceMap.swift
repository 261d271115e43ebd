/// Finds the line where a key of a TOML file (a schema file, a site project's `fanout.toml`) is written, so that
/// errors about its value can name it.
///
/// The TOML library reports positions for syntax errors only; a key's value is checked after parsing, when the
/// positions are gone. These files are small and plain (headers, `key = value` lines, inline tables), so a
/// line scan that follows table headers finds the line reliably. It never decides validity, only a line number.
package struct TOMLSourceMap {
    private var entries: [(path: [String], line: Int)] = []

    package init(_ text: String) {
        var table: [String] = []
        // `[[counters]]` starts the next element of an array of tables: its keys are `counters`, `[2]`, … (from 1).
        var elements: [[String]: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" { continue }
            if line.first == "[" {
                let inner = line.drop { $0 == "[" }.prefix { $0 != "]" }
                table = Self.keyComponents(inner)
                if line.hasPrefix("[[") {
                    let number = elements[table, default: 0] + 1
                    elements[table] = number
                    entries.append((table, index + 1))
                    table.append(Self.element(number - 1))
                }
                entries.append((table, index + 1))
            } else if let equals = Self.assignment(in: line) {
                entries.append((table + Self.keyComponents(line[..<equals]), index + 1))
            }
        }
    }

    /// The line of `path` (e.g. `["posts", "created_at", "unit"]`), or of the closest enclosing key or table
    /// written in the file (the line of `created_at = { … }` for its `unit`). Nil when nothing of it is written.
    package func line(of path: [String]) -> Int? { written(path)?.line }

    /// The longest part of `path` written in the file (`["users"]` for a relation written as `users = "…"`).
    func writtenKey(_ path: [String]) -> [String]? { written(path).map { Array(path.prefix($0.length)) } }

    private func written(_ path: [String]) -> (length: Int, line: Int)? {
        var best: (length: Int, line: Int)?
        for entry in entries where entry.path.count <= path.count && Array(path.prefix(entry.path.count)) == entry.path
        {
            if entry.path.count == path.count { return (entry.path.count, entry.line) }
            if entry.path.count > (best?.length ?? 0) { best = (entry.path.count, entry.line) }
        }
        return best
    }

    /// The key of element `index` (from 0) of an array of tables, as paths name it: `[1]` for the first.
    package static func element(_ index: Int) -> String { "[\(index + 1)]" }

    /// `path` as messages write it: `posts.created_at.unit`, `counters[2].per`.
    package static func text(of path: [String]) -> String {
        path.enumerated().map { i, key in i > 0 && !key.hasPrefix("[") ? "." + key : key }.joined()
    }

    /// The index of the `=` of a `key = value` line, outside quoted key parts.
    private static func assignment(in line: Substring) -> Substring.Index? {
        var quote: Character?
        for index in line.indices {
            let c = line[index]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "=" {
                return index
            }
        }
        return nil
    }

    /// `a.b`, `"a".b`, ` a . b ` → `["a", "b"]`.
    private static func keyComponents(_ text: Substring) -> [String] {
        text.split(separator: ".").map { part in
            var part = part
            let trimmed: Set<Character> = [" ", "\t", "\"", "'"]
            while let first = part.first, trimmed.contains(first) { part = part.dropFirst() }
            while let last = part.last, trimmed.contains(last) { part = part.dropLast() }
            return String(part)
        }
    }
}
