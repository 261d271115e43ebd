import FanoutJSON

/// One stored counter, as the counter kind checks it: what it holds, what it should hold, and which counter it
/// is (its path is made only for a finding: rules read millions of counters that hold their count).
struct CounterReading {
    /// The counter's index in its rule's own terms (a post's, a declared row's).
    var subject: Int
    /// What is stored there.
    var stored: StoredValue
    /// The number it should hold.
    var counted: Int
    /// The key of the group it counts (a post, a user), or ``noKey`` for a counter of the whole export.
    var group: KeyID = noKey
}

/// The counter kind (docs/layouts.md "Declaring your app's copies"): a stored number that counts a relation. The
/// relation is the truth: a counter that holds anything but the count is a finding, whose fix sets it to the count.
/// `like-count-mismatch` and `like-count-negative` are counters of likes per post; each declared counter is one. A rule
/// says which counters it checks and what its findings say; the comparison, the finding and its fix are made here.
protocol CounterRule: ConsistencyRule {
    /// Calls `body` with each counter the rule checks and the number it should hold.
    func eachReading(in context: CheckContext, _ body: (CounterReading) -> Void)
    /// The path of the counter `reading` is about.
    func path(of reading: CounterReading, in context: CheckContext) -> String
    /// The message of a counter that does not hold its count.
    func message(_ reading: CounterReading, in context: CheckContext) -> String
}

extension CounterRule {
    func findings(in context: CheckContext) -> [Finding] {
        var findings: [Finding] = []
        eachReading(in: context) { reading in
            if let stored = reading.stored.int64, stored == Int64(reading.counted) { return }
            let path = path(of: reading, in: context)
            findings.append(
                finding(
                    message(reading, in: context), paths: [path], expected: reading.counted,
                    actual: reading.stored.json,
                    fix: [PatchEntry(path, reading.counted.jsonValue)]))
        }
        return findings
    }

    /// The signed difference of a stored integer and its count as messages show it: ` (+2)`, ` (-1)`.
    static func delta(_ stored: Int64, _ counted: Int) -> String {
        let delta = stored - Int64(counted)
        return " (\(delta > 0 ? "+" : "")\(delta))"
    }
}

extension SQLContext {
    /// The counter kind's query: `ctes` (`name AS (…)`), the rows of stored counters `from`, each with the path
    /// `path`, the stored number as a bigint `stored` and as JSON text `storedJSON`, the count `counted`, and the
    /// message; rows where `stored` is the count are left out.
    func counterFindings(
        ctes: [String], from: String, path: String, stored: String, storedJSON: String, counted: String,
        where condition: String, message: [String]
    ) -> String {
        with(ctes)
            + finding(
                paths: [path], expected: integer(counted), actual: storedJSON, fix: fix([(path, integer(counted))]),
                message: message
            ) + "\nFROM \(from)\nWHERE \(condition) AND (\(stored) IS NULL OR \(stored) <> \(counted))"
    }
}
