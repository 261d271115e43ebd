import Dispatch
import FanoutCore
import Foundation

/// The kinds of page a site has; `--pages` chooses among them.
public enum PageKind: String, CaseIterable, Sendable {
    /// `index.html`, `page/2/index.html`, …: the users, `--per-page` a page.
    case index
    /// `search.json` and `search-data.js`: every user's name, uid and timeline, for the index's search box.
    case search
    /// `users/<uid>/index.html`, `page-2.html`, … (the timeline's pages).
    case timelines
    /// `users/<uid>/index.md`, `page-2.md`, …, the timeline pages' Markdown twins.
    case markdown
    /// `users/<uid>/profile.html`, `profile-2.html`, ….
    case profiles
    /// `posts/<key>.html`.
    case posts
    /// `report.html`, `report.md`, `report.json`.
    case report
    /// The pages of `Content/`.
    case pages
    /// `users/<uid>/feed.xml`, an Atom feed per timeline.
    case feeds
    /// `sitemap.xml`, listing every HTML page the build writes; only with a base URL.
    case sitemap
}

/// What to build and where.
public struct SiteOptions: Sendable {
    /// The site's title, shown in every page's header.
    public var title: String
    /// The export's name as the user gave it.
    public var exportName: String
    /// The site project's `Content/` folder, if any.
    public var contentDirectory: String?
    /// The kinds of page to write; every kind by default. Assets (`style.css`, `search.js`) are always written.
    public var pageKinds: Set<PageKind>
    /// Posts per timeline and profile page, and users per index page (at least 1).
    public var perPage: Int
    /// The URL the site is published at, ending in `/`, for the absolute URLs of feeds and the sitemap; page
    /// links stay relative either way.
    public var baseURL: String?

    /// URLs per sitemap file before `sitemap.xml` becomes an index of several (the protocol's 50,000); lowered
    /// by tests, which then need no site of 50,000 pages to see the split.
    package var sitemapLimit = Sitemap.urlLimit

    /// The number of posts per page when none is configured.
    public static let defaultPerPage = 50

    /// Site options.
    public init(
        title: String = "Fanout", exportName: String, contentDirectory: String? = nil,
        pageKinds: Set<PageKind> = Set(PageKind.allCases), perPage: Int = SiteOptions.defaultPerPage,
        baseURL: String? = nil
    ) {
        self.title = title
        self.exportName = exportName
        self.contentDirectory = contentDirectory
        self.pageKinds = pageKinds
        self.perPage = max(1, perPage)
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }
}

/// Renders the whole static site: index, timelines and their Markdown twins, profiles, posts, report, pages.
public struct SiteBuilder: Sendable {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult
    let options: SiteOptions
    let templates: TemplateSet

    /// A builder for one export.
    public init(dataset: Dataset, derived: DerivedData, audit: AuditResult, options: SiteOptions, templates: TemplateSet) {
        self.dataset = dataset
        self.derived = derived
        self.audit = audit
        self.options = options
        self.templates = templates
    }

    /// One page to render.
    enum Job: Sendable {
        case report, reportMarkdown, reportJSON, searchJSON, searchScript
        /// A page of the index (from 1).
        case index(page: Int)
        /// A user's timeline page (user index, page number from 1), its Markdown twin, a profile page.
        case timeline(Int, page: Int), timelineMarkdown(Int, page: Int), profile(Int, page: Int)
        case feed(Int), post(Int), content(Int)
        case asset(String)
    }

    /// Renders every page into a staging folder and moves it to `path`. Pages whose content is the same as in
    /// the previous build there are kept rather than rewritten; the summary says which files were written.
    /// `progress` is called now and then with the number of pages done and the total.
    @discardableResult
    public func build(
        into path: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> SiteOutput.Summary {
        let pages = try SitePages(dataset: dataset, derived: derived, audit: audit, options: options, templates: templates)
        let output = try SiteOutput(path: path)
        do {
            try render(pages, into: output, progress: progress)
            return try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }

    private func render(
        _ pages: SitePages, into output: SiteOutput, progress: (@Sendable (Int, Int) -> Void)?
    ) throws {
        let renderer = pages.renderer
        let jobs = pages.jobs
        // Pages are independent: render them on every core, in contiguous chunks.
        let state = Locked(RenderState())
        let chunk = 64
        let chunks = (jobs.count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            defer {
                let done = state.withLock { $0.finished += chunk; return $0.finished }
                progress?(done, jobs.count)
            }
            for i in (c * chunk)..<min(jobs.count, (c + 1) * chunk) where state.withLock({ $0.failure == nil }) {
                do {
                    let (path, text) = try renderer.render(jobs[i])
                    try output.write(text, to: path)
                } catch {
                    state.withLock { if $0.failure == nil { $0.failure = error } }
                }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        // The sitemap lists every HTML page, so it is written once they all are.
        for file in pages.sitemap() { try output.write(file.text, to: file.path) }
    }
}

/// What the parallel render has done so far.
private struct RenderState {
    var finished = 0
    var failure: (any Error)?
}
