import ArgumentParser
import FanoutCore
import FanoutOutput
import FanoutRender
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

    @Option(name: .customLong("format"), help: ArgumentHelp(
        "Report format: \(ReportFormat.listed). Repeatable.", valueName: "FORMAT"))
    var formats: [ReportFormatArgument] = []

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
        "Write the report of the matching --format to this file instead of standard output. Repeatable.",
        valueName: "FILE"))
    var outputs: [String] = []

    @Option(help: ArgumentHelp(
        "Exit 1 when a finding is at or above this severity: \(FailOn.listed). Default: `fail_on` "
            + "in fanout.toml, else error."))
    var failOn: FailOn?

    @Option(help: ArgumentHelp(
        "Hide the findings this baseline file lists (by rule and path); report how many and which are fixed.",
        valueName: "FILE"))
    var baseline: String?

    @Option(help: ArgumentHelp(
        "Write every current finding to this baseline file and exit 0: it records, it does not judge (the report "
            + "is still printed).", valueName: "FILE"))
    var writeBaseline: String?

    @Option(help: ArgumentHelp(
        "Findings the text report lists per rule, a number or all; the rest are counted. Default: "
            + "\(PerRuleLimit.terminalDefault) on a terminal, else all.", valueName: "N"))
    var maxPerRule: PerRuleLimit?

    @ArgumentParser.Flag(name: .shortAndLong, help: "Print only the text report's summary.")
    var quiet = false

    @Option(help: ArgumentHelp(
        "The name reports give an export read from standard input (-), as a path relative to the repository: "
            + "SARIF's artifact, the text report's export.json:LINE:COLUMN. Default: stdin.", valueName: "NAME"))
    var stdinFilename: String?

    @Option(help: ArgumentHelp("Print what RULE checks, why copies drift and how it is fixed, then exit.", valueName: "RULE"))
    var explain: String?

    func run() throws {
        if let explain {
            printOutput(try RuleExplanation.text(explain))
            return
        }
        // Everything that can be wrong with the command line or its files is found before the export is read.
        let project = try input.project()
        let configuration = try rules.configuration(base: project.rules)
        let threshold = (failOn ?? project.failOn ?? .error).threshold
        let requests = try ReportRequest.pair(formats: formats.map(\.value), outputs: outputs)
        let known = try baseline.map(BaselineFile.read)
        let export = try input.input(project)
        if let stdinFilename, export.path != "-" {
            throw UsageError(message: "--stdin-filename \(stdinFilename) names standard input, but the export is \(export.path)")
        }
        let needsTemplates = requests.contains { $0.format == .html || $0.format == .markdown }
        let templates = needsTemplates ? try TemplateSet() : nil
        // Only the reports that show where findings are pay for the second pass that finds them.
        let needsLocations = requests.contains { [.json, .sarif].contains($0.format) || ($0.format == .text && !quiet) }

        let analysis = try Analysis(export, configuration: configuration, keepsStandardInput: needsLocations)
        var audit = analysis.audit
        var outcome: BaselineOutcome?
        if let known { (audit, outcome) = known.apply(to: analysis.audit) }
        let exportName = export.path == "-" ? stdinFilename ?? export.path : export.path
        if needsLocations {
            let file = export.path == "-" ? stdinFilename ?? SARIFReport.standardInputURI : export.path
            audit.findings = try analysis.locate(audit.findings, name: file)
        }
        let info = ReportInfo(exportName: exportName, schemaName: analysis.dataset.schema.name, baseline: outcome)
        let coverage = needsTemplates ? ChartsData.timelineCoverage(dataset: analysis.dataset, derived: analysis.derived) : nil
        let reports = try requests.map { request in
            (request, try ReportWriter.render(
                audit, info: info, format: request.format, templates: templates, coverage: coverage,
                text: textOptions(toTerminal: request.output == nil)))
        }

        var wrote: [String] = []
        for (request, report) in reports {
            guard let output = request.output else { continue }
            try AtomicFile.write(report, to: output)
            wrote.append(output)
        }
        if let writeBaseline {
            try BaselineFile.write(analysis.audit.findings, to: writeBaseline)
            wrote.append(writeBaseline)
        }
        if let (_, report) = reports.first(where: { $0.0.output == nil }) {
            printOutput(report)
        }
        if !wrote.isEmpty {
            printStatus("wrote \(wrote.joined(separator: ", "))")
            if let outcome, !reports.contains(where: { $0.0.output == nil && $0.0.format == .text }) {
                printStatus(TextReport.baselineLine(outcome))
            }
            printStatus(TextReport.summaryLine(audit, info: info))
        }
        // Writing a baseline accepts the findings it records, so it never fails the run.
        if writeBaseline == nil, let threshold, audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }

    /// The text report's shape: on a terminal, at most 20 findings per rule and colours (unless `NO_COLOR` is
    /// set or `TERM` is `dumb`); in a pipe or a file, everything and no colour. `--max-per-rule` and `--quiet`
    /// apply everywhere.
    private func textOptions(toTerminal: Bool) -> TextReport.Options {
        let terminal = toTerminal && isatty(1) == 1
        let environment = ProcessInfo.processInfo.environment
        let color = terminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let limit = maxPerRule.map(\.value) ?? (terminal ? PerRuleLimit.terminalDefault : nil)
        return TextReport.Options(maxPerRule: limit, quiet: quiet, color: color)
    }
}
