import FanoutJSON

/// Values that findings report as expected or actual database values.
package protocol JSONValueConvertible {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension JSONValue: JSONValueConvertible {
    /// Itself.
    package var jsonValue: JSONValue { self }
}

extension Int: JSONValueConvertible {
    /// An integer number.
    package var jsonValue: JSONValue { .number(JSONNumber(Int64(self))) }
}

extension Int64: JSONValueConvertible {
    /// An integer number.
    package var jsonValue: JSONValue { .number(JSONNumber(self)) }
}

extension String: JSONValueConvertible {
    /// A string.
    package var jsonValue: JSONValue { .string(self) }
}

extension Bool: JSONValueConvertible {
    /// A boolean.
    package var jsonValue: JSONValue { .bool(self) }
}

extension Double: JSONValueConvertible {
    /// A number; integral values are written as integers.
    package var jsonValue: JSONValue {
        if let exact = Int64(exactly: self) { return .number(JSONNumber(exact)) }
        return .number(JSONNumber(self))
    }
}
