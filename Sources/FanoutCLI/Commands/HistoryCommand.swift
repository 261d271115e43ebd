import ArgumentParser
import FanoutCore
import FanoutReports

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
            usage or a history it cannot read (nothing written). HTML is rendered by history.mustache, which \
            --templates (or a project's Templates folder) may replace.
            """
    )

    /// `--fail-on`'s values.
    enum FailOn: String, CaseIterable, ExpressibleByArgument {
        case anomaly, never
    }

    @Argument(help: ArgumentHelp("The history file (NDJSON). Default: `history` in fanout.toml.", valueName: "FILE"))
    var file: String?

    @OptionGroup var layout: LayoutOptions

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Report format: \(HistoryFormat.listed). Repeatable.", valueName: "FORMAT"))
    var formats: [FormatName<HistoryFormat>] = []

    @OptionGroup var outputs: ReportOutputs
    @OptionGroup var templateOptions: TemplateOptions

    @Option(
        help: ArgumentHelp(
            "Exit 1 when the newest run is flagged (anomaly), or never. Default: never.", valueName: "WHEN"))
    var failOn: FailOn = .never

    func run() throws {
        let project = try layout.project()
        let requests = try outputs.requests(formats.formats(of: "a history"))
        guard let path = file ?? project.history?.file.map(layout.resolve) else {
            throw UsageError(message: "missing the history: give FILE, or set history in \(ProjectConfig.fileName)")
        }
        let templates = requests.contains { $0.format == .html } ? try templateOptions.templateSet(layout) : nil
        let trend = HistoryTrend(
            try HistoryFile(path, mayBeMissing: false).records, settings: project.history?.settings ?? .init())
        let reports = RenderedReports(
            rendered: try requests.map {
                ($0, try HistoryWriter.render(trend, format: $0.format, templates: templates))
            })
        reports.show(wrote: try reports.writeFiles())
        if failOn == .anomaly && trend.newestIsFlagged { throw ExitCode(1) }
    }
}
