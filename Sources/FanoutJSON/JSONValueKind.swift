/// The kind of a JSON value, as returned by `JSONReader.peekKind()` and `JSONValue.kind`.
public enum JSONValueKind: Sendable, Equatable {
    /// `{ ... }`
    case object
    /// `[ ... ]`
    case array
    /// `"..."`
    case string
    /// A number literal such as `-12.5e3`.
    case number
    /// `true` or `false`.
    case bool
    /// `null`.
    case null
}
