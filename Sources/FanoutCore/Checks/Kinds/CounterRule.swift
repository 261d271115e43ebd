import FanoutJSON

/// One stored counter, as the counter kind checks it: where it is, what it holds, and what it should hold.
struct CounterReading {
    /// The path of the stored number.
    var path: String
    /// What is stored there.
    var stored: StoredValue
    /// The number it should hold.
    var counted: Int
    /// The key of the group it counts (a post, a user), or ``noKey`` for a counter of the whole export.
    var group: KeyID = noKey
}

/// The counter kind (README "Declaring your app's copies"): a stored number that counts a relation. The relation
/// is the truth: a counter that holds anything but the count is a finding, whose fix sets it to the count.
/// `like-count-mismatch` and `like-count-negative` are counters of likes per post; each declared counter is one.
/// A rule says which counters it checks and what its findings say; the comparison, the finding and its fix are
/// made here.
protocol CounterRule: ConsistencyRule {
    /// The counters the rule checks, with the number each should hold.
    func readings(in context: CheckContext) -> [CounterReading]
    /// The message of a counter that does not hold its count.
    func message(_ reading: CounterReading, in context: CheckContext) -> String
}

extension CounterRule {
    func findings(in context: CheckContext) -> [Finding] {
        readings(in: context).compactMap { reading in
            if let stored = reading.stored.int64, stored == Int64(reading.counted) { return nil }
            return finding(
                message(reading, in: context), paths: [reading.path], expected: reading.counted, actual: reading.stored.json,
                fix: [PatchEntry(reading.path, reading.counted.jsonValue)])
        }
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
        with(ctes) + finding(
            paths: [path], expected: integer(counted), actual: storedJSON, fix: fix([(path, integer(counted))]), message: message
        ) + "\nFROM \(from)\nWHERE \(condition) AND (\(stored) IS NULL OR \(stored) <> \(counted))"
    }
}
