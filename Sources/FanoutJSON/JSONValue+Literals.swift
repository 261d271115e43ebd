extension JSONValue: ExpressibleByStringLiteral {
    /// `"text"` as `.string("text")`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// `42` as an exact integer number.
    public init(integerLiteral value: Int64) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// `1.5` as a floating-point number.
    public init(floatLiteral value: Double) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` / `false` as `.bool`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// `[a, b]` as `.array`.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// `["k": v]` as `.object`, members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}
