import ArgumentParser
import FanoutCore
import FanoutRender

/// `fanout history [FILE]`: the trend of the runs `check --history FILE` recorded, rule by rule and relation by
/// relation, and the runs whose findings jumped (docs/diff-and-history.md, "History").
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the trend of the runs check --history recorded, and flag the runs whose findings jumped.",
        discussion: """
            A run is flagged for a rule when its findings are more than `factor` times the median of the rule's \
            findings in the `window` runs before it (at least 3 of them); [history] in fanout.toml sets both \
            (defaults: 2 and 7). Exits 0, or with --fail-on anomaly 1 when the newest run is flagged; 2 on bad \
            usage or a history it cannot read (nothing written).
            """
    )

    /// `--fail-on`'s values.
    enum FailOn: String, CaseIterable, ExpressibleByArgument {
        case anomaly, never
    }

    @Argument(help: ArgumentHelp("The history file (NDJSON). Default: `history` in fanout.toml.", valueName: "FILE"))
    var file: String?

    @OptionGroup var layout: LayoutOptions

    @Option(help: ArgumentHelp("text or html.", valueName: "FORMAT"))
    var format: ReportFormatArgument?

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
        "Write the report to this file instead of standard output.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Exit 1 when the newest run is flagged (anomaly), or never. Default: never.", valueName: "WHEN"))
    var failOn: FailOn = .never

    func run() throws {
        let project = try layout.project()
        let format = format?.value ?? .text
        guard HistoryWriter.formats.contains(format) else {
            throw UsageError(message: "--format \(format.rawValue): a history is written as "
                + HistoryWriter.formats.map(\.rawValue).joined(separator: " or "))
        }
        guard let path = file ?? project.history?.file.map(layout.resolve) else {
            throw UsageError(message: "missing the history: give FILE, or set history in \(ProjectConfig.fileName)")
        }
        let trend = HistoryTrend(try HistoryFile(path, mayBeMissing: false).records, settings: project.history?.settings ?? .init())
        let text = try HistoryWriter.render(trend, html: format == .html)
        let reports = RenderedReports(rendered: [(ReportRequest(format: format, output: output), text)])
        if try reports.writeFiles().isEmpty { printOutput(text) } else if let output { printStatus("wrote \(output)") }
        if failOn == .anomaly && trend.newestIsFlagged { throw ExitCode(1) }
    }
}
