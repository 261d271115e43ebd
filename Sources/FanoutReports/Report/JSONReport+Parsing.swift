import FanoutCore
import FanoutJSON

/// Why a JSON report could not be read: where in it (`findings[3].severity`, or a line and column of its JSON),
/// and what is wrong.
package struct ReportParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and where, without the file's name.
    package let message: String

    package var description: String { message }
}

/// A JSON report read back: everything the seven formats show (docs/reports.md).
package struct ParsedReport: Sendable {
    /// The findings, rules run and skipped, and the rules' severities.
    package var result: AuditResult
    /// The export, schema and baseline outcome.
    package var info: ReportInfo
    /// The timeline coverage, when the report carries it.
    package var coverage: TimelineCoverage?

    package init(result: AuditResult, info: ReportInfo, coverage: TimelineCoverage?) {
        self.result = result
        self.info = info
        self.coverage = coverage
    }
}

extension JSONReport {
    /// Reads a JSON report of ``version`` 1, as ``render(_:info:coverage:)`` writes it (or a job writing the same
    /// format). Rules are taken from this binary's catalogue by id, so an unknown rule id is an error, as is any
    /// member of the wrong type, a finding of a rule the report did not run, or counts that disagree with the
    /// findings. Reports without `summary.severities` give each rule its findings' severity, else its default;
    /// without `no_value`, a null `expected` or `actual` is a JSON null.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(ReportParseError) -> ParsedReport {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            throw ReportParseError(message: error.description)
        }
        var reader = ReportReader()
        return try reader.report(root)
    }
}

/// The checks of ``JSONReport/parse(_:)``, one member at a time, each error naming the member.
private struct ReportReader {
    /// The rules of the schema's declarations the report lists (`summary.declared_rules`).
    var declared: [RuleDescriptor] = []

    func fail(_ at: String, _ message: String) -> ReportParseError {
        ReportParseError(message: at.isEmpty ? message : "\(at): \(message)")
    }

    func member(_ value: JSONValue, _ key: String, at: String) throws(ReportParseError) -> JSONValue {
        guard value.objectMembers != nil else { throw fail(at, "expected an object") }
        guard let member = value[key] else { throw fail(at, "missing \"\(key)\"") }
        return member
    }

    func string(_ value: JSONValue, at: String) throws(ReportParseError) -> String {
        guard let text = value.stringValue else { throw fail(at, "expected a string") }
        return text
    }

    func count(_ value: JSONValue, at: String) throws(ReportParseError) -> Int {
        guard let n = value.numberValue?.int64, n >= 0, n <= Int64(Int32.max) else {
            throw fail(at, "expected a whole number ≥ 0")
        }
        return Int(n)
    }

    func array(_ value: JSONValue, at: String) throws(ReportParseError) -> [JSONValue] {
        guard let items = value.arrayValue else { throw fail(at, "expected an array") }
        return items
    }

    func severity(_ value: JSONValue, at: String) throws(ReportParseError) -> Severity {
        let text = try string(value, at: at)
        guard let severity = Severity(rawValue: text) else {
            throw fail(at, "\"\(text)\" is not a severity (error, warning or info)")
        }
        return severity
    }

    func rule(_ value: JSONValue, at: String) throws(ReportParseError) -> RuleDescriptor {
        let id = try string(value, at: at)
        if let rule = RuleCatalog.descriptor(id) ?? declared.first(where: { $0.id == id }) { return rule }
        throw fail(
            at,
            RuleCatalog.unknownMessage(id) + (declared.isEmpty ? "" : ", " + declared.map(\.id).joined(separator: ", "))
        )
    }

    /// `summary.declared_rules`: each declared rule's id, default severity, texts and whether its fix is mechanical.
    mutating func readDeclaredRules(_ summary: JSONValue) throws(ReportParseError) {
        guard let given = summary["declared_rules"] else { return }
        for (i, item) in try array(given, at: "summary.declared_rules").enumerated() {
            let at = "summary.declared_rules[\(i)]"
            let id = try string(member(item, "id", at: at), at: at + ".id")
            guard RuleCatalog.descriptor(id) == nil, !declared.contains(where: { $0.id == id }) else {
                throw fail(at + ".id", "\(id) is the id of a built-in rule or listed twice")
            }
            guard let mechanical = try member(item, "mechanical", at: at).boolValue else {
                throw fail(at + ".mechanical", "expected true or false")
            }
            declared.append(
                RuleDescriptor(
                    id: id, defaultSeverity: try severity(member(item, "severity", at: at), at: at + ".severity"),
                    summary: try string(member(item, "summary", at: at), at: at + ".summary"),
                    explanation: try string(member(item, "explanation", at: at), at: at + ".explanation"),
                    isMechanical: mechanical))
        }
    }

