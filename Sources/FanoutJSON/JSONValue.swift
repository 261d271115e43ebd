/// A small in-memory JSON tree for small documents (configuration, baselines, patches, tests).
///
/// Objects keep their members in the order written. When parsing, duplicate keys collapse: the member stays at
/// the position of the key's first occurrence and takes the value of its last occurrence ("the last one wins",
/// like JavaScript's `JSON.parse`). Keys and strings are compared by their UTF-8 bytes (no Unicode
/// normalization), both for duplicate detection and for `==`.
///
/// Equality, parsing and writing are iterative. Note that Swift releases nested enum values recursively, so
/// `parse` refuses documents nested deeper than `JSONValue.maximumDepth`; use `JSONReader` for deeper input.
public indirect enum JSONValue: Sendable {
    /// An object's members in document order.
    case object([(key: String, value: JSONValue)])
    /// An array's elements.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// A number (exact `Int64` when the literal was an integer that fits).
    case number(JSONNumber)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The kind of this value.
    public var kind: JSONValueKind {
        switch self {
        case .object: return .object
        case .array: return .array
        case .string: return .string
        case .number: return .number
        case .bool: return .bool
        case .null: return .null
        }
    }

    /// Object member lookup: the value of the last member whose key has the same UTF-8 bytes as `key`;
    /// nil when there is none or when this value is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members.reversed() where JSONValue.sameBytes(member.key, key) {
            return member.value
        }
        return nil
    }

    /// The string, or nil when this value is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, or nil when this value is not a number.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The bool, or nil when this value is not a bool.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, or nil when this value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members in order, or nil when this value is not an object.
    public var objectMembers: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// True when both strings have the same UTF-8 bytes.
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }
}

extension JSONValue: Equatable {
    /// Structural equality, computed iteratively: objects are equal when they have the same members in the same
    /// order (keys compared by UTF-8 bytes), strings when their UTF-8 bytes are equal, numbers as `JSONNumber`.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.object(let x), .object(let y)):
                guard x.count == y.count else { return false }
                for (m, n) in zip(x, y) {
                    guard sameBytes(m.key, n.key) else { return false }
                    pending.append((m.value, n.value))
                }
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                for pair in zip(x, y) { pending.append(pair) }
            case (.string(let x), .string(let y)):
                guard sameBytes(x, y) else { return false }
            case (.number(let x), .number(let y)):
                guard x == y else { return false }
            case (.bool(let x), .bool(let y)):
                guard x == y else { return false }
            case (.null, .null):
                break
            default:
                return false
            }
        }
        return true
    }
}
