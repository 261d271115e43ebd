/// Finds what the TOML library would stop the process on rather than report: a table header whose key starts with a
/// character no key starts with (`[{`, `[[=`, a `[` alone on its line). toml++ asserts that the character after a
/// header's `[` starts a key (an abort in every build of Fanout, which compiles it without `NDEBUG`), so a schema file
/// or a `fanout.toml` holding one crashed every command (found by `make fuzz`: `fuzz/regressions/toml-header-*`).
///
/// Read with a scan of TOML's statements, so that a `[` starting a line inside a value (an array of arrays, a
/// multi-line string) is not taken for a header. Every such header is invalid TOML, so nothing valid is refused.
package enum TOMLHeaderCheck {
    /// What is wrong with such a header.
    package static let message = "a table header's [ must be followed by a key (a letter, digit, _, - or a quote)"

    /// The 1-based line and column of the first such header's `[`, if any.
    package static func firstBadHeader(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var i = 0, line = 1, lineStart = 0
        func at(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }
        func advance() {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        func skipToEndOfLine() { while let byte = at(), byte != 0x0A { i += 1 } }
        func skipSpaces() { while let byte = at(), byte == 0x20 || byte == 0x09 { i += 1 } }
        /// Skips a string opening at `i` with `quote`: one line, or three quotes to three quotes.
        func skipString(_ quote: UInt8) {
            let basic = quote == UInt8(ascii: "\"")
            if at(1) == quote && at(2) == quote {
                i += 3
                while let byte = at() {
                    if basic && byte == UInt8(ascii: "\\") {
                        i += 1
                        if at() != nil { advance() }
                    } else if byte == quote && at(1) == quote && at(2) == quote {
                        i += 3
                        return
                    } else {
                        advance()
                    }
                }
                return
            }
            i += 1
            while let byte = at(), byte != 0x0A {
                i += 1
                if basic && byte == UInt8(ascii: "\\") {
                    if at() != nil && at() != 0x0A { i += 1 }
                } else if byte == quote {
                    return
                }
            }
        }
        func startsKey(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""),
                UInt8(ascii: "'"), UInt8(ascii: "]"):
                return true
            default: return false
            }
        }
        while i < bytes.count {
            // A statement's start.
            guard let first = at() else { break }
            switch first {
            case 0x20, 0x09, 0x0D, 0x0A:
                advance()
            case UInt8(ascii: "#"):
                skipToEndOfLine()
            case UInt8(ascii: "["):
                let column = i - lineStart + 1
                i += 1
                if at() == UInt8(ascii: "[") { i += 1 }
                skipSpaces()
                // The end of the text is reported by the library.
                if let byte = at(), !startsKey(byte) { return (line, column) }
                skipToEndOfLine()
            default:
                // A key, to its `=` (or the end of the line), then the value, which may span lines inside brackets
                // and multi-line strings.
                while let byte = at(), byte != 0x0A, byte != UInt8(ascii: "=") {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { skipString(byte) } else { i += 1 }
                }
                guard at() == UInt8(ascii: "=") else { continue }
                i += 1
                var depth = 0
                while let byte = at() {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        skipString(byte)
                    } else if byte == UInt8(ascii: "#") {
                        skipToEndOfLine()
                    } else if byte == 0x0A && depth == 0 {
                        break
                    } else {
                        if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
                        if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
                        advance()
                    }
                }
            }
        }
        return nil
    }
}
