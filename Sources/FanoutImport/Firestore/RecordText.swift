/// A string read from a record's bytes: names, path elements and string values are nearly always ASCII, which is
/// taken as it is, and only other bytes are validated, because `String(validating:as:)` looks up generic metadata
/// at run time on every call, which costs several times an ASCII scan.
enum RecordText {
    /// The bytes as a string, or nil when they are not UTF-8.
    @inline(__always)
    static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        if isASCII(bytes) { return String(decoding: utf8, as: UTF8.self) }
        return String(validating: utf8, as: UTF8.self)
    }

    /// Whether the bytes are UTF-8.
    @inline(__always)
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        isASCII(bytes) || String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self) != nil
    }

    /// Whether no byte has its high bit set, eight bytes at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var bits: UInt64 = 0
        var i = 0
        while i + 8 <= count {
            bits |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            bits |= UInt64(bytes[i])
            i += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
