import ArgumentParser
import FanoutCore

/// The whole numbers an option or a `fanout.toml` setting takes: every numeric value is checked here, against a
/// stated range, so that none can overflow the arithmetic it feeds (docs/commands.md "Numbers").
struct NumberRange: Sendable {
    let range: ClosedRange<Int>

    init(_ range: ClosedRange<Int>) { self.range = range }

    /// What a value must be, for messages: `a whole number from 1 to 100,000`.
    var expected: String {
        "\(Self.expectedPrefix)\(Self.grouped(range.lowerBound)) to \(Self.grouped(range.upperBound))"
    }

    /// How every range's message begins, by which the command line knows a value out of its range.
    static let expectedPrefix = "a whole number from "

    /// Whether `value` is in the range.
    func contains(_ value: Int) -> Bool { range.contains(value) }

    /// `argument` read as a number in the range: an option's `transform`, whose error ArgumentParser prints after
    /// the option's name and the value, and turns into exit 2 (``FanoutCommand/run(_:server:)``).
    func parse(_ argument: String) throws -> Int {
        guard let value = Int(argument), range.contains(value) else { throw ValidationError("expected \(expected)") }
        return value
    }

    /// `1234567` as `1,234,567`.
    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }
}

extension NumberRange {
    /// `--per-page`, `per_page`: posts or users on one page; past a site's largest list, one page holds it all.
    static let perPage = NumberRange(1...100_000)
    /// `generate --users`: the generator numbers users, posts and likes with 32-bit integers.
    static let users = NumberRange(1...10_000_000)
    /// `generate --defects`: a kind that needs no post of its own (a like of an unknown post) is never used up,
    /// so each defect asked for is placed and kept in memory.
    static let defects = NumberRange(0...1_000_000)
    /// `tables --rows-per-file`.
    static let rowsPerFile = NumberRange(1...1_000_000_000)
    /// `--max-per-rule`, besides `all`.
    static let maxPerRule = NumberRange(1...1_000_000_000)
    /// `serve --port`; 0 picks a free one.
    static let port = NumberRange(0...65_535)
    /// `[history] window`: from the runs a median needs.
    static let historyWindow = NumberRange(HistoryTrend.Settings.minimumRuns...10_000)
}
