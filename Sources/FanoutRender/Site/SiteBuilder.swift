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
        let pages = try ContentPage.load(from: options.contentDirectory ?? "")
        let output = try SiteOutput(path: path)
        do {
            try render(into: output, pages: pages, progress: progress)
            return try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }

    private func render(
        into output: SiteOutput, pages: [ContentPage], progress: (@Sendable (Int, Int) -> Void)?
    ) throws {
        let navPages = pages.filter { $0.name != "index" }
        let info = ReportInfo(exportName: options.exportName, schemaName: dataset.schema.name)
        let common: [String: Any] = [
            "siteTitle": options.title, "exportName": options.exportName, "schemaName": dataset.schema.name,
            "navPages": navPages.map { ["href": "\(SafeFileName.forKey($0.name)).html", "title": $0.title] },
        ]
        let views = SiteViews(dataset: dataset, derived: derived, common: common)
        let kinds = options.pageKinds
        var jobs: [Job] = []
        let liveUsers = dataset.users.indices.filter { derived.user(dataset.users[$0].key) == $0 }
        if kinds.contains(.index) {
            let indexPages = Pagination(perPage: options.perPage, count: liveUsers.count).pageCount
            for page in 1...indexPages { jobs.append(.index(page: page)) }
        }
        if kinds.contains(.search) { jobs += [.searchJSON, .searchScript] }
        if kinds.contains(.report) { jobs += [.report, .reportMarkdown, .reportJSON] }
        for u in liveUsers {
            let timelinePages = Pagination(perPage: options.perPage, count: derived.timelines[u].count).pageCount
            for page in 1...timelinePages {
                if kinds.contains(.timelines) { jobs.append(.timeline(u, page: page)) }
                if kinds.contains(.markdown) { jobs.append(.timelineMarkdown(u, page: page)) }
            }
            if kinds.contains(.profiles) {
                let profilePages = Pagination(perPage: options.perPage, count: derived.ownPosts[u].count).pageCount
                for page in 1...profilePages { jobs.append(.profile(u, page: page)) }
            }
            if kinds.contains(.feeds) { jobs.append(.feed(u)) }
        }
        if kinds.contains(.posts) {
            for p in dataset.posts.indices where derived.post(dataset.posts[p].key) == p { jobs.append(.post(p)) }
        }
        if kinds.contains(.pages) {
            for page in navPages { jobs.append(.content(pages.firstIndex(of: page)!)) }
        }
        for name in templates.assets.keys.sorted() { jobs.append(.asset(name)) }

        let needsCards = !kinds.isDisjoint(with: [.timelines, .markdown, .profiles])
        let renderer = PageRenderer(
            views: views, templates: templates, audit: audit, info: info, pages: pages,
            usersByName: liveUsers.sorted { derived.userRank[$0] < derived.userRank[$1] },
            perPage: options.perPage, baseURL: options.baseURL,
            cards: try CardCache(views: views, templates: templates, used: needsCards),
            coverage: kinds.contains(.report) ? ChartsData.timelineCoverage(dataset: dataset, derived: derived).map(TimelineCoverage.init) : nil)
        // Pages are independent: render them on every core, in contiguous chunks.
        let state = Locked(RenderState())
        let chunk = 64
        let chunks = (jobs.count + chunk - 1) / chunk
        let allJobs = jobs
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            defer {
                let done = state.withLock { $0.finished += chunk; return $0.finished }
                progress?(done, allJobs.count)
            }
            for i in (c * chunk)..<min(allJobs.count, (c + 1) * chunk) where state.withLock({ $0.failure == nil }) {
                do {
                    let (path, text) = try renderer.render(allJobs[i])
                    try output.write(text, to: path)
                    state.withLock { $0.written.append(path) }
                } catch {
                    state.withLock { if $0.failure == nil { $0.failure = error } }
                }
            }
        }
        let (failure, written) = state.withLock { ($0.failure, $0.written) }
        if let failure { throw failure }
        // The sitemap lists what the build wrote, so it is rendered last; in byte order, so that it does not
        // depend on which thread finished first. Only with a base URL: the protocol wants absolute URLs.
        if kinds.contains(.sitemap), let baseURL = options.baseURL {
            let htmlPages = written.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.filter { $0.hasSuffix(".html") }
            for file in Sitemap.render(pages: htmlPages, baseURL: baseURL, limit: options.sitemapLimit) {
                try output.write(file.text, to: file.path)
            }
        }
    }
}

/// What the parallel render has done so far.
private struct RenderState {
    var finished = 0
    var written: [String] = []
    var failure: (any Error)?
}
