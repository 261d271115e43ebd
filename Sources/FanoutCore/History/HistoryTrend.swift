/// The trend of a history file's runs, rule by rule and relation by relation, and the runs whose count of a
/// rule's findings jumped (docs/diff-and-history.md, "Anomalies").
///
/// A run is flagged for a rule when its count is more than ``Settings/factor`` times the median of that rule's
/// counts in the ``Settings/window`` runs before it (those where the rule ran). The median, not the mean, so that
/// one earlier jump does not hide the next; a median of 0 counts as 1, so that a rule's first finding or two is no
/// anomaly but a burst is; a run is judged once ``Settings/minimumRuns`` runs precede it.
public struct HistoryTrend: Sendable {
    /// How jumps are found: `[history]` in fanout.toml.
    public struct Settings: Sendable, Equatable {
        /// A count more than this many times the median is a jump. 2: a doubling, which day-to-day noise in a
        /// backup's drift rarely reaches and a broken client writing copies does at once.
        public var factor: Double
        /// How many runs before a run its median is taken over. 7: a week of nightly runs, long enough that one
        /// odd night does not move the median, short enough to follow a trend.
        public var window: Int

        /// The fewest runs before a run that it is judged against: a median of one or two runs is noise.
        public static let minimumRuns = 3
        public static let defaultFactor = 2.0
        public static let defaultWindow = 7

        public init(factor: Double = Settings.defaultFactor, window: Int = Settings.defaultWindow) {
            self.factor = factor
            self.window = window
        }
    }

    /// A run whose count of a rule's findings jumped.
    public struct Anomaly: Sendable, Equatable {
        /// The run's index in the history, from 0.
        public var run: Int
        public var rule: String
        public var count: Int
        /// The median it was compared with, and over how many runs.
        public var median: Double
        public var compared: Int
    }

    public let runs: [HistoryRecord]
    public let settings: Settings
    /// Every rule that ran in some run: the catalogue's order, then others (the schemas' declarations) by name.
    public let rules: [String]
    /// Every relation some run counted, by name.
    public let relations: [String]
    public let anomalies: [Anomaly]

    public init(_ runs: [HistoryRecord], settings: Settings = Settings()) {
        self.runs = runs
        self.settings = settings
        let seen = Set(runs.flatMap { $0.findings.map(\.rule) })
        let catalogue = RuleCatalog.descriptors.map(\.id)
        rules = catalogue.filter(seen.contains) + seen.subtracting(catalogue).sorted()
        relations = Set(runs.flatMap { $0.counts.map(\.relation) }).sorted()
        var anomalies: [Anomaly] = []
        for rule in rules {
            let counts = runs.map { $0.findings.first { $0.rule == rule }?.count }
            for (run, count) in counts.enumerated() {
                guard let count else { continue }
                let before = counts[max(0, run - settings.window)..<run].compactMap { $0 }
                guard before.count >= Settings.minimumRuns else { continue }
                let median = Self.median(before)
                if Double(count) > settings.factor * max(median, 1) {
                    anomalies.append(
                        Anomaly(run: run, rule: rule, count: count, median: median, compared: before.count))
                }
            }
        }
        self.anomalies = anomalies.sorted { ($0.run, $0.rule) < ($1.run, $1.rule) }
    }

    /// The findings of `rule` in each run; nil where it did not run.
    public func counts(rule: String) -> [Int?] { runs.map { $0.findings.first { $0.rule == rule }?.count } }

    /// The facts of `relation` in each run; nil where the run did not count it.
    public func counts(relation: String) -> [Int?] { runs.map { $0.counts.first { $0.relation == relation }?.count } }

    /// The severity `rule` ran at in its latest run.
    public func severity(rule: String) -> Severity {
        runs.lazy.reversed().compactMap { $0.findings.first { $0.rule == rule }?.severity }.first ?? .info
    }

    /// Whether the newest run is flagged for some rule.
    public var newestIsFlagged: Bool { anomalies.contains { $0.run == runs.count - 1 } }

    static func median(_ values: [Int]) -> Double {
        let sorted = values.sorted(), n = sorted.count
        return n % 2 == 1 ? Double(sorted[n / 2]) : Double(sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}
