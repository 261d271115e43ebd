import ArgumentParser
import FanoutCore
import FanoutReports
import FanoutSite
import FanoutTemplates
import Foundation

/// The options of the site's pages, which `build` writes and `serve` renders on request: each falls back to the
/// project's `fanout.toml`, then to the default.
struct SiteArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Posts per timeline and profile page, users per index page, \(NumberRange.perPage.expected). Default: "
                + "`per_page` in fanout.toml, else \(SiteOptions.defaultPerPage).", valueName: "N"),
        transform: NumberRange.perPage.parse)
    var perPage: Int?

    @Option(
        help: ArgumentHelp(
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

    @ArgumentParser.Flag(
        help: ArgumentHelp(
            "Fail when a template looks up a value no page gives it, or includes a template that does not exist "
                + "(a misspelled name would otherwise render as nothing). docs/template-variables.md lists every "
                + "template's values."))
    var strict = false

    @Option(
        help: ArgumentHelp(
            "Only these kinds of page, comma-separated: " + PageKind.allCases.map(\.rawValue).joined(separator: ", ")
                + ". Default: all.", valueName: "KINDS"))
    var pages: String?

    /// The site's settings from these options and `project`'s; fails on a bad value before anything is read.
    func settings(_ input: ExportOptions, _ project: ProjectConfig) throws -> SiteSettings {
        let kinds = try pageKinds()
        let perPage = self.perPage ?? project.perPage ?? SiteOptions.defaultPerPage
        let baseURL = try checkedBaseURL(self.baseURL ?? project.baseURL)
        // A sitemap holds absolute URLs only (sitemaps.org), which need the base URL (docs/site.md "Pages, feeds and
        // the sitemap"): asked for by name without one, it is a usage error; among all kinds, it is left out.
        if pages != nil && kinds.contains(.sitemap) && baseURL == nil {
            throw UsageError(
                message:
                    "--pages sitemap: a sitemap needs absolute URLs; give --base-url URL (or base_url in fanout.toml)")
        }
        let templatesDirectory = templates ?? input.existingFolder("Templates")
        return SiteSettings(
            title: title ?? project.title ?? "Fanout", contentDirectory: content ?? input.existingFolder("Content"),
            templatesDirectory: templatesDirectory, strict: strict, kinds: kinds, perPage: perPage, baseURL: baseURL,
            trend: try trend(input, project, templatesDirectory: templatesDirectory))
    }

    /// The report page's trend, when the project keeps a history that has runs (docs/diff-and-history.md): read
    /// now, so that a history that cannot be read stops the build before anything is read or written. It is
    /// rendered by the project's `history-trend.mustache` when it has one, as `fanout history` renders it.
    private func trend(_ input: ExportOptions, _ project: ProjectConfig, templatesDirectory: String?) throws -> String?
    {
        guard let history = project.history, let file = history.file else { return nil }
        let records = try HistoryFile(input.resolve(file), mayBeMissing: true).records
        guard !records.isEmpty else { return nil }
        return try HistoryWriter.reportSection(
            HistoryTrend(records, settings: history.settings), templates: TemplateSet(overrides: templatesDirectory))
    }

    private func pageKinds() throws -> Set<PageKind> {
        guard let pages else { return Set(PageKind.allCases) }
        return Set(
            try pages.split(separator: ",").map { name in
                guard let kind = PageKind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw UsageError(
                        message: "--pages \(pages): unknown kind \"\(name)\"; kinds: "
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
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), URL(string: value)?.host != nil,
            !value.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
        else {
            throw UsageError(
                message: "base URL \"\(value)\": expected an absolute http or https URL, "
                    + "such as https://feeds.example.com/")
        }
        if let cut = value.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            throw UsageError(
                message: "base URL \"\(value)\": it cannot have a query (?…) or fragment (#…), since page "
                    + "paths are appended to it; use \(value[..<cut]) instead")
        }
        return value
    }
}

/// The site's settings, resolved: what ``SiteArguments`` and the project file say.
struct SiteSettings: Sendable {
    var title: String
    var contentDirectory: String?
    var templatesDirectory: String?
    var strict: Bool
    var kinds: Set<PageKind>
    var perPage: Int
    var baseURL: String?
    /// The report page's trend section (HTML), when the project keeps a history.
    var trend: String?

    /// The templates, read now (a site project's `Templates/` over the built-in ones).
    func templates() throws -> TemplateSet { try TemplateSet(overrides: templatesDirectory, strict: strict) }

    /// The site's options for the export named `exportName`.
    func options(exportName: String) -> SiteOptions {
        var options = SiteOptions(
            title: title, exportName: exportName, contentDirectory: contentDirectory, pageKinds: kinds,
            perPage: perPage, baseURL: baseURL)
        options.trend = trend
        return options
    }
}
