import ArgumentParser
import FanoutReports
import Foundation

/// The options that choose and shape the reports a run writes — `--format`/`--output` pairs, `--fail-on`,
/// `--baseline`, `--max-per-rule`, `--quiet` — taken alike by `check`, which audits an export, and `report`,
/// which renders JSON reports (docs/reports.md).
struct ReportOptions: ParsableArguments {
    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Report format: \(ReportFormat.listed). Repeatable.", valueName: "FORMAT"))
    var formats: [ReportFormatArgument] = []

    @OptionGroup var destinations: ReportOutputs

    @Option(
        help: ArgumentHelp(
            "Exit 1 when a finding is at or above this severity: \(FailOn.listed). Default: error (check: "
                + "`fail_on` in fanout.toml when set)."))
    var failOn: FailOn?

    @Option(
        help: ArgumentHelp(
            "Hide the findings this baseline file lists (by rule and path); report how many and which are fixed.",
            valueName: "FILE"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Findings the text report lists per rule, a number or all; the rest are counted. Default: "
                + "\(PerRuleLimit.terminalDefault) on a terminal, else all.", valueName: "N"),
        transform: PerRuleLimit.parse)
    var maxPerRule: PerRuleLimit?

    @ArgumentParser.Flag(name: .shortAndLong, help: "Print only the text report's summary.")
    var quiet = false

    /// The reports asked for, paired with their outputs.
    func requests() throws -> [ReportRequest<ReportFormat>] { try destinations.requests(formats.map(\.value)) }

    /// Whether a requested report shows where findings are in the export (JSON, SARIF, GitLab, the full text report):
    /// only then is the export read a second time to find them (docs/reports.md).
    func showsLocations(_ requests: [ReportRequest<ReportFormat>]) -> Bool {
        requests.contains { [.json, .sarif, .gitlab].contains($0.format) || ($0.format == .text && !quiet) }
    }

    /// The text report's shape: on a terminal, at most 20 findings per rule and colours (unless `NO_COLOR` is
    /// set or `TERM` is `dumb`); in a pipe or a file, everything and no colour. `--max-per-rule` and `--quiet`
    /// apply everywhere.
    func textOptions(toTerminal: Bool) -> TextReport.Options {
        let terminal = toTerminal && isatty(1) == 1
        let environment = ProcessInfo.processInfo.environment
        let color = terminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let limit = maxPerRule.map(\.value) ?? (terminal ? PerRuleLimit.terminalDefault : nil)
        return TextReport.Options(maxPerRule: limit, quiet: quiet, color: color)
    }
}
