/// A JSON syntax error (or a schema problem reported by an adapter) together with the position where it was found.
///
/// `description` is exactly `"invalid JSON at line \(line), column \(column): \(message)"`.
/// `line` and `column` are 1-based; `column` counts bytes (not characters) within the line, and only `'\n'`
/// starts a new line.
public struct JSONSyntaxError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, e.g. `"expected ',' or '}' after object member"` or `"unterminated string"`.
    public let message: String
    /// The byte offset in the input where the problem is (the input's length for "unexpected end of input").
    public let offset: Int
    /// The 1-based line of `offset`.
    public let line: Int
    /// The 1-based column of `offset`, counted in bytes from the start of its line.
    public let column: Int

    /// Creates an error from an already computed position. Most code should use `JSONReader.error(_:at:)`,
    /// which computes `line` and `column` from the buffer.
    package init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `"invalid JSON at line L, column C: message"`.
    public var description: String {
        "invalid JSON at line \(line), column \(column): \(message)"
    }
}

extension JSONSyntaxError {
    /// Builds an error for `offset` within `bytes`, computing the line and column by scanning the bytes before it.
    /// `offset` is clamped to `0...count`. This is only done when an error is built, never on the hot path.
    static func locate(
        _ message: String, at offset: Int, in base: UnsafePointer<UInt8>, count: Int
    ) -> JSONSyntaxError {
        let clamped = min(max(offset, 0), count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < clamped {
            if base[index] == 0x0A {
                line &+= 1
                lineStart = index &+ 1
            }
            index &+= 1
        }
        return JSONSyntaxError(message: message, offset: clamped, line: line, column: clamped &- lineStart &+ 1)
    }

    /// A short human-readable name for a byte, for messages: `'x'` for printable ASCII, `byte 0xNN` otherwise.
    static func describe(byte: UInt8) -> String {
        if byte >= 0x21 && byte <= 0x7E {
            return "'" + String(UnicodeScalar(byte)) + "'"
        }
        let digits = Array("0123456789ABCDEF".utf8)
        let hex = String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
        return "byte 0x" + hex
    }
}
