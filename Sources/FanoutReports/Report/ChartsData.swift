import FanoutCore
import FanoutJSON

/// The numbers the report's charts draw, taken from the audit and, for timeline coverage, the derived data.
public struct ChartsData: Sendable, Equatable {
    /// One bar: a label and its value.
    package struct Bar: Sendable, Equatable {
        /// The bar's label (escaped when drawn).
        package var label: String
        /// The bar's value.
        package var value: Int
        /// A CSS class for the bar (`sev-error`, …), or empty.
        package var style: String
    }

    /// A user's timeline coverage: stored entries that should exist, out of the derived timeline's length.
    public struct Coverage: Sendable, Equatable {
        /// The user's name as pages show it.
        public var username: String
        /// Derived timeline posts that have a stored entry.
        public var stored: Int
        /// The derived timeline's length.
        public var derived: Int
    }

    /// Findings per rule that ran, in the report's rule order.
    package var findingsPerRule: [Bar]
    /// How many `like-count-mismatch` findings have each signed delta (stored − counted), by delta ascending.
    package var likeDeltas: [Bar]
    /// Users' timeline coverage; nil when the layout stores no timelines or the report is rendered without the
    /// derived data (a JSON report without `summary.timeline_coverage`).
    package var coverage: TimelineCoverage?

    /// Chart data for `result`; `coverage` summarizes ``timelineCoverage(dataset:derived:)``.
    package init(_ result: AuditResult, coverage: TimelineCoverage? = nil) {
        var counts: [String: Int] = [:]
        for finding in result.findings { counts[finding.rule, default: 0] += 1 }
        findingsPerRule = result.rulesRun.map { rule in
            Bar(label: rule.id, value: counts[rule.id] ?? 0, style: "sev-\(result.severity(of: rule).rawValue)")
        }
        var deltas: [Int64: Int] = [:]
        for finding in result.findings where finding.rule == "like-count-mismatch" {
            guard let stored = finding.actual?.numberValue?.int64, let counted = finding.expected?.numberValue?.int64
            else { continue }
            let (delta, overflow) = stored.subtractingReportingOverflow(counted)
            if !overflow { deltas[delta, default: 0] += 1 }
        }
        likeDeltas = deltas.sorted { $0.key < $1.key }.map {
            Bar(label: $0.key > 0 ? "+\($0.key)" : "\($0.key)", value: $0.value, style: "")
        }
        self.coverage = coverage
    }

    /// Each live user's timeline coverage: how many posts of their derived timeline have a stored entry.
    /// Nil when the layout has no stored timelines, since then there is nothing to cover.
    public static func timelineCoverage(dataset: Dataset, derived: DerivedData) -> [Coverage]? {
        guard dataset.schema.timeline != nil else { return nil }
        // The stored entries grouped by user, then each user's posts marked with the user's number in one array
        // over all posts: no set per user, which for 200,000 users cost a second.
        var pairs: [(group: Int32, value: Int32)] = []
        pairs.reserveCapacity(dataset.timeline.count)
        for entry in dataset.timeline {
            guard let u = derived.user(entry.user), let p = derived.post(entry.post) else { continue }
            pairs.append((Int32(u), Int32(p)))
        }
        let stored = GroupedIndex(groupCount: dataset.users.count, pairs: pairs)
        var markedFor = [Int32](repeating: -1, count: dataset.posts.count)
        let users = dataset.users.indices.filter {
            derived.user(dataset.users[$0].key) == $0 && !derived.timelines[$0].isEmpty
        }
        .sorted { derived.userRank[$0] < derived.userRank[$1] }
        return users.map { u in
            for p in stored[u] { markedFor[Int(p)] = Int32(u) }
            let timeline = derived.timelines[u]
            return Coverage(
                // As pages show names (docs/site.md "Names as they are"): the chart's labels read apart.
                username: VisibleText.shown(dataset.users[u].shownName ?? dataset.key(dataset.users[u].key)),
                stored: timeline.count { markedFor[Int($0)] == Int32(u) }, derived: timeline.count)
        }
    }
}
