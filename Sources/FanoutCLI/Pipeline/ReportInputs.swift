import FanoutCore
import FanoutReports
import Foundation

/// The JSON reports `fanout report` reads, merged into one run's report (docs/reports.md "Rendering JSON reports").
///
/// Reports merge when they are on one export: the same `export` and `schema`, each rule run by at most one of
/// them (a rule run twice would count its findings twice), and all or none with a baseline applied. The merged
/// report ran the rules any of them ran, in the catalogue's order; skipped the rules none ran that one skipped
/// (with the first reason); has their findings, ordered as `check` orders them (by rule, then first path, then
/// message); adds up the findings their baselines hid and keeps the entries every one of them found fixed; and
/// takes the timeline coverage of the first that has it.
enum ReportInputs {
    /// Reads and merges `paths`; any problem is a usage error naming the file and where in it.
    static func read(_ paths: [String]) throws -> ParsedReport {
        let reports = try paths.map { path in (path, try readOne(path)) }
        return try merge(reports)
    }

    static func readOne(_ path: String) throws -> ParsedReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError(message: "cannot read report \(path): no such file")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(
                message: "cannot read report \(path): "
                    + (isDirectory.boolValue ? "a folder, not a file" : "permission denied"))
        }
        do {
            return try data.withUnsafeBytes { try JSONReport.parse($0) }
        } catch let error as ReportParseError {
            throw UsageError(message: "\(path): \(error.description)")
        }
    }

    static func merge(_ reports: [(path: String, report: ParsedReport)]) throws -> ParsedReport {
        guard let (firstPath, first) = reports.first else { throw UsageError(message: "give at least one JSON report") }
        var ranIn: [String: String] = [:]
        for (path, report) in reports {
            guard report.info.exportName == first.info.exportName, report.info.schemaName == first.info.schemaName
            else {
                throw UsageError(
                    message: "\(path) is a report on \(report.info.exportName) (\(report.info.schemaName) layout), "
                        + "\(firstPath) on \(first.info.exportName) (\(first.info.schemaName) layout); reports merge only when they are on one export"
                )
            }
            guard (report.info.baseline == nil) == (first.info.baseline == nil) else {
                let (with, without) = report.info.baseline != nil ? (path, firstPath) : (firstPath, path)
                throw UsageError(
                    message: "\(with) had a baseline applied and \(without) did not; merge reports made alike")
            }
            for rule in report.result.rulesRun {
                if let other = ranIn[rule.id] {
                    throw UsageError(
                        message: "\(rule.id) ran in both \(other) and \(path); reports merge only when each rule "
                            + "ran in one of them (its findings would be counted twice)")
                }
                ranIn[rule.id] = path
            }
        }
        // One report goes through the same steps: a job's report may list its findings in any order.
        var declared: [RuleDescriptor] = []
        for (_, report) in reports {
            for rule in report.result.declaredRules where !declared.contains(where: { $0.id == rule.id }) {
                declared.append(rule)
            }
        }
        let catalogue = RuleCatalog.descriptors + declared
        let rulesRun = catalogue.filter { ranIn[$0.id] != nil }
        var skipped: [SkippedRule] = []
        for rule in catalogue where ranIn[rule.id] == nil {
            if let reason = reports.lazy.compactMap({ $0.report.result.skipped.first { $0.rule == rule.id } }).first {
                skipped.append(reason)
            }
        }
        var severities: [String: Severity] = [:]
        for (_, report) in reports { severities.merge(report.result.severities) { a, _ in a } }
        let order = Dictionary(uniqueKeysWithValues: catalogue.enumerated().map { ($1.id, $0) })
        let findings = reports.flatMap(\.report.result.findings).enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.rule != y.rule { return order[x.rule]! < order[y.rule]! }
            let (kx, ky) = ((x.paths.first ?? "", x.message), (y.paths.first ?? "", y.message))
            return kx != ky ? kx < ky : a.offset < b.offset
        }.map(\.element)

        var info = first.info
        if let baseline = first.info.baseline {
            let outcomes = reports.compactMap(\.report.info.baseline)
            let fixedInAll = baseline.fixed.filter { entry in outcomes.allSatisfy { $0.fixed.contains(entry) } }
            info.baseline = BaselineOutcome(hidden: outcomes.reduce(0) { $0 + $1.hidden }, fixed: fixedInAll)
        }
        return ParsedReport(
            result: AuditResult(
                findings: findings, rulesRun: rulesRun, skipped: skipped, severities: severities,
                declaredRules: declared),
            info: info, coverage: reports.lazy.compactMap(\.report.coverage).first)
    }
}