    mutating func report(_ root: JSONValue) throws(ReportParseError) -> ParsedReport {
        guard root.objectMembers != nil else { throw fail("", "not a fanout JSON report: expected an object") }
        guard root["tool"]?.stringValue == "fanout", let version = root["version"]?.numberValue?.int64 else {
            throw fail("", "not a fanout JSON report: expected {\"tool\": \"fanout\", \"version\": 1, …}")
        }
        guard version == Int64(JSONReport.version) else {
            throw fail(
                "version",
                "report version \(version) is not supported (this fanout reads version \(JSONReport.version))")
        }
        let exportName = try string(member(root, "export", at: ""), at: "export")
        let schemaName = try string(member(root, "schema", at: ""), at: "schema")
        var namespaces: [String] = []
        if let list = root["namespaces"] {
            for (i, item) in try array(list, at: "namespaces").enumerated() {
                namespaces.append(try string(item, at: "namespaces[\(i)]"))
            }
        }
        let summary = try member(root, "summary", at: "")
        try readDeclaredRules(summary)

        var rulesRun: [RuleDescriptor] = []
        for (i, item) in try array(member(summary, "rules_run", at: "summary"), at: "summary.rules_run").enumerated() {
            let rule = try rule(item, at: "summary.rules_run[\(i)]")
            guard !rulesRun.contains(rule) else { throw fail("summary.rules_run[\(i)]", "\(rule.id) is listed twice") }
            rulesRun.append(rule)
        }
        var skipped: [SkippedRule] = []
        for (i, item) in try array(member(summary, "rules_skipped", at: "summary"), at: "summary.rules_skipped")
            .enumerated()
        {
            let at = "summary.rules_skipped[\(i)]"
            let rule = try rule(member(item, "rule", at: at), at: at + ".rule")
            guard !rulesRun.contains(rule) else { throw fail(at, "\(rule.id) is listed as run and as skipped") }
            skipped.append(
                SkippedRule(rule: rule.id, reason: try string(member(item, "reason", at: at), at: at + ".reason")))
        }

        var findings: [Finding] = []
        for (i, item) in try array(member(root, "findings", at: ""), at: "findings").enumerated() {
            findings.append(try finding(item, at: "findings[\(i)]", rulesRun: rulesRun))
        }

        var severities: [String: Severity] = [:]
        if let given = summary["severities"] {
            guard let members = given.objectMembers else { throw fail("summary.severities", "expected an object") }
            for (id, value) in members {
                let at = "summary.severities.\(id)"
                guard let rule = rulesRun.first(where: { $0.id == id }) else {
                    throw fail(at, "\(id) is not in summary.rules_run")
                }
                let severity = try severity(value, at: at)
                if severity != rule.defaultSeverity { severities[id] = severity }
            }
        } else {
            for finding in findings where severities[finding.rule] == nil {
                severities[finding.rule] = finding.severity
            }
        }
        for (i, finding) in findings.enumerated() {
            let reported = severities[finding.rule] ?? rulesRun.first { $0.id == finding.rule }!.defaultSeverity
            guard finding.severity == reported else {
                throw fail(
                    "findings[\(i)].severity",
                    "\(finding.severity.rawValue), but \(finding.rule) reported at \(reported.rawValue)")
            }
        }
        let result = AuditResult(
            findings: findings, rulesRun: rulesRun, skipped: skipped, severities: severities, declaredRules: declared)
        for (key, n) in [
            ("errors", result.count(.error)), ("warnings", result.count(.warning)), ("info", result.count(.info)),
            ("total", findings.count),
        ] {
            guard let given = summary[key] else { continue }
            let stated = try count(given, at: "summary.\(key)")
            guard stated == n else { throw fail("summary.\(key)", "says \(stated), but the findings hold \(n)") }
        }

        var baseline: BaselineOutcome?
        if let given = summary["baseline"] {
            let hidden = try count(member(given, "hidden", at: "summary.baseline"), at: "summary.baseline.hidden")
            var fixed: [BaselineEntry] = []
            for (i, item) in try array(member(given, "fixed", at: "summary.baseline"), at: "summary.baseline.fixed")
                .enumerated()
            {
                let at = "summary.baseline.fixed[\(i)]"
                fixed.append(
                    BaselineEntry(
                        rule: try string(member(item, "rule", at: at), at: at + ".rule"),
                        path: try string(member(item, "path", at: at), at: at + ".path")))
            }
            baseline = BaselineOutcome(hidden: hidden, fixed: fixed)
        }
        let coverage = try summary["timeline_coverage"].map { value throws(ReportParseError) in
            try timelineCoverage(value)
        }
        return ParsedReport(
            result: result,
            info: ReportInfo(
                exportName: exportName, schemaName: schemaName, baseline: baseline, namespaces: namespaces),
            coverage: coverage)
    }

