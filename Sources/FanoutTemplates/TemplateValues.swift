import Mustache

/// Values a template sees by name, like a `[String: Any]`'s, without building a dictionary for them.
///
/// A timeline page shows hundreds of posts, each with its own values; building and hashing a dictionary per post
/// costs more than looking the few names up with a `switch`. A conforming type answers ``child(named:)`` for the
/// names in ``names`` (nil when a value is absent, as a missing key) and behaves as the equivalent dictionary
/// everywhere else a template could tell the difference: transforms such as `{{count(.)}}` and `{{.}}`.
///
/// A conforming type answers ``value(named:)`` with a ``TemplateValue``, which Fanout's own engine renders without
/// a cast; swift-mustache's ``child(named:)`` is made from it, so both engines see the same values.
package protocol TemplateValues: MustacheParent, MustacheTransformable, MustacheCustomRenderable {
    /// Every name ``value(named:)`` may answer.
    static var names: [String] { get }

    /// The value called `name`, nil when absent.
    func value(named name: String) -> TemplateValue?

    /// A hash of everything a section's body renders from these values (with the renderer), when the engine may keep
    /// the text of a list of them and copy it wherever the same list comes again (``TemplateFragments``); nil (the
    /// default) to render it every time.
    var fragmentKey: UInt64? { get }

    /// Whether every value of the type answers each name any of them answers (no value is ever absent): then one
    /// value tells whether a list of them answers a section's names (``TemplateFragments``). False by default.
    static var answersEveryName: Bool { get }
}

extension TemplateValues {
    package var fragmentKey: UInt64? { nil }

    package static var answersEveryName: Bool { false }

    /// The value called `name`, as swift-mustache takes it.
    package func child(named name: String) -> Any? { value(named: name)?.any }

    /// The values as the dictionary they stand for.
    package var dictionary: [String: Any] {
        var values: [String: Any] = [:]
        for name in Self.names {
            if let value = child(named: name) { values[name] = value }
        }
        return values
    }

    /// A dictionary's transforms (`count`, `empty`, `enumerated`, `sorted`), on ``dictionary``.
    package func transform(_ name: String) -> Any? { dictionary.transform(name) }

    /// What swift-mustache renders for a dictionary: its description.
    package var renderText: String { String(describing: dictionary) }

    /// Never null, as a dictionary.
    package var isNull: Bool { false }
}
