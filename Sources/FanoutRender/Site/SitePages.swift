import Dispatch
import FanoutCore

/// Every page of the site and where it lives: what `build` writes, page by page, and what `serve` renders for the
/// one path a request names (docs/serve.md). Both go through ``PageRenderer/path(of:)``, so a page's
/// path is said in one place and `serve` answers exactly the paths `build` writes, with the same bytes.
public struct SitePages: Sendable {
    let renderer: PageRenderer
    let kinds: Set<PageKind>
    let perPage: Int
    let baseURL: String?
    let sitemapLimit: Int
    /// The users with pages (a uid stored twice has pages once, for the user the uid resolves to).
    let liveUsers: [Int]
    /// Lookups from a path's parts to what it shows, for ``job(at:)``; empty unless made `byPath`.
    private let userFolders: FileNameIndex?
    private let postFiles: FileNameIndex?
    private let contentFiles: [String: Int]
    /// Live users by username folded to lower case, and by uid, each sorted by those bytes: the search's
    /// prefix ranges; empty unless made `byPath`.
    private let search: Deferred<SearchOrders>

    /// The pages of one export. `byPath`: also index them by path, for ``render(path:)`` (a server); a build,
    /// which renders every page in turn, does without. Fails when a `Content/` page or a card template is bad.
    public init(
        dataset: Dataset, derived: DerivedData, audit: AuditResult, options: SiteOptions, templates: TemplateSet,
        byPath: Bool = false
    ) throws(RenderError) {
        let pages = try ContentPage.load(from: options.contentDirectory ?? "")
        let navPages = pages.filter { $0.name != "index" }
        let common: [String: Any] = [
            "siteTitle": options.title, "exportName": options.exportName, "schemaName": dataset.schema.name,
            "navPages": navPages.map { ["href": "\(SafeFileName.forKey($0.name)).html", "title": $0.title] },
        ]
        let views = SiteViews(dataset: dataset, derived: derived, common: common)
        let kinds = options.pageKinds
        let liveUsers = dataset.users.indices.filter { derived.user(dataset.users[$0].key) == $0 }
        let needsCards = !kinds.isDisjoint(with: [.timelines, .markdown, .profiles])
        // What the first page needs, made on both cores; what only some pages need (the report's coverage, the
        // search's orders) is made meanwhile and waited for by those pages, so that `serve` answers its first page
        // as soon as it can (docs/serve.md).
        let coverage = kinds.contains(.report)
            ? Deferred { ChartsData.timelineCoverage(dataset: dataset, derived: derived).map(TimelineCoverage.init) }
            : Deferred(value: nil)
        search = byPath ? Deferred { SearchOrders(liveUsers, views: views) } : Deferred(value: SearchOrders())
        let made = Locked(Indexes())
        DispatchQueue.concurrentPerform(iterations: byPath ? 3 : 1) { part in
            switch part {
            case 0:
                let order = liveUsers.sorted { derived.userRank[$0] < derived.userRank[$1] }
                made.withLock { $0.usersByName = order }
            case 1:
                // By the file names ``SiteLinks`` makes, so a path finds the page that would be written there.
                let posts = FileNameIndex(
                    dataset.posts.indices.filter { derived.post(dataset.posts[$0].key) == $0 }, dataset: dataset) { dataset.posts[$0].key }
                made.withLock { $0.postFiles = posts }
            default:
                let users = FileNameIndex(liveUsers, dataset: dataset) { dataset.users[$0].key }
                made.withLock { $0.userFolders = users }
            }
        }
        let indexes = made.withLock { $0 }
        renderer = PageRenderer(
            views: views, templates: templates, audit: audit,
            info: ReportInfo(exportName: options.exportName, schemaName: dataset.schema.name), pages: pages,
            usersByName: indexes.usersByName, perPage: options.perPage, baseURL: options.baseURL,
            cards: try CardCache(views: views, templates: templates, used: needsCards),
            inputs: PageInputCache(views: views, templates: templates), coverage: coverage, trend: options.trend)
        self.kinds = kinds
        self.perPage = options.perPage
        self.baseURL = options.baseURL
        self.sitemapLimit = options.sitemapLimit
        self.liveUsers = liveUsers
        (postFiles, userFolders) = (indexes.postFiles, indexes.userFolders)
        contentFiles = byPath
            ? Dictionary(navPages.map { page in (SafeFileName.forKey(page.name), pages.firstIndex(of: page)!) }) { first, _ in first }
            : [:]
        try checkDistinctPaths(contentDirectory: options.contentDirectory)
    }

    private var dataset: Dataset { renderer.views.dataset }
    private var derived: DerivedData { renderer.views.derived }

