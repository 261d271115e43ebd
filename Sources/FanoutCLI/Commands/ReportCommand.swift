import ArgumentParser
import FanoutCore
import FanoutImport

/// `fanout report`: renders JSON reports — `check --format json`'s, or a Spark job's in the same format — in any
/// report format, with `check`'s exit codes (docs/reports.md "Rendering JSON reports").
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render one or more JSON reports in any report format, with check's exit codes.",
        discussion: """
            Reads JSON reports (version 1, as check --format json writes them), merges them when there are several \
            (one export; each rule from one report), and writes the reports check would write for the same \
            findings, byte for byte. Exits 0 when no finding is at or above --fail-on, 1 when one is, 2 on bad \
            usage or a report it cannot read (nothing written). --format/--output pair as in check.
            """
    )

    @Argument(help: ArgumentHelp("JSON reports to render (version 1).", valueName: "REPORT.json"))
    var inputs: [String] = []

    @OptionGroup var report: ReportOptions

    @Option(
        help: ArgumentHelp(
            "The export the reports are on (a Firebase JSON file, plain or gzip, or a Parse export folder): findings "
                + "without a file, line and column (a Spark job's) get them from it, as check finds them.",
            valueName: "EXPORT"))
    var export: String?

    func run() throws {
        // Everything is read and checked before anything is written.
        guard !inputs.isEmpty else {
            throw UsageError(message: "give at least one JSON report (REPORT.json), as check --format json writes")
        }
        let threshold = (report.failOn ?? .error).threshold
        let requests = try report.requests()
        let known = try report.baseline.map(BaselineFile.read)
        let templates = try RenderedReports.templates(for: requests)
        let merged = try ReportInputs.read(inputs)
        var audit = merged.result
        var info = merged.info
        if let known {
            if info.baseline != nil {
                throw UsageError(
                    message:
                        "--baseline: \(inputs.joined(separator: ", ")) already had a baseline applied; apply one baseline once"
                )
            }
            (audit, info.baseline) = known.apply(to: audit)
        }
        if let export, report.showsLocations(requests) {
            audit.findings = try Self.locate(audit.findings, in: export)
        }
        let reports = try RenderedReports(
            requests, audit: audit, info: info, templates: templates, coverage: merged.coverage, options: report)
        reports.finish(wrote: try reports.writeFiles(), audit: audit, info: info)
        if let threshold, audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }

    /// `findings` with the findings that have no location located in `export` by check's second pass
    /// (``FindingLocator``); located ones keep theirs. Locations name the export as given, as check's do.
    static func locate(_ findings: [Finding], in export: String) throws -> [Finding] {
        guard export != "-" else {
            throw UsageError(
                message:
                    "--export -: give the export's file or folder; standard input cannot be read to locate findings")
        }
        let missing = findings.indices.filter { findings[$0].location == nil }
        let located = try PhaseClock.measure("locate") {
            try FindingLocator.locate(missing.map { findings[$0] }, inExportAt: export)
        }
        var result = findings
        for (index, finding) in zip(missing, located) { result[index] = finding }
        return result
    }
}
