/// A value as Fanout's template engine sees it (``CompiledTemplate``): the few kinds pages give templates, told apart
/// once when a page's values are converted, so that rendering never asks an `Any` which protocols it conforms to.
///
/// swift-mustache, given the same values as `Any`, tries four to six protocol casts per name on every level of its
/// context stack; that was three quarters of a site build (docs/performance.md "Templates"). Each case renders,
/// opens sections and answers names exactly as swift-mustache does with the `Any` it stands for (``any``), which
/// the differential tests check.
package enum TemplateValue {
    case string(String)
    /// UTF-8 text its owner keeps for the whole render (a post's card in the build's ``CardCache``): rendered,
    /// opening sections and answering names as the string it spells, without a string made or retained for it.
    case bytes(UnsafeRawBufferPointer)
    case int(Int)
    case bool(Bool)
    /// Rendered as `String(describing:)` gives, as swift-mustache renders a number it has no protocol for.
    case double(Double)
    case list([TemplateValue])
    case dictionary([String: TemplateValue])
    /// A struct answering names itself (``TemplateValues``), such as a post's card.
    case object(any TemplateValues)
    /// A JSON null (the Mustache specification's data): found, but rendering as nothing and opening no section.
    case null
    /// Anything else (an absent optional stored in a dictionary): rendered as its description, opening sections
    /// and holding no names, as swift-mustache treats a value it has no protocol for.
    case other(Any)

    /// `value` as the engine sees it; `kinds` tells the program's own types apart (``TemplateValueKinds``).
    package init(_ value: Any, kinds: (any TemplateValueKinds.Type)? = nil) {
        // The lists, dictionaries and cards pages give are told apart by their concrete types before the protocol
        // is asked: a cast to a protocol looks through every conformance of the program the first time a process
        // asks it of a type, a millisecond over a page's values, which every small rebuild paid
        // (docs/performance.md "Rebuilds").
        switch value {
        case let text as String: self = .string(text)
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(number)
        default:
            if let kinds, let known = kinds.templateValue(of: value) {
                self = known
                return
            }
            switch value {
            case let values as [String: Any]: self = .dictionary(values.mapValues { TemplateValue($0, kinds: kinds) })
            case let items as [[String: Any]]:
                self = .list(items.map { .dictionary($0.mapValues { TemplateValue($0, kinds: kinds) }) })
            case let values as any TemplateValues: self = .object(values)
            case let items as [Any]: self = .list(items.map { TemplateValue($0, kinds: kinds) })
            case let number as Int64: self = .int(Int(number))
            case let number as Double: self = .double(number)
            default: self = .other(value)
            }
        }
    }

    /// The value swift-mustache is given for it: what the differential tests and the text of a list or an
    /// object rendered as a variable (`{{.}}`) come from.
    package var any: Any {
        switch self {
        case .string(let text): text
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        case .int(let number): number
        case .bool(let flag): flag
        case .double(let number): number
        case .list(let items): items.map(\.any)
        case .dictionary(let values): values.mapValues(\.any)
        case .object(let values): values
        case .null: Optional<Any>.none as Any
        case .other(let value): value
        }
    }

    /// The value named `name` in this one (not below it on the stack): a dictionary's entry, an object's answer.
    @inline(__always)
    package func child(_ name: String) -> TemplateValue? {
        switch self {
        case .dictionary(let values): values[name]
        case .object(let values): values.value(named: name)
        default: nil
        }
    }
}

/// The types of values a program gives its templates that the engine tells apart by their concrete types, before it
/// asks a value which protocols it conforms to (``TemplateValue/init(_:kinds:)``): the site's lists of posts and
/// rows and its cards, which the engine knows nothing of.
package protocol TemplateValueKinds: Sendable {
    /// `value` as the engine sees it when it is of one of the program's own types, else nil.
    static func templateValue(of value: Any) -> TemplateValue?
}
