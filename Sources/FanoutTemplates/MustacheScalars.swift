import Mustache

// swift-mustache renders a value it has no protocol for with `String(describing:)`, after failed casts and an
// Optional check, and looks names up in a value without `MustacheParent` through `Mirror(reflecting:)`. Strings,
// integers and booleans are most of what templates show, and a section over a string (`{{#imageURL}}`) puts the
// string on the context stack, where every name inside the section is first looked up in it. These conformances
// give the same text and the same (absent) children, directly.

// swift-format-ignore: AvoidRetroactiveConformances
extension String: @retroactive MustacheCustomRenderable {
    /// The string itself, as `String(describing:)` gives.
    public var renderText: String { self }
    /// A string is never null: an empty one still opens a section, as before.
    public var isNull: Bool { false }
}

// swift-format-ignore: AvoidRetroactiveConformances
extension String: @retroactive MustacheParent {
    /// A string has no children (its `Mirror` has none), so no name resolves in it.
    public func child(named: String) -> Any? { nil }
}

// swift-format-ignore: AvoidRetroactiveConformances
extension Int: @retroactive MustacheCustomRenderable {
    /// The decimal digits, as `String(describing:)` gives.
    public var renderText: String { String(self) }
    /// A number is never null: zero still opens a section, as before.
    public var isNull: Bool { false }
}

// swift-format-ignore: AvoidRetroactiveConformances
extension Int: @retroactive MustacheParent {
    /// A number has no children (its `Mirror` has none), so no name resolves in it.
    public func child(named: String) -> Any? { nil }
}

// swift-format-ignore: AvoidRetroactiveConformances
extension Bool: @retroactive MustacheCustomRenderable {
    /// `true` or `false`, as `String(describing:)` gives.
    public var renderText: String { self ? "true" : "false" }
    /// Sections test booleans before this protocol, so this only completes the conformance.
    public var isNull: Bool { false }
}
