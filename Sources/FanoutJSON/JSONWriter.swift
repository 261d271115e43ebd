/// Writes JSON text from a `JSONValue`, deterministically (byte-identical output for equal input, across runs).
///
/// - Compact mode (the default) writes no insignificant whitespace; `pretty` writes 2-space indentation with
///   `"key": value` and one member or element per line (empty containers stay `{}` / `[]`). No trailing newline.
/// - `sortKeys` (the default, "canonical mode") orders object members by the UTF-8 bytes of their keys and, when
///   a hand-built object repeats a key, keeps only the last member with that key (the same "last one wins" rule
///   as parsing). Without `sortKeys`, members are written as given, duplicates included.
/// - Strings are escaped minimally: `"` → `\"`, `\` → `\\`, control characters as `\n` `\t` `\r` `\b` `\f` or
///   `\u00XX` (lowercase hex); `/` and non-ASCII are written as is (UTF-8).
/// - Numbers: an `int64` is written as its decimal digits; otherwise the double's shortest round-trip form
///   (Swift's `description`, e.g. `1.5`, `1e-05`, `1e+20`); non-finite doubles are written as `null`.
///
/// Writing is iterative (explicit stack), so deeply nested values cannot overflow the call stack.
public struct JSONWriter: Sendable {
    /// Whether to indent with 2 spaces per level.
    public let pretty: Bool
    /// Whether to sort object members by the UTF-8 bytes of their keys (and drop earlier duplicate keys).
    public let sortKeys: Bool

    /// Creates a writer; the defaults give compact canonical JSON.
    public init(pretty: Bool = false, sortKeys: Bool = true) {
        self.pretty = pretty
        self.sortKeys = sortKeys
    }

