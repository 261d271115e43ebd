import ArgumentParser
import FanoutCore
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
            page); templates in --templates override the built-in ones file by file. Inside a site project \
            (see `fanout init`), fanout.toml supplies the export, schema, title, base_url, per_page and out; \
            options given here override it.
            """
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions

    @Option(name: .shortAndLong, help: "The folder to write the site to. Default: `out` in fanout.toml, else _site.")
    var out: String?

    @Option(help: ArgumentHelp(
        "Posts per timeline and profile page, users per index page. Default: `per_page` in fanout.toml, else \(SiteOptions.defaultPerPage).",
        valueName: "N"))
    var perPage: Int?

    @Option(help: ArgumentHelp(
        "The URL the site is published at (http or https, without a query or fragment), for absolute URLs in Atom "
            + "feeds and sitemap.xml, which is written only with one; page links stay relative. Default: `base_url` "
            + "in fanout.toml, else none.", valueName: "URL"))
    var baseURL: String?

    @Option(help: "Markdown pages to include (default: ./Content when it exists).")
    var content: String?

    @Option(help: "Templates overriding the built-in ones (default: ./Templates when it exists).")
    var templates: String?

    @Option(help: "The site's title. Default: `title` in fanout.toml, else Fanout.")
    var title: String?

    @ArgumentParser.Flag(help: ArgumentHelp(
        "Fail when a template looks up a value no page gives it, or includes a template that does not exist "
            + "(a misspelled name would otherwise render as nothing). The README lists every template's values."))
    var strict = false

    @ArgumentParser.Flag(name: .shortAndLong, help: "List every file written (files whose content did not change are kept).")
    var verbose = false

    @Option(help: ArgumentHelp(
        "Only these kinds of page, comma-separated: " + PageKind.allCases.map(\.rawValue).joined(separator: ", ")
            + ". Default: all.", valueName: "KINDS"))
    var pages: String?

    @Option(help: ArgumentHelp("Exit 1 when a finding is at or above this severity: \(FailOn.listed). "
        + "Default: `fail_on` in fanout.toml, else never."))
    var failOn: FailOn?

    func run() throws {
        // Everything that can be wrong with the command line or its files is found before the export is read.
        let kinds = try pageKinds()
        let project = try input.project()
        let configuration = try rules.configuration(base: project.rules)
        let perPage = self.perPage ?? project.perPage ?? SiteOptions.defaultPerPage
        guard perPage >= 1 else { throw UsageError(message: "--per-page \(perPage): expected a whole number of at least 1") }
        let baseURL = try checkedBaseURL(self.baseURL ?? project.baseURL)
        // A sitemap holds absolute URLs only (sitemaps.org), which need the base URL (README, "Pages, feeds and
        // the sitemap"): asked for by name without one, it is a usage error; among all kinds, it is left out.
        if pages != nil && kinds.contains(.sitemap) && baseURL == nil {
            throw UsageError(message: "--pages sitemap: a sitemap needs absolute URLs; give --base-url URL (or base_url in fanout.toml)")
        }
        let out = self.out ?? project.out.map(input.resolve) ?? "_site"
        let templateSet = try TemplateSet(overrides: templates ?? input.existingFolder("Templates"), strict: strict)
        let export = try input.input(project)
        let analysis = try Analysis(export, configuration: configuration)
        let builder = SiteBuilder(
            dataset: analysis.dataset, derived: analysis.derived, audit: analysis.audit,
            options: SiteOptions(
                title: title ?? project.title ?? "Fanout", exportName: export.path,
                contentDirectory: content ?? input.existingFolder("Content"), pageKinds: kinds, perPage: perPage,
                baseURL: baseURL),
            templates: templateSet)
        let summary = try PhaseClock.measure("render") {
            try builder.build(into: out) { done, total in TerminalProgress.shared.update(done: min(done, total), total: total) }
        }
        let info = ReportInfo(exportName: export.path, schemaName: analysis.dataset.schema.name)
        printStatus("\(out)/: wrote \(summary.written.count == 1 ? "1 file" : "\(summary.written.count) files"), "
            + "\(summary.unchanged) unchanged — " + TextReport.summaryLine(analysis.audit, info: info))
        if verbose { for file in summary.written { printStatus("  wrote \(file)") } }
        if kinds.contains(.sitemap) && baseURL == nil {
            printStatus("note: no sitemap.xml: a sitemap needs absolute URLs; give --base-url URL (or base_url in fanout.toml)")
        }
        let threshold = (failOn ?? project.failOn ?? .never).threshold
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

    /// The base URL, which must be an absolute http(s) URL since feeds and sitemaps need one to mean anything,
    /// without a query or fragment, since page paths are appended to it (`…/feeds#x` + `index.html` is no page).
    private func checkedBaseURL(_ value: String?) throws -> String? {
        guard let value else { return nil }
        let lower = value.lowercased()
        guard (lower.hasPrefix("http://") || lower.hasPrefix("https://")), URL(string: value)?.host != nil,
              !value.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
        else {
            throw UsageError(message: "base URL \"\(value)\": expected an absolute http or https URL, "
                + "such as https://feeds.example.com/")
        }
        if let cut = value.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            throw UsageError(message: "base URL \"\(value)\": it cannot have a query (?…) or fragment (#…), since page "
                + "paths are appended to it; use \(value[..<cut]) instead")
        }
        return value
    }
}
