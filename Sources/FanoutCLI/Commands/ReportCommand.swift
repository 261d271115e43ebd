import ArgumentParser
import FanoutCore
import FanoutRender

/// `fanout report`: renders JSON reports — `check --format json`'s, or a Spark job's in the same format — in any
/// report format, with `check`'s exit codes (README, "Rendering JSON reports").
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

    func run() throws {
        // Everything is read and checked before anything is written.
        guard !inputs.isEmpty else { throw UsageError(message: "give at least one JSON report (REPORT.json), as check --format json writes") }
        let threshold = (report.failOn ?? .error).threshold
        let requests = try report.requests()
        let known = try report.baseline.map(BaselineFile.read)
        let templates = try RenderedReports.templates(for: requests)
        let merged = try ReportInputs.read(inputs)
        var audit = merged.result
        var info = merged.info
        if let known {
            if info.baseline != nil {
                throw UsageError(message: "--baseline: \(inputs.joined(separator: ", ")) already had a baseline applied; apply one baseline once")
            }
            (audit, info.baseline) = known.apply(to: audit)
        }
        let reports = try RenderedReports(requests, audit: audit, info: info, templates: templates, coverage: merged.coverage, options: report)
        reports.finish(wrote: try reports.writeFiles(), audit: audit, info: info)
        if let threshold, audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }
}
