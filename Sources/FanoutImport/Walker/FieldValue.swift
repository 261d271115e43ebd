import FanoutJSON

/// A field's value as read, or what kind of value it was when Fanout does not keep it.
enum FieldValue {
    case missing
    case string(String)
    case number(JSONNumber)
    case bool(Bool)
    case null
    case object
    case array

    /// The JSON type's name, as reported by `post-field`.
    var typeName: String {
        switch self {
        case .missing: "missing"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        case .object: "object"
        case .array: "array"
        }
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }

    var double: Double? { if case .number(let n) = self { n.double } else { nil } }

    /// An integer, also from a number written with a zero fraction (`4.0`).
    var int64: Int64? {
        guard case .number(let n) = self else { return nil }
        if let exact = n.int64 { return exact }
        return Int64(exactly: n.double)
    }
}
