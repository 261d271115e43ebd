import FanoutJSON

/// Looks at the first bytes of a stream as they arrive (standard input, a pipe, a device, inflated gzip), so
/// that input no export can start with — NUL bytes, `/dev/zero`, most binary files — is refused at its first
/// byte instead of after reading it all (docs/robustness.md "Input that is not JSON").
///
/// The readers behind it take JSON, gzip, a Parse zip (`PK`) and, for `--schema`, TOML; so after whitespace and a
/// byte order mark the first byte must be one that can start one of them: a letter, a digit or one of `{["'-_#+`, or
/// gzip's 0x1F. Anything else is the syntax error the JSON reader would give there, with the same line and column.
struct StreamStart {
    private let source: String
    /// Whether the first significant byte has been seen and accepted.
    private(set) var decided = false
    private var offset = 0, line = 1, lineStart = 0

    init(source: String) { self.source = source }

    /// Looks at the next `bytes` of the stream, which follow those given before.
    mutating func check(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        var index = 0
        while !decided, index < bytes.count {
            let byte = bytes[index], at = offset + index
            // A UTF-8 byte order mark at the very start, skipped as the reader skips it.
            if at == 0, byte == 0xEF {
                guard index + 2 < bytes.count else { decided = true; return }  // a mark cut across reads: let it be
                guard bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF else { throw refusal(byte, at: at) }
                index += 3
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0D: break
            case 0x0A: (line, lineStart) = (line + 1, at + 1)
            default:
                guard Self.canStart(byte) else { throw refusal(byte, at: at) }
                decided = true
                return
            }
            index += 1
        }
        offset += bytes.count
    }

    /// Whether `byte` can start JSON, gzip, a zip archive or TOML.
    static func canStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "-"),
            UInt8(ascii: "_"), UInt8(ascii: "#"), UInt8(ascii: "+"), 0x1F:
            true
        default: false
        }
    }

    private func refusal(_ byte: UInt8, at offset: Int) -> InputError {
        .syntax(
            source: source,
            JSONSyntaxError(
                message: "expected a value, found \(Self.describe(byte))", offset: offset, line: line,
                column: offset - lineStart + 1))
    }

    /// `'x'` for printable ASCII, `byte 0xNN` otherwise, as the JSON reader names a byte.
    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte <= 0x7E { return "'" + String(UnicodeScalar(byte)) + "'" }
        let digits = Array("0123456789ABCDEF".utf8)
        return "byte 0x" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
