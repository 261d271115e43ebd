import FanoutJSON

/// One run of `fanout check --history FILE`: one line of the history file, NDJSON (docs/diff-and-history.md,
/// "History"). What it keeps is small and stable across runs: the export's name and the time, the facts read per
/// relation (the rows `fanout tables` would write), and each rule's findings with its severity, before any
/// baseline hides some, since the trend is of the data, not of what a team has accepted.
///
/// `{"tool": "fanout", "version": 1, "export", "schema", "time", "counts": {relation: n}, "findings": {rule:
/// {"count", "severity"}}, "severities": {"error", "warning", "info"}}`, keys sorted, one line.
public struct HistoryRecord: Sendable, Equatable {
    /// A rule's findings in the run.
    public struct RuleCount: Sendable, Equatable {
        public var rule: String
        public var severity: Severity
        public var count: Int

        public init(rule: String, severity: Severity, count: Int) {
            self.rule = rule
            self.severity = severity
            self.count = count
        }
    }

    /// A relation's facts in the run.
    public struct RelationCount: Sendable, Equatable {
        public var relation: String
        public var count: Int

        public init(relation: String, count: Int) {
            self.relation = relation
            self.count = count
        }
    }

    /// The history file format's version.
    public static let version = 1

    public var export: String
    public var schema: String
    /// When the run happened, ISO 8601 in UTC (`2026-11-25T02:00:00Z`).
    public var time: String
    /// Facts read per relation (``DiffRelation/name``), by name.
    public var counts: [RelationCount]
    /// Every rule that ran, by id, with its findings (0 when none).
    public var findings: [RuleCount]

    public init(export: String, schema: String, time: String, counts: [RelationCount], findings: [RuleCount]) {
        self.export = export
        self.schema = schema
        self.time = time
        self.counts = counts.sorted { $0.relation < $1.relation }
        self.findings = findings.sorted { $0.rule < $1.rule }
    }

    /// The record of a run of the rules on `dataset`.
    public init(dataset: Dataset, audit: AuditResult, export: String, time: String) {
        var perRule: [String: Int] = [:]
        for finding in audit.findings { perRule[finding.rule, default: 0] += 1 }
        self.init(
            export: export, schema: dataset.schema.name, time: time,
            counts: DiffRelation.all(in: dataset.schema).map {
                RelationCount(relation: $0.name, count: DiffFacts($0, of: dataset).count)
            },
            findings: audit.rulesRun.map {
                RuleCount(rule: $0.id, severity: audit.severity(of: $0), count: perRule[$0.id] ?? 0)
            })
    }

    /// The findings at `severity`.
    public func count(_ severity: Severity) -> Int {
        findings.filter { $0.severity == severity }.reduce(0) { $0 + $1.count }
    }

    /// The record as one line of the history file, with its line break.
    public func line() -> String {
        func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members.map { (key: $0.0, value: $0.1) }) }
        func int(_ n: Int) -> JSONValue { .number(JSONNumber(Int64(n))) }
        let value = object([
            ("tool", .string("fanout")), ("version", int(Self.version)), ("export", .string(export)),
            ("schema", .string(schema)),
            ("time", .string(time)),
            ("counts", object(counts.map { ($0.relation, int($0.count)) })),
            (
                "findings",
                object(
                    findings.map {
                        ($0.rule, object([("count", int($0.count)), ("severity", .string($0.severity.rawValue))]))
                    })
            ),
            ("severities", object([Severity.error, .warning, .info].map { ($0.rawValue, int(count($0))) })),
        ])
        return JSONWriter(pretty: false, sortKeys: true).write(value) + "\n"
    }

    /// Reads a history file's text: one record a line, blank lines skipped.
    public static func parse(_ text: String) throws(HistoryError) -> [HistoryRecord] {
        var records: [HistoryRecord] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            records.append(try record(String(line), line: index + 1))
        }
        return records
    }

    private static func record(_ text: String, line: Int) throws(HistoryError) -> HistoryRecord {
        func fail(_ message: String) -> HistoryError { HistoryError(line: line, message: message) }
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw fail("not JSON: \(error)")
        }
        guard value["tool"]?.stringValue == "fanout", let version = value["version"]?.numberValue?.int64 else {
            throw fail("not a line of a fanout history: expected {\"tool\": \"fanout\", \"version\": 1, …}")
        }
        guard version == Int64(Self.version) else {
            throw fail("history version \(version) is not supported (this fanout reads version \(Self.version))")
        }
        guard let export = value["export"]?.stringValue, let schema = value["schema"]?.stringValue,
            let time = value["time"]?.stringValue
        else { throw fail("\"export\", \"schema\" and \"time\" must be strings") }
        guard let counts = value["counts"]?.objectMembers, let findings = value["findings"]?.objectMembers else {
            throw fail("\"counts\" and \"findings\" must be objects")
        }
        var relations: [RelationCount] = []
        for (name, n) in counts {
            guard let count = n.numberValue?.int64, count >= 0 else {
                throw fail("counts.\(name) must be a whole number")
            }
            relations.append(RelationCount(relation: name, count: Int(count)))
        }
        var rules: [RuleCount] = []
        for (rule, entry) in findings {
            guard let count = entry["count"]?.numberValue?.int64, count >= 0,
                let severity = entry["severity"]?.stringValue.flatMap(Severity.init(rawValue:))
            else { throw fail("findings.\(rule) must be {\"count\": n, \"severity\": \"error\"|\"warning\"|\"info\"}") }
            rules.append(RuleCount(rule: rule, severity: severity, count: Int(count)))
        }
        return HistoryRecord(export: export, schema: schema, time: time, counts: relations, findings: rules)
    }
}

/// Why a history file could not be read: the line and what is wrong there.
public struct HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public var description: String { "line \(line): \(message)" }
}
