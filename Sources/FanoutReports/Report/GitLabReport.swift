import FanoutCore
import FanoutJSON
import Foundation

/// The report as GitLab Code Quality, the subset of the Code Climate issue format that GitLab's merge-request widget
/// reads (`artifacts: reports: codequality:`; docs/reports.md "GitLab Code Quality").
///
/// One issue per finding: `description` (the message and first path, as SARIF's text), `check_name` (the rule),
/// `severity` (``severity(_:)``), `location.path` and `location.lines.begin` (the export's file and the line of the
/// first path's key, line 1 when there is none), and a `fingerprint` that GitLab matches issues by between the
/// target branch's report and the merge request's: ``Fingerprint/of(rule:path:)`` like SARIF's, so that a finding
/// keeps it while counts change and lines move, with `-N` on the N-th repeat of a rule and first path, since GitLab
/// keeps only one issue per fingerprint. `type`, `categories` and `lines.end` are not read by GitLab but complete
/// the Code Climate issue, so that Code Climate's own tools read the file too.
package enum GitLabReport {
    /// The issues as a pretty-printed JSON array; `workingDirectory` is where the job runs (GitLab's checkout), to
    /// which an absolute export path inside it is made relative.
    package static func render(
        _ result: AuditResult, info: ReportInfo,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        var seen: [String: Int] = [:]
        let issues = result.findings.map { finding -> JSONValue in
            let path = finding.paths.first ?? ""
            let base = Fingerprint.of(rule: finding.rule, path: path)
            seen[base, default: 0] += 1
            let occurrence = seen[base]!
            let line = JSONValue.int(finding.location?.line ?? 1)
            let file = repositoryPath(finding.location?.file ?? info.exportName, workingDirectory: workingDirectory)
            return object([
                ("type", .string("issue")),
                ("check_name", .string(finding.rule)),
                ("description", .string("\(finding.message) (\(path))")),
                ("categories", .array([.string("Bug Risk")])),
                ("severity", .string(severity(finding.severity))),
                ("fingerprint", .string(occurrence == 1 ? base : "\(base)-\(occurrence)")),
                (
                    "location",
                    object([("path", .string(file)), ("lines", object([("begin", line), ("end", line)]))])
                ),
            ])
        }
        return JSONWriter(pretty: true, sortKeys: true).write(.array(issues)) + "\n"
    }

    /// GitLab's severity for Fanout's: an error is wrong data that fails the job by default (`critical`), a warning
    /// a copy worth a look (`minor`); `blocker` and `major` are left unused, as Fanout has three levels, not five.
    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: "critical"
        case .warning: "minor"
        case .info: "info"
        }
    }

    /// The file as GitLab wants it, relative to the repository and without `./`; standard input without a name is
    /// SARIF's `stdin`, and an absolute path outside `workingDirectory` stays as it is.
    static func repositoryPath(_ file: String, workingDirectory: String) -> String {
        if file == "-" || file == "standard input" { return SARIFReport.standardInputURI }
        var path = Substring(file)
        let root = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        if path.hasPrefix(root) { path = path.dropFirst(root.count) }
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return String(path)
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) })
    }
}
