import ArgumentParser
import FanoutRender
import Foundation

/// `fanout build`: renders the static feed site.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the static feed site: timelines (HTML and Markdown), profiles, posts and the report.",
        discussion: """
            The site is written to a temporary folder next to --out and moved into place when complete, so a \
            failed run leaves the previous site as it was. Fanout refuses to replace a non-empty folder it did \
            not create. Markdown pages in --content become pages of the site (index.md introduces the home \
            page); templates in --templates override the built-in ones file by file.
            """
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions
    @OptionGroup var config: ConfigOptions

    @Option(name: .shortAndLong, help: "The folder to write the site to.")
    var out: String = "_site"

    @Option(help: "Markdown pages to include (default: ./Content when it exists).")
    var content: String?

    @Option(help: "Templates overriding the built-in ones (default: ./Templates when it exists).")
    var templates: String?

    @Option(help: "The site's title.")
    var title: String = "Fanout"

    @Flag(name: .shortAndLong, help: "List every file written (files whose content did not change are kept).")
    var verbose = false

    @Option(help: ArgumentHelp(
        "Only these kinds of page, comma-separated: " + PageKind.allCases.map(\.rawValue).joined(separator: ", ")
            + ". Default: all.", valueName: "KINDS"))
    var pages: String?

    @Option(help: ArgumentHelp("Exit 1 when a finding is at or above this severity: error, warning, info or never. "
        + "Default: `fail_on` in fanout.toml, else never."))
    var failOn: FailOn?

    func run() throws {
        let kinds = try pageKinds()
        let project = try config.load()
        let configuration = try rules.configuration(base: project.rules)
        let templateSet = try TemplateSet(overrides: templates ?? existingFolder("Templates"))
        let analysis = try Analysis(input, configuration: configuration)
        let builder = SiteBuilder(
            dataset: analysis.dataset, derived: analysis.derived, audit: analysis.audit,
            options: SiteOptions(
                title: title, exportName: input.export, contentDirectory: content ?? existingFolder("Content"),
                pageKinds: kinds),
            templates: templateSet)
        let summary = try PhaseClock.measure("render") {
            try builder.build(into: out) { done, total in TerminalProgress.shared.update(done: min(done, total), total: total) }
        }
        let info = ReportInfo(exportName: input.export, schemaName: analysis.dataset.schema.name)
        printStatus("\(out)/: wrote \(summary.written.count) files, \(summary.unchanged) unchanged — "
            + TextReport.summaryLine(analysis.audit, info: info))
        if verbose { for file in summary.written { printStatus("  wrote \(file)") } }
        let threshold = (failOn ?? project.failOn.map(FailOn.init) ?? .never).threshold
        if let threshold, analysis.audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }

    private func pageKinds() throws -> Set<PageKind> {
        guard let pages else { return Set(PageKind.allCases) }
        return Set(try pages.split(separator: ",").map { name in
            guard let kind = PageKind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw UsageError(message: "--pages \(pages): unknown kind \"\(name)\"; kinds: "
                    + PageKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return kind
        })
    }

    private func existingFolder(_ name: String) -> String? {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) && isDirectory.boolValue ? name : nil
    }
}
