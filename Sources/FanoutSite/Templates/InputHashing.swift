import FanoutCore
import FanoutTemplates

/// A value that feeds itself into a page's input key (docs/site.md "Rebuilds, progress and timings") without being
/// rendered: a post on a timeline stands for its card by the hash of the card's values, not the card's text, so that a
/// rebuild can tell a page is unchanged without rendering anything.
protocol InputHashable {
    func hashInput(into hasher: inout StableHasher)
}

extension StableHasher {
    /// Feeds a value a template is given: strings, numbers, booleans, lists and dictionaries (keys in byte order)
    /// of them, and ``InputHashable`` values. Each kind goes in with a tag of its own, so that `1` and `"1"`, or a
    /// list and a dictionary of the same strings, differ.
    mutating func combine(templateValue value: Any) {
        switch value {
        case let text as String:
            combine(Tag.string)
            combine(text)
        case let number as Int:
            combine(Tag.integer)
            combine(number)
        case let flag as Bool:
            combine(Tag.boolean)
            combine(flag)
        case let number as Double:
            combine(Tag.double)
            combine(number.bitPattern)
        case let number as Int64:
            combine(Tag.integer)
            combine(Int(number))
        case let values as [String: Any]:
            combine(Tag.dictionary)
            combine(values.count)
            for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                combine(key)
                combine(templateValue: values[key]!)
            }
        case let items as [Any]:
            combine(Tag.list)
            combine(items.count)
            for item in items { combine(templateValue: item) }
        case let value as any InputHashable:
            combine(Tag.custom)
            value.hashInput(into: &self)
        case let optional as any OptionalValue:
            // Casts look through optionals, so only an absent value of some optional type gets here.
            if let wrapped = optional.wrapped { combine(templateValue: wrapped) } else { combine(Tag.absent) }
        default:
            // A value whose every rendering cannot be told from a hash: any page could show stale text. Adding
            // a kind of template value means saying here, or by ``InputHashable``, how it goes into the key.
            preconditionFailure("no input hash for template values of type \(type(of: value))")
        }
    }

    /// Key `id` of `dataset` (a uid, a post's key) as ``combine(_:)-(String)`` feeds ``Dataset/key(_:)``'s string,
    /// from the bytes the dataset keeps: the input keys hash every post's and user's key each build, and each was a
    /// string made and freed.
    mutating func combine(key id: KeyID, of dataset: Dataset) {
        guard id != noKey else { return combine("") }
        combine(dataset.keys.withBytes(id) { StableHasher.hash($0.assumingMemoryBound(to: UInt8.self)) })
    }

    /// An optional word: absent, or the word.
    mutating func combine(_ word: UInt64?) {
        if let word { combine(Tag.integer); combine(word) } else { combine(Tag.absent) }
    }

    /// An optional number: absent, or the number.
    mutating func combine(optional number: Int?) {
        if let number { combine(Tag.integer); combine(number) } else { combine(Tag.absent) }
    }
}

/// Any `Optional`, for telling an absent value inside an `Any`.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { map { $0 } }
}
