import ArgumentParser
import FanoutCore
import FanoutImport
import FanoutOutput
import FanoutReports
import Foundation

/// `fanout check`: audits an export and reports its findings.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Audit an export's denormalized copies and report the findings.",
        discussion: """
            Exits 0 when no finding is at or above --fail-on, 1 when one is, 2 on bad usage or input. Several \
            --format/--output pairs write several reports from one read: the i-th --output goes with the i-th \
            --format, and a format without an output goes to standard output (at most one). Settings come from \
            ./fanout.toml (or --config) when there is one; the command line overrides it.
            """
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions

    @OptionGroup var report: ReportOptions

    @Option(
        help: ArgumentHelp(
            "Write every current finding to this baseline file and exit 0: it records, it does not judge (the report "
                + "is still printed).", valueName: "FILE"))
    var writeBaseline: String?

    @Option(
        help: ArgumentHelp(
            "The name reports give an export read from standard input (-), as a path relative to the repository: "
                + "SARIF's artifact, the text report's export.json:LINE:COLUMN. Default: stdin.", valueName: "NAME"))
    var stdinFilename: String?

    @Option(
        help: ArgumentHelp(
            "Append this run's metrics (the export, the time, facts per relation, findings per rule and severity) to this "
                + "history file, one NDJSON line; `fanout history FILE` shows the trend.", valueName: "FILE"))
    var history: String?

    @Option(
        help: ArgumentHelp(
            "Print what RULE checks, why copies drift and how it is fixed, then exit.", valueName: "RULE"))
    var explain: String?

    func run() throws {
        if let explain {
            // A declared rule is explained from the schema that declares it.
            let schema = RuleCatalog.descriptor(explain) == nil ? try input.layout(input.project()) : nil
            printOutput(try RuleExplanation.text(explain, schema: schema))
            return
        }
        // Everything that can be wrong with the command line or its files is found before the export is read.
        let project = try input.project()
        let configuration = try rules.configuration(project, schema: input.layout(project))
        let threshold = (report.failOn ?? project.failOn ?? .error).threshold
        let requests = try report.requests()
        let known = try report.baseline.map(BaselineFile.read)
        // A history that cannot be appended to is found now, before anything is read or written.
        let historyFile = try history.map { try HistoryFile($0, mayBeMissing: true) }
        let export = try input.input(project)
        if let stdinFilename, export.path != "-" {
            throw UsageError(
                message: "--stdin-filename \(stdinFilename) names standard input, but the export is \(export.path)")
        }
        let templates = try RenderedReports.templates(for: requests)
        // Only the reports that show where findings are pay for the second pass that finds them.
        let needsLocations = report.showsLocations(requests)
        // Timeline coverage is drawn by the HTML report and carried by the JSON report, for `fanout report`.
        let needsCoverage = requests.contains { [.json, .html].contains($0.format) }

        let analysis = try Analysis(export, configuration: configuration, keepsStandardInput: needsLocations)
        var audit = analysis.audit
        var outcome: BaselineOutcome?
        if let known { (audit, outcome) = known.apply(to: analysis.audit) }
        let exportName = export.path == "-" ? stdinFilename ?? export.path : export.path
        if needsLocations {
            let file = export.path == "-" ? stdinFilename ?? SARIFReport.standardInputURI : export.path
            audit.findings = try analysis.locate(audit.findings, name: file)
        }
        let info = ReportInfo(
            exportName: exportName, schemaName: analysis.dataset.schema.name, baseline: outcome,
            namespaces: try FirestoreExport.databaseNamespaces(export.path))
        let coverage =
            needsCoverage
            ? ChartsData.timelineCoverage(dataset: analysis.dataset, derived: analysis.derived).map(
                TimelineCoverage.init) : nil
        let reports = try RenderedReports(
            requests, audit: audit, info: info, templates: templates, coverage: coverage, options: report)

        var wrote = try reports.writeFiles()
        if let writeBaseline {
            try BaselineFile.write(analysis.audit.findings, to: writeBaseline)
            wrote.append(writeBaseline)
        }
        if let historyFile {
            // Every finding, whatever a baseline hides: the trend is of the data (docs/diff-and-history.md).
            try historyFile.append(
                HistoryRecord(
                    dataset: analysis.dataset, audit: analysis.audit, export: exportName, time: HistoryFile.now()))
            wrote.append(historyFile.path)
        }
        reports.finish(wrote: wrote, audit: audit, info: info)
        // Writing a baseline accepts the findings it records, so it never fails the run.
        if writeBaseline == nil, let threshold, audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }
}
