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

    @Option(name: .shortAndLong, help: "The folder to write the site to.")
    var out: String = "_site"

    @Option(help: "Markdown pages to include (default: ./Content when it exists).")
    var content: String?

    @Option(help: "Templates overriding the built-in ones (default: ./Templates when it exists).")
    var templates: String?

    @Option(help: "The site's title.")
    var title: String = "Fanout"

    @Option(help: "Exit 1 when a finding is at or above this severity: error, warning, info or never.")
    var failOn: FailOn = .never

    func run() throws {
        let configuration = try rules.configuration()
        let templateSet = try TemplateSet(overrides: templates ?? existingFolder("Templates"))
        let analysis = try Analysis(input, configuration: configuration)
        let builder = SiteBuilder(
            dataset: analysis.dataset, derived: analysis.derived, audit: analysis.audit,
            options: SiteOptions(title: title, exportName: input.export, contentDirectory: content ?? existingFolder("Content")),
            templates: templateSet)
        let files = try builder.build(into: out)
        let info = ReportInfo(exportName: input.export, schemaName: analysis.dataset.schema.name)
        printStatus("wrote \(files) files to \(out)/ — \(TextReport.summaryLine(analysis.audit, info: info))")
        if let threshold = failOn.threshold, analysis.audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }

    private func existingFolder(_ name: String) -> String? {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) && isDirectory.boolValue ? name : nil
    }
}