    func finding(_ item: JSONValue, at: String, rulesRun: [RuleDescriptor]) throws(ReportParseError) -> Finding {
        let rule = try rule(member(item, "rule", at: at), at: at + ".rule")
        guard rulesRun.contains(rule) else { throw fail(at + ".rule", "\(rule.id) is not in summary.rules_run") }
        let paths = try array(member(item, "paths", at: at), at: at + ".paths").enumerated().map {
            i, path throws(ReportParseError) in
            try string(path, at: "\(at).paths[\(i)]")
        }
        var fix: [PatchEntry] = []
        let fixValue = try member(item, "fix", at: at)
        guard let entries = fixValue.objectMembers else { throw fail(at + ".fix", "expected an object") }
        for (path, value) in entries { fix.append(PatchEntry(path, value)) }
        var expected: JSONValue? = try member(item, "expected", at: at)
        var actual: JSONValue? = try member(item, "actual", at: at)
        if let noValue = item["no_value"] {
            for (i, name) in try array(noValue, at: at + ".no_value").enumerated() {
                switch try string(name, at: "\(at).no_value[\(i)]") {
                case "expected" where expected?.isNull == true: expected = nil
                case "actual" where actual?.isNull == true: actual = nil
                case let other:
                    throw fail("\(at).no_value[\(i)]", "\"\(other)\" is not expected or actual with a null value")
                }
            }
        }
        var location: SourceLocation?
        if let file = item["file"] {
            var byteOffset: Int?
            if let offset = item["byte_offset"] {
                guard let n = offset.numberValue?.int64, n >= 0 else {
                    throw fail(at + ".byte_offset", "expected a whole number ≥ 0")
                }
                byteOffset = Int(n)
            }
            location = SourceLocation(
                file: try string(file, at: at + ".file"),
                line: try count(member(item, "line", at: at), at: at + ".line"),
                column: try count(member(item, "column", at: at), at: at + ".column"), byteOffset: byteOffset)
        }
        return Finding(
            rule: rule.id, severity: try severity(member(item, "severity", at: at), at: at + ".severity"),
            message: try string(member(item, "message", at: at), at: at + ".message"), paths: paths,
            expected: expected, actual: actual, fix: fix, location: location)
    }

    func timelineCoverage(_ value: JSONValue) throws(ReportParseError) -> TimelineCoverage {
        let at = "summary.timeline_coverage"
        let byTenth = try array(member(value, "by_tenth", at: at), at: at + ".by_tenth").enumerated().map {
            i, n throws(ReportParseError) in
            try count(n, at: "\(at).by_tenth[\(i)]")
        }
        guard byTenth.count == 11 else { throw fail(at + ".by_tenth", "expected 11 counts (0–9 %, …, 90–99 %, 100 %)") }
        let users = try value["users"].map { users throws(ReportParseError) in
            try array(users, at: at + ".users").enumerated().map { i, row throws(ReportParseError) in
                let rowAt = "\(at).users[\(i)]"
                return ChartsData.Coverage(
                    username: try string(member(row, "user", at: rowAt), at: rowAt + ".user"),
                    stored: try count(member(row, "stored", at: rowAt), at: rowAt + ".stored"),
                    derived: try count(member(row, "derived", at: rowAt), at: rowAt + ".derived"))
            }
        }
        return TimelineCoverage(
            timelines: try count(member(value, "timelines", at: at), at: at + ".timelines"),
            full: try count(member(value, "full", at: at), at: at + ".full"), byTenth: byTenth, users: users)
    }
}
