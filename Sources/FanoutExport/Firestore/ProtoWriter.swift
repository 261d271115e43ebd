/// Writes protocol buffers' wire format, for ``EntityEncoder``.
struct ProtoWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func tag(_ field: UInt32, _ wire: UInt8) { varint(UInt64(field) << 3 | UInt64(wire)) }

    mutating func varint(_ field: UInt32, _ value: UInt64) {
        tag(field, 0)
        varint(value)
    }

    mutating func fixed64(_ field: UInt32, _ value: UInt64) {
        tag(field, 1)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bytes(_ field: UInt32, _ data: some Collection<UInt8>) {
        tag(field, 2)
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    mutating func string(_ field: UInt32, _ text: String) { bytes(field, Array(text.utf8)) }

    /// A length-delimited message written by `body`.
    mutating func message(_ field: UInt32, _ body: (inout ProtoWriter) -> Void) {
        var inner = ProtoWriter()
        body(&inner)
        bytes(field, inner.bytes)
    }

    /// A group: its start tag, what `body` writes, its end tag.
    mutating func group(_ field: UInt32, _ body: (inout ProtoWriter) -> Void) {
        tag(field, 3)
        body(&self)
        tag(field, 4)
    }
}
