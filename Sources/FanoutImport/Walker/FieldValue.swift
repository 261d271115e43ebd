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

    /// A string or number as a message quotes it (`"yesterday"`, `1.7e12`), long strings cut; nil for other values.
    var quoted: String? {
        switch self {
        case .string(let s): JSONWriter.quoted(s.count > 60 ? String(s.prefix(57)) + "…" : s)
        case .number(let n): n.int64.map(String.init) ?? "\(n.double)"
        default: nil
        }
    }

    /// The key this value names: a key read as one, a string handed to `sink` now, or an integer as its decimal
    /// text, so that `postID: 4` and `"4"` name one key (apps number records with integers as often as with strings).
    func key(in sink: inout some FactSink) -> KeyID? {
        switch self {
        case .key(let id): id
        case .string(let s): sink.key(s)
        case .number: integerKey.map { sink.key($0) }
        default: nil
        }
    }

    /// The decimal text of an integer, the key it names.
    var integerKey: String? { if case .number(let n) = self, let int = n.int64 { String(int) } else { nil } }

    /// Whether the value can name a key: a string, or an integer.
    var namesKey: Bool {
        switch self {
        case .string, .key: true
        default: integerKey != nil
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
