import FanoutCore
import FanoutJSON

/// A field's value as read, or what kind of value it was when Fanout does not keep it.
enum FieldValue {
    case missing
    case string(String)
    /// A string that names a key (a uid, a post key), handed to the sink straight from the reader's bytes
    /// without making a `String`: millions of timeline entries and likes name their users this way.
    case key(KeyID)
    case number(JSONNumber)
    case bool(Bool)
    case null
    case object
    case array

    /// The JSON type's name, as reported by `post-field`.
    var typeName: String {
        switch self {
        case .missing: "missing"
        case .string, .key: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        case .object: "object"
        case .array: "array"
        }
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }

    /// The key this value names: a key read as one, or a string handed to `sink` now.
    func key(in sink: inout some FactSink) -> KeyID? {
        switch self {
        case .key(let id): id
        case .string(let s): sink.key(s)
        default: nil
        }
    }

    /// The value as the core keeps a declared row's value. A key read as one has no text here; the walker reads
    /// value fields as text (a field that is a key for one row set and a value for another is read as text too).
    var stored: StoredValue {
        switch self {
        case .missing: .missing
        case .string(let s): .string(s)
        case .key: .missing
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .null: .null
        case .object: .object
        case .array: .array
        }
    }

    var double: Double? { if case .number(let n) = self { n.double } else { nil } }

    /// An integer, also from a number written with a zero fraction (`4.0`).
    var int64: Int64? {
        guard case .number(let n) = self else { return nil }
        if let exact = n.int64 { return exact }
        return Int64(exactly: n.double)
    }
}
