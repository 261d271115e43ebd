/// Thrift's compact protocol, the encoding of a Parquet file's page headers and footer (`FileMetaData`): only
/// what writing them takes (structs, i16/i32/i64, binary, booleans, lists). docs/tables.md "Parquet".
///
/// Integers are zigzag varints; a field's header is one byte (the id's delta from the previous field's, and
/// the type) when the delta is 1…15; a struct ends with a zero byte; a list's header is its size and its
/// elements' type. See the Thrift compact protocol specification.
struct ThriftCompactWriter {
    /// The compact protocol's type codes.
    enum FieldType: UInt8 {
        case boolTrue = 1
        case boolFalse = 2
        case byte = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case structure = 12
    }

    private(set) var bytes: [UInt8] = []
    /// The last field id written in each open struct, innermost last.
    private var lastField: [Int16] = [0]

    /// An unsigned LEB128 varint.
    static func varint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// Zigzag: 0, -1, 1, -2, … as 0, 1, 2, 3, …
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = Int(id) - Int(lastField[lastField.count - 1])
        if delta > 0, delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            Self.varint(Self.zigzag(Int64(id)), to: &bytes)
        }
        lastField[lastField.count - 1] = id
    }

    mutating func i32(_ id: Int16, _ value: Int32) {
        fieldHeader(id, .i32)
        Self.varint(Self.zigzag(Int64(value)), to: &bytes)
    }

    mutating func i64(_ id: Int16, _ value: Int64) {
        fieldHeader(id, .i64)
        Self.varint(Self.zigzag(value), to: &bytes)
    }

    mutating func bool(_ id: Int16, _ value: Bool) { fieldHeader(id, value ? .boolTrue : .boolFalse) }

    mutating func binary(_ id: Int16, _ value: String) {
        fieldHeader(id, .binary)
        binaryValue(value)
    }

    /// A string as a list element or a field's value: its length, then its UTF-8 bytes.
    mutating func binaryValue(_ value: String) {
        let utf8 = Array(value.utf8)
        Self.varint(UInt64(utf8.count), to: &bytes)
        bytes += utf8
    }

    /// An i32 as a list element.
    mutating func i32Value(_ value: Int32) { Self.varint(Self.zigzag(Int64(value)), to: &bytes) }

    /// A list field's header: then its `count` elements of `type` follow (structs: each begun with
    /// ``beginStruct()`` and ended with ``endStruct()``).
    mutating func list(_ id: Int16, of type: FieldType, count: Int) {
        fieldHeader(id, .list)
        listHeader(of: type, count: count)
    }

    mutating func listHeader(of type: FieldType, count: Int) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            Self.varint(UInt64(count), to: &bytes)
        }
    }

    /// A struct field's header; its fields follow, then ``endStruct()``.
    mutating func structField(_ id: Int16) {
        fieldHeader(id, .structure)
        beginStruct()
    }

    /// A struct as a list element, or the outermost struct (which needs no call: the writer starts inside it).
    mutating func beginStruct() { lastField.append(0) }

    mutating func endStruct() {
        bytes.append(0)
        lastField.removeLast()
    }

    /// The outermost struct's end: the bytes are complete.
    mutating func finish() -> [UInt8] {
        bytes.append(0)
        return bytes
    }
}
