import FanoutJSON

/// A value as an export stores it at a field that declarations read (a counter, a copy, a copied original):
/// JSON scalars are kept, objects and arrays only as what they are.
public enum StoredValue: Sendable, Equatable {
    case missing
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case object
    case array

    /// The value as JSON; nil when missing, and for objects and arrays, which are not kept.
    public var json: JSONValue? {
        switch self {
        case .missing, .object, .array: nil
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        }
    }

    /// The JSON text copies are compared by, as the `declared` table's `value` column holds it: the canonical
    /// writer's text of a scalar, `{…}`/`[…]` for an object or array, nil when missing.
    public var text: String? {
        switch self {
        case .missing: nil
        case .object: "{…}"
        case .array: "[…]"
        default: JSONWriter().write(json!)
        }
    }

    /// An integer, also from a number written with a zero fraction (`4.0`).
    public var int64: Int64? {
        guard case .number(let n) = self else { return nil }
        if let exact = n.int64 { return exact }
        return Int64(exactly: n.double)
    }

    /// Whether a value is there (`null` counts as absent, as Firebase stores no nulls).
    public var isPresent: Bool {
        switch self {
        case .missing, .null: false
        default: true
        }
    }
}

extension StoredValue {
    /// The string, when the value is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
}