    /// The JSON text for `value`.
    public func write(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text (UTF-8) for `value` to `out`.
    public func write(_ value: JSONValue, into out: inout [UInt8]) {
        var frames: [WriteFrame] = []
        var pending: JSONValue? = value
        while true {
            if let current = pending {
                pending = nil
                switch current {
                case .object(let members):
                    let ordered = sortKeys ? JSONWriter.canonicalOrder(members) : members
                    if ordered.isEmpty {
                        out.append(Byte.openBrace)
                        out.append(Byte.closeBrace)
                    } else {
                        out.append(Byte.openBrace)
                        frames.append(WriteFrame(members: ordered))
                    }
                case .array(let elements):
                    if elements.isEmpty {
                        out.append(Byte.openBracket)
                        out.append(Byte.closeBracket)
                    } else {
                        out.append(Byte.openBracket)
                        frames.append(WriteFrame(elements: elements))
                    }
                case .string(let string):
                    JSONWriter.appendQuoted(string, to: &out)
                case .number(let number):
                    JSONWriter.appendNumber(number, to: &out)
                case .bool(let bool):
                    out.append(contentsOf: bool ? "true".utf8 : "false".utf8)
                case .null:
                    out.append(contentsOf: "null".utf8)
                }
            }

            // Move to the next member or element, closing finished containers.
            guard let top = frames.indices.last else { break }
            let index = frames[top].index
            if index == frames[top].count {
                let isObject = frames[top].isObject
                frames.removeLast()
                newline(depth: frames.count, into: &out)
                out.append(isObject ? Byte.closeBrace : Byte.closeBracket)
                continue
            }
            if index > 0 { out.append(Byte.comma) }
            newline(depth: frames.count, into: &out)
            frames[top].index = index &+ 1
            if frames[top].isObject {
                let member = frames[top].members[index]
                JSONWriter.appendQuoted(member.key, to: &out)
                out.append(Byte.colon)
                if pretty { out.append(Byte.space) }
                pending = member.value
            } else {
                pending = frames[top].elements[index]
            }
        }
    }

    /// A JSON string literal for `string`, with the same escaping as `write` (for streaming writers).
    public static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count &+ 2)
        appendQuoted(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The JSON text of a number, as `write` formats it (`null` for non-finite doubles).
    public static func formatted(_ number: JSONNumber) -> String {
        var out: [UInt8] = []
        appendNumber(number, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Internals

    /// In pretty mode, a newline and `depth` levels of indentation.
    @inline(__always)
    private func newline(depth: Int, into out: inout [UInt8]) {
        guard pretty else { return }
        out.append(Byte.newline)
        for _ in 0..<(depth &* 2) { out.append(Byte.space) }
    }

    /// Members sorted by UTF-8 key bytes (ties keep input order), keeping only the last of equal keys.
    static func canonicalOrder(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        guard members.count > 1 else { return members }
        let order = members.indices.sorted { a, b in
            let keyA = members[a].key.utf8
            let keyB = members[b].key.utf8
            if keyA.elementsEqual(keyB) { return a < b }
            return keyA.lexicographicallyPrecedes(keyB)
        }
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(members.count)
        for position in order {
            let member = members[position]
            if let last = result.indices.last, JSONValue.sameBytes(result[last].key, member.key) {
                result[last] = member  // a later duplicate replaces the earlier one
            } else {
                result.append(member)
            }
        }
        return result
    }

    /// Appends `"string"` with minimal escaping.
    static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendQuoted(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// Appends the UTF-8 text `bytes` as a JSON string literal, escaped as ``write(_:)`` escapes strings.
    /// Runs of bytes that need no escape (nearly all of them) are copied at once, so that streaming writers
    /// (`fanout tables`) can write millions of keys quickly; inlinable, so that their own buffers get a copy
    /// compiled for them.
    @inlinable
    public static func appendQuoted<Output: JSONOutput>(_ bytes: UnsafeRawBufferPointer, to out: inout Output) {
        out.append(0x22)
        appendEscaped(bytes, to: &out)
        out.append(0x22)
    }

    /// Appends the UTF-8 text `bytes` escaped as the inside of a JSON string literal, without the quotes (for
    /// writers that build one string from several pieces).
    @inlinable
    public static func appendEscaped<Output: JSONOutput>(_ bytes: UnsafeRawBufferPointer, to out: inout Output) {
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight bytes at a time while none needs an escape (nearly all of them), then byte by byte.
            if index + 8 <= count, !wordNeedsEscape(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                if needsEscape(bytes[index]) {
                    if index > start { out.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[start..<index])) }
                    appendEscape(bytes[index], to: &out)
                    start = index + 1
                }
                index += 1
            }
        }
        if count > start { out.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
    }

    /// Whether any of the eight bytes of `word` is escaped: below 0x20, a quote or a backslash (the bit tricks of
    /// "Bit Twiddling Hacks": a byte is zero, or less than n, where its high bit survives the subtraction).
    @inlinable
    static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote & highs
        let zeroBackslash = (backslash &- ones) & ~backslash & highs
        return below | zeroQuote | zeroBackslash != 0
    }

    /// Whether `byte` is escaped in a JSON string: a quote, a backslash or a control character.
    @inlinable
    public static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    /// Appends the escape of `byte`, a quote, a backslash or a control character.
    @inlinable
    static func appendEscape<Output: JSONOutput>(_ byte: UInt8, to out: inout Output) {
        out.append(0x5C)  // \
        switch byte {
        case 0x22, 0x5C: out.append(byte)
        case 0x0A: out.append(0x6E)  // n
        case 0x09: out.append(0x74)  // t
        case 0x0D: out.append(0x72)  // r
        case 0x08: out.append(0x62)  // b
        case 0x0C: out.append(0x66)  // f
        default:
            let hex: (UInt8) -> UInt8 = { $0 < 10 ? 0x30 + $0 : 0x61 + $0 - 10 }
            for digit in [0x75, 0x30, 0x30, hex(byte >> 4), hex(byte & 0x0F)] { out.append(digit) }  // u00XX
        }
    }

    /// Appends a number: exact integer digits, the double's shortest round-trip form, or `null` if not finite.
    @inlinable
    public static func appendNumber<Output: JSONOutput>(_ number: JSONNumber, to out: inout Output) {
        var text = number.int64.map { String($0) } ?? (number.double.isFinite ? number.double.description : "null")
        text.withUTF8 { out.appendBytes(UnsafeRawBufferPointer($0)) }
    }
}

/// Where JSON text is appended a piece at a time: a byte array, or a streaming writer's own buffer.
public protocol JSONOutput {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
}

extension JSONOutput {
    /// Appends the bytes of a literal.
    @inlinable
    public mutating func append(literal text: StaticString) {
        appendBytes(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 bytes of `text`.
    @inlinable
    public mutating func append(text: String) {
        var text = text
        text.withUTF8 { appendBytes(UnsafeRawBufferPointer($0)) }
    }
}

extension Array: JSONOutput where Element == UInt8 {
    @inlinable
    public mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// One open container while writing.
private struct WriteFrame {
    let isObject: Bool
    let members: [(key: String, value: JSONValue)]
    let elements: [JSONValue]
    let count: Int
    var index = 0

    init(members: [(key: String, value: JSONValue)]) {
        isObject = true
        self.members = members
        elements = []
        count = members.count
    }

    init(elements: [JSONValue]) {
        isObject = false
        members = []
        self.elements = elements
        count = elements.count
    }
}