    /// Every page of the kinds chosen, in the order `build` renders them; assets (`style.css`) always.
    var jobs: [SiteBuilder.Job] {
        var jobs: [SiteBuilder.Job] = []
        if kinds.contains(.index) {
            for page in 1...indexPageCount { jobs.append(.index(page: page)) }
        }
        jobs += searchAndReportJobs
        for u in liveUsers {
            for page in 1...timelinePageCount(u) {
                if kinds.contains(.timelines) { jobs.append(.timeline(u, page: page)) }
                if kinds.contains(.markdown) { jobs.append(.timelineMarkdown(u, page: page)) }
            }
            if kinds.contains(.profiles) {
                for page in 1...profilePageCount(u) { jobs.append(.profile(u, page: page)) }
            }
            if kinds.contains(.feeds) { jobs.append(.feed(u)) }
        }
        if kinds.contains(.posts) {
            for p in dataset.posts.indices where derived.post(dataset.posts[p].key) == p { jobs.append(.post(p)) }
        }
        return jobs + contentAndAssetJobs
    }

    /// The search's and the report's files, of the kinds chosen: at the site's root, as are
    /// ``contentAndAssetJobs`` and the index's first page (``checkDistinctPaths(contentDirectory:)``).
    var searchAndReportJobs: [SiteBuilder.Job] {
        (kinds.contains(.search) ? [.searchJSON, .searchScript] : [])
            + (kinds.contains(.report) ? [.report, .reportMarkdown, .reportJSON] : [])
    }

    /// The `Content/` pages, when chosen, and the assets (always).
    var contentAndAssetJobs: [SiteBuilder.Job] {
        var jobs: [SiteBuilder.Job] = []
        if kinds.contains(.pages) {
            for (i, page) in renderer.pages.enumerated() where page.name != "index" { jobs.append(.content(i)) }
        }
        return jobs + renderer.templates.assets.keys.sorted().map { .asset($0) }
    }

    private var indexPageCount: Int { Pagination(perPage: perPage, count: liveUsers.count).pageCount }
    private func timelinePageCount(_ u: Int) -> Int { Pagination(perPage: perPage, count: derived.timelines[u].count).pageCount }
    private func profilePageCount(_ u: Int) -> Int { Pagination(perPage: perPage, count: derived.ownPosts[u].count).pageCount }

    /// The page `build` writes at `path` (relative to the site's root, `users/<uid>/index.html`), if any. The
    /// path is taken apart only to find a candidate; it is the page's only when ``PageRenderer/path(of:)`` gives
    /// the page exactly that path back (`page-02.html`, `page-1.html` or a page past the last are none).
    func job(at path: String) -> SiteBuilder.Job? {
        guard let job = candidate(at: path), renderer.path(of: job) == path else { return nil }
        switch job {
        case .index(let page): return kinds.contains(.index) && page <= indexPageCount ? job : nil
        case .searchJSON, .searchScript: return kinds.contains(.search) ? job : nil
        case .report, .reportMarkdown, .reportJSON: return kinds.contains(.report) ? job : nil
        case .timeline(let u, let page):
            return kinds.contains(.timelines) && page <= timelinePageCount(u) ? job : nil
        case .timelineMarkdown(let u, let page):
            return kinds.contains(.markdown) && page <= timelinePageCount(u) ? job : nil
        case .profile(let u, let page): return kinds.contains(.profiles) && page <= profilePageCount(u) ? job : nil
        case .feed: return kinds.contains(.feeds) ? job : nil
        case .post: return kinds.contains(.posts) ? job : nil
        case .content: return kinds.contains(.pages) ? job : nil
        case .asset: return job
        }
    }

