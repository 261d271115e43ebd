import FanoutJSON

/// How often a candidate declaration holds in the data, and whether that could be chance: the pure part of
/// `fanout infer`, with no I/O (docs/layouts.md "Inferring a schema").
package struct Evidence: Sendable {
    /// Rows where both sides exist.
    package private(set) var rows = 0
    /// Rows where they agree.
    package private(set) var agree = 0
    /// The first few rows where they disagree.
    package private(set) var counterexamples: [String] = []
    /// Agreeing rows whose value says nothing: an empty string, a boolean, a small integer.
    package private(set) var trivial = 0
    /// Rows where the stored value also equals another record's (the next key's): what chance alone gives.
    package private(set) var chance = 0

    package init() {}

    static let counterexampleCount = 3

    /// Adds a row at `path`: `stored` is the copy, `expected` the original, `other` the same field of another
    /// record (nil when there is none).
    package mutating func add(path: String, stored: JSONValue?, expected: JSONValue?, other: JSONValue? = nil) {
        guard let stored, let expected, !stored.isNull, !expected.isNull else { return }
        rows += 1
        if let other, other == stored { chance += 1 }
        if stored == expected {
            agree += 1
            if Self.isTrivial(stored) { trivial += 1 }
        } else if counterexamples.count < Self.counterexampleCount {
            counterexamples.append(path)
        }
    }

    /// Adds a row at `path` that holds or not (an edge found in its mirror, a post under its owner).
    package mutating func add(path: String, agrees: Bool) {
        rows += 1
        if agrees {
            agree += 1
        } else if counterexamples.count < Self.counterexampleCount {
            counterexamples.append(path)
        }
    }

    /// Adds a counted row: `stored` is the number kept at `path`, `count` what the relation holds, `other` another
    /// key's count.
    package mutating func add(path: String, stored: JSONValue?, count: Int, other: Int?) {
        guard let number = stored?.numberValue else { return }
        rows += 1
        if let other, Double(other) == number.double { chance += 1 }
        if number.double == Double(count) {
            agree += 1
            if count == 0 { trivial += 1 }
        } else if counterexamples.count < Self.counterexampleCount {
            counterexamples.append(path)
        }
    }

    /// Empty strings, booleans and integers from -9 to 9: values two unrelated fields often share.
    static func isTrivial(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): return text.isEmpty
        case .bool: return true
        case .number(let number): return number.double == number.double.rounded() && abs(number.double) < 10
        default: return false
        }
    }

    /// "agrees in 118 of 120 rows".
    package var support: String { "agrees in \(agree) of \(rows) row\(rows == 1 ? "" : "s")" }

    /// Whether to declare the candidate, and why (one sentence for the schema's comment and `--explain`).
    /// `named`: the copy's name says what it copies (`userDisplayName` of `displayName`), evidence that lets a
    /// copy most of whose rows have drifted still be declared.
    package func verdict(_ options: InferOptions, named: Bool = false, counter: Bool = false) -> Verdict {
        if rows < options.minimumSupport {
            return Verdict(
                kept: false,
                reason: "only \(rows) row\(rows == 1 ? "" : "s") to compare (--min-support \(options.minimumSupport))")
        }
        if agree > 0, trivial == agree {
            let what = counter ? "zero on both sides" : "empty strings, booleans or small integers"
            return Verdict(kept: false, reason: "chance: every agreeing row is \(what)")
        }
        let rate = Double(agree) / Double(rows)
        if rate < options.threshold, !(named && agree > 0) {
            return Verdict(kept: false, reason: "\(support), below --threshold \(options.threshold)")
        }
        // A counter whose name says what it counts may be measured on a few rows that chance could also match.
        if agree > 0, chance * 2 >= agree, !(counter && named) {
            return Verdict(
                kept: false,
                reason: "chance: the value equals another record's in \(chance) of \(rows) rows, as often as its own "
                    + "(it repeats a value many records share, not this record's)")
        }
        if rate < options.threshold {
            return Verdict(kept: true, reason: "\(support); kept below --threshold since its name says what it holds")
        }
        return Verdict(kept: true, reason: support)
    }
}

/// Whether a candidate is declared, and why.
package struct Verdict: Sendable, Equatable {
    package let kept: Bool
    package let reason: String
}

/// What `fanout infer` is told: the thresholds and, optionally, which collections are the users and the posts.
package struct InferOptions: Sendable {
    package var minimumSupport = 3
    package var threshold = 0.9
    package var users: String?
    package var posts: String?

    package init(minimumSupport: Int = 3, threshold: Double = 0.9, users: String? = nil, posts: String? = nil) {
        self.minimumSupport = minimumSupport
        self.threshold = threshold
        self.users = users
        self.posts = posts
    }
}
