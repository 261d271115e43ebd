import FanoutJSON

/// What the HTML report's timeline-coverage chart draws, in the form the JSON report carries it
/// (`summary.timeline_coverage`), so that `fanout report` draws the chart `check` draws without the export.
///
/// Per-user rows are kept only while the chart draws one bar per user (``Charts/coverageBarsLimit``); beyond that
/// the chart is a histogram by tenth, and the JSON report stays small whatever the number of users
/// (docs/reports.md).
package struct TimelineCoverage: Sendable, Equatable {
    /// Users with a non-empty derived timeline.
    package var timelines: Int
    /// Of those, the users whose every derived timeline post has a stored entry.
    package var full: Int
    /// Users by whole-percent coverage, rounded down, in tenths: `byTenth[i]` counts `i*10 … i*10+9 %`, the last
    /// (index 10) counts 100 %.
    package var byTenth: [Int]
    /// Each user's coverage, in username order, when there are at most ``Charts/coverageBarsLimit``; nil beyond.
    package var users: [ChartsData.Coverage]?

    /// The summary of `rows` (``ChartsData/timelineCoverage(dataset:derived:)``).
    package init(_ rows: [ChartsData.Coverage]) {
        timelines = rows.count
        full = rows.count { $0.stored == $0.derived }
        byTenth = [Int](repeating: 0, count: 11)
        for row in rows { byTenth[Self.percent(row) / 10] += 1 }
        users = rows.count <= Charts.coverageBarsLimit ? rows : nil
    }

    package init(timelines: Int, full: Int, byTenth: [Int], users: [ChartsData.Coverage]?) {
        self.timelines = timelines
        self.full = full
        self.byTenth = byTenth
        self.users = users
    }

    /// Whole percent, rounded down, so 99.9% never shows as complete.
    package static func percent(_ row: ChartsData.Coverage) -> Int {
        row.derived == 0 ? 100 : row.stored * 100 / row.derived
    }

    /// `{"by_tenth": […], "full": n, "timelines": n, "users": [{"derived", "stored", "user"}]}`, `users` only
    /// when the summary keeps them.
    package var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("timelines", .int(timelines)), ("full", .int(full)), ("by_tenth", .array(byTenth.map(JSONValue.int))),
        ]
        if let users {
            members.append(
                (
                    "users",
                    .array(
                        users.map {
                            .object([
                                ("user", .string($0.username)), ("stored", .int($0.stored)),
                                ("derived", .int($0.derived)),
                            ])
                        })
                ))
        }
        return .object(members)
    }
}
