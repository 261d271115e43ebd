import ArgumentParser
import FanoutCore
import FanoutReports
import FanoutTemplates

/// `fanout diff OLD NEW`: what changed between two exports of one app, in the data and in the audit
/// (docs/diff-and-history.md).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two exports: the facts added, removed and changed, and the findings new and fixed.",
        discussion: """
            Reads both exports as check reads them (layout detection, gzip, Parse; - for one of them), runs the \
            rules on each, and reports per relation the facts added, removed and changed (by database path) and \
            per rule the findings new and fixed (matched by rule and first path, as a baseline matches them). \
            Exits 0 when no new finding is at or above --fail-on, 1 when one is, 2 on bad usage or input (one \
            message, nothing written). Memory holds both exports at once. --format/--output pair as in check. \
            HTML is rendered by diff.mustache, which --templates (or a project's Templates folder) may replace.
            """
    )

    /// Entries and findings listed per list in text, Markdown and HTML unless told otherwise.
    static let defaultListLength = 10

    @Argument(
        help: ArgumentHelp(
            "The older export: a Firebase JSON file (plain or gzip), - for standard input, or a Parse export folder or .zip.",
            valueName: "OLD"))
    var old: String

    @Argument(help: ArgumentHelp("The newer export, likewise.", valueName: "NEW"))
    var new: String

    @OptionGroup var layout: LayoutOptions
    @OptionGroup var rules: RuleOptions

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Report format: \(DiffFormat.listed). Repeatable.", valueName: "FORMAT"))
    var formats: [FormatName<DiffFormat>] = []

    @OptionGroup var outputs: ReportOutputs
    @OptionGroup var templateOptions: TemplateOptions

    @Option(
        help: ArgumentHelp(
            "Exit 1 when a new finding is at or above this severity: \(DiffFailOn.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "LEVEL"))
    var failOn: DiffFailOn = .newError

    @Option(
        help: ArgumentHelp(
            "Entries of each change and findings of each rule that text, Markdown and HTML list, a number or all; "
                + "the rest are counted (JSON lists all). Default: \(defaultListLength).", valueName: "N"),
        transform: PerRuleLimit.parse)
    var maxPerRule: PerRuleLimit?

    @ArgumentParser.Flag(name: .shortAndLong, help: "List every entry and finding (--max-per-rule all).")
    var verbose = false

    func run() throws {
        // Everything that can be wrong with the command line or its files is found before an export is read.
        let project = try layout.project()
        let schema = try layout.layout(project)
        let configuration = try rules.configuration(project, schema: schema)
        let requests = try outputs.requests(formats.formats(of: "a diff"))
        if old == "-" && new == "-" {
            throw UsageError(message: "OLD and NEW are both standard input (-); one of them must be a file or folder")
        }
        let templates = requests.contains { $0.format == .html } ? try templateOptions.templateSet(layout) : nil

        // One export at a time: each one's derived data is dropped once its rules have run, so that memory holds
        // the two datasets and their findings, not two derivations.
        func read(_ path: String) throws -> (Dataset, AuditResult) {
            let analysis = try Analysis(ExportInput(path: path, schema: schema), configuration: configuration)
            return (analysis.dataset, analysis.audit)
        }
        let (oldData, oldAudit) = try read(old)
        let (newData, newAudit) = try read(new)
        guard oldData.schema == newData.schema else {
            throw UsageError(
                message: "\(old) reads as the \(oldData.schema.name) layout and \(new) as the "
                    + "\(newData.schema.name) layout; a diff compares two exports of one layout: give --schema NAME|FILE"
            )
        }
        let diff = PhaseClock.measure("diff") {
            ExportDiff(old: oldData, new: newData, oldAudit: oldAudit, newAudit: newAudit)
        }
        let info = DiffInfo(oldName: old, newName: new, schemaName: newData.schema.name)
        let limit = verbose ? nil : maxPerRule.map(\.value) ?? Self.defaultListLength
        let reports = RenderedReports(
            rendered: try requests.map { request in
                (
                    request,
                    try DiffWriter.render(
                        diff, info: info, format: request.format, maxPerList: limit, templates: templates)
                )
            })
        let wrote = try reports.writeFiles()
        reports.show(wrote: wrote)
        if !wrote.isEmpty { printStatus(DiffWriter.summaryLine(diff)) }
        if let threshold = failOn.threshold, diff.hasNewFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }
}