    private func candidate(at path: String) -> SiteBuilder.Job? {
        switch path {
        case "index.html": return .index(page: 1)
        case SiteLinks.searchJSON: return .searchJSON
        case SiteLinks.searchScriptData: return .searchScript
        case "report.html": return .report
        case "report.md": return .reportMarkdown
        case "report.json": return .reportJSON
        default: break
        }
        if renderer.templates.assets[path] != nil { return .asset(path) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // `page/N/index.html` (``SiteLinks/index(page:)``).
        if parts.count == 3, parts[0] == "page", parts[2] == "index.html", let page = Int(parts[1]), page >= 1 {
            return .index(page: page)
        }
        if parts.count == 1, path.hasSuffix(".html"), let i = contentFiles[String(path.dropLast(5))] { return .content(i) }
        if parts.count == 2, parts[0] == "posts", parts[1].hasSuffix(".html"), let postFiles {
            let candidates = postFiles.candidates(parts[1].dropLast(5), dataset: dataset) { derived.post($0) }
            return candidates.lazy.map { SiteBuilder.Job.post($0) }.first { renderer.path(of: $0) == path }
        }
        guard parts.count == 3, parts[0] == "users", let userFolders else { return nil }
        let folder = parts[1]
        guard let u = userFolders.candidates(folder, dataset: dataset, lookUp: { derived.user($0) })
            .first(where: { renderer.views.links.userFolder(dataset.users[$0].key) == "users/\(folder)" })
        else { return nil }
        let file = parts[2]
        if file == "feed.xml" { return .feed(u) }
        // `index.html`, `page-N.html`, `index.md`, `page-N.md`, `profile.html`, `profile-N.html` (``SiteLinks``).
        let (stem, ext) = file.lastIndex(of: ".").map { (file[..<$0], file[file.index(after: $0)...]) } ?? (file, "")
        let (name, number): (Substring, Int?) = stem.lastIndex(of: "-").map {
            (stem[..<$0], Int(stem[stem.index(after: $0)...]))
        } ?? (stem, 1)
        guard let page = number, page >= 1 else { return nil }
        switch (name, ext) {
        case ("index", "html"), ("page", "html"): return .timeline(u, page: page)
        case ("index", "md"), ("page", "md"): return .timelineMarkdown(u, page: page)
        case ("profile", "html"): return .profile(u, page: page)
        default: return nil
        }
    }

    /// Whether `build` writes a page at `path` (relative to the site's root), without rendering it.
    public func hasPage(at path: String) -> Bool { job(at: path) != nil }

    /// The text of the page `build` writes at `path` (relative to the site's root), or nil when it writes none
    /// there. Safe to call from several threads at once.
    public func render(path: String) throws(RenderError) -> String? {
        if path.hasPrefix("sitemap"), path.hasSuffix(".xml") { return sitemap().first { $0.path == path }?.text }
        guard let job = job(at: path) else { return nil }
        return try renderer.render(job).1
    }

    /// `sitemap.xml` (with more pages than a sitemap may list, an index and its parts): every HTML page, in byte
    /// order of their paths; none when not asked for or without a base URL, since the protocol wants absolute URLs.
    func sitemap() -> [(path: String, text: String)] {
        guard kinds.contains(.sitemap), let baseURL else { return [] }
        let htmlPages = jobs.map(renderer.path(of:)).filter { $0.hasSuffix(".html") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Sitemap.render(pages: htmlPages, baseURL: baseURL, limit: sitemapLimit)
    }

    /// The users whose username or uid, compared in lower case, starts with `prefix`, as the static site's search
    /// matches them: the first `limit` (usernames first, then uids, each in byte order) and how many match in all,
    /// for a search box's status line. Needs `byPath`.
    public func users(matching prefix: String, limit: Int) -> (found: [(username: String, uid: String, path: String)], total: Int) {
        guard !prefix.isEmpty else { return ([], 0) }
        var found: [Int] = []
        let folded = prefix.lowercased()
        let (byUsername, byUID) = (search.value.byUsername, search.value.byUID)
        // The users whose username matches: counted once when their uid matches too.
        var byName = Set<Int>()
        var i = Self.lowerBound(byUsername.count) { Self.precedes(byUsername[$0].name, folded) }
        while i < byUsername.count, byUsername[i].name.utf8.starts(with: folded.utf8) {
            if found.count < limit { found.append(byUsername[i].user) }
            byName.insert(byUsername[i].user)
            i += 1
        }
        var total = byName.count
        i = Self.lowerBound(byUID.count) { Self.precedes(byUID[$0].uid, folded) }
        while i < byUID.count, byUID[i].uid.utf8.starts(with: folded.utf8) {
            let user = byUID[i].user
            if !byName.contains(user) {
                if found.count < limit { found.append(user) }
                total += 1
            }
            i += 1
        }
        return (found.map { u in
            let key = dataset.users[u].key
            return (renderer.views.username(u), dataset.key(key), renderer.views.links.timeline(key))
        }, total)
    }

    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// The first index in `0..<count` where `before` is false (`before` is true for a prefix of the range).
    private static func lowerBound(_ count: Int, _ before: (Int) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let mid = (low + high) / 2
            if before(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The path of the timeline of the user whose uid is `uid` (`users/<uid>/index.html`), if they have one.
    public func timelinePath(uid: String) -> String? {
        guard kinds.contains(.timelines), let key = dataset.keyID(uid), let u = derived.user(key) else { return nil }
        return renderer.views.links.timeline(dataset.users[u].key)
    }

    /// The path of the page of the post whose key is `key` (`posts/<key>.html`), if it has one.
    public func postPath(key: String) -> String? {
        guard kinds.contains(.posts), let id = dataset.keyID(key), let p = derived.post(id) else { return nil }
        return renderer.views.links.post(dataset.posts[p].key)
    }
}

/// What ``SitePages`` makes on both cores before it can render.
private struct Indexes {
    var usersByName: [Int] = []
    var postFiles: FileNameIndex?
    var userFolders: FileNameIndex?
}

/// Live users by username folded to lower case, and by uid, each sorted by those bytes: the search's prefix ranges.
private struct SearchOrders: Sendable {
    var byUsername: [(name: String, user: Int)] = []
    var byUID: [(uid: String, user: Int)] = []

    init() {}

    init(_ users: [Int], views: SiteViews) {
        byUsername = users.map { (views.username($0).lowercased(), $0) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        byUID = users.map { (views.dataset.key(views.dataset.users[$0].key).lowercased(), $0) }
            .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    }
}
