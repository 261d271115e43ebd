import ArgumentParser

/// `--max-per-rule`'s value: a number of findings, or `all`.
struct PerRuleLimit: ExpressibleByArgument, Equatable {
    /// The limit; nil for `all`.
    let value: Int?

    init?(argument: String) {
        if argument == "all" {
            value = nil
        } else if let n = Int(argument), NumberRange.maxPerRule.contains(n) {
            value = n
        } else {
            return nil
        }
    }

    /// `argument` as a limit: an option's `transform`, so that a number out of range is refused with the range.
    static func parse(_ argument: String) throws -> PerRuleLimit {
        guard let limit = PerRuleLimit(argument: argument) else {
            throw ValidationError("expected all or \(NumberRange.maxPerRule.expected)")
        }
        return limit
    }

    /// What the text report lists per rule on a terminal unless told otherwise; elsewhere (a pipe, a file, a
    /// CI log) it lists everything, since whatever reads it may need it all.
    static let terminalDefault = 20

    static var defaultValueDescription: String { "\(terminalDefault) on a terminal, else all" }
}
