import Dispatch
import FanoutCore
import FanoutLocked
import FanoutReports
import FanoutTemplates

/// Every page of the site and where it lives: what `build` writes, page by page, and what `serve` renders for the
/// one path a request names (docs/serve.md). Both follow the declarations of ``PageDeclarations`` and go through
/// ``PageRenderer/path(of:)``, so a page's path is said in one place and `serve` answers exactly the paths `build`
/// writes, with the same bytes. A class: `serve` hands one to every request, and a reference is one count where a
/// copy of the struct was a dozen, each a write to memory both cores share.
public final class SitePages: Sendable {
    let renderer: PageRenderer
    let kinds: Set<PageKind>
    let perPage: Int
    let baseURL: String?
    let sitemapLimit: Int
    /// The users with pages (a uid stored twice has pages once, for the user the uid resolves to).
    let liveUsers: [Int]
    /// Lookups from a path's parts to what it shows, for ``job(at:)``: the users' and posts' file names, made in a
    /// build too, where they check that no two keys got one name; the others empty unless made `byPath`.
    private let userFolders: FileNameIndex
    private let postFiles: FileNameIndex
    private let contentFiles: [String: Int]
    private let assetFiles: [String: Int]
    /// Live users by username folded to lower case, and by uid, each sorted by those bytes: the search's
    /// prefix ranges; empty unless made `byPath`.
    private let search: Deferred<SearchOrders>

    /// The pages of one export. `byPath`: also index them by path, for ``render(path:)`` (a server); a build,
    /// which renders every page in turn, does without. Fails when a `Content/` page or a card template is bad.
    public convenience init(
        dataset: Dataset, derived: DerivedData, audit: AuditResult, options: SiteOptions, templates: TemplateSet,
        byPath: Bool = false
    ) throws(RenderError) {
        try self.init(
            dataset: dataset, derived: derived, audit: audit, options: options, templates: templates, byPath: byPath,
            cardStore: nil)
    }

    /// `cardStore`: the cards a build keeps from one build to the next (``CardStore``), the previous build's; nil
    /// for none (`serve`).
    init(
        dataset: Dataset, derived: DerivedData, audit: AuditResult, options: SiteOptions, templates: TemplateSet,
        byPath: Bool = false, cardStore: CardStore?
    ) throws(RenderError) {
        let pages = try ContentPage.load(from: options.contentDirectory ?? "")
        let navPages = pages.filter { $0.name != "index" }
        let common: [String: Any] = [
            "siteTitle": options.title, "exportName": options.exportName, "schemaName": dataset.schema.name,
            "navPages": navPages.map { page -> [String: Any] in
                ["href": PageDeclarations.content.path.path(name: SafeFileName.forKey(page.name)), "title": page.title]
            },
        ]
        let views = SiteViews(dataset: dataset, derived: derived, common: common)
        let kinds = options.pageKinds
        let liveUsers = dataset.users.indices.filter { derived.user(dataset.users[$0].key) == $0 }
        let needsCards = PageDeclarations.all.contains { $0.showsCards && $0.kind.map(kinds.contains) ?? true }
        // What the first page needs, made on both cores; what only some pages need (the report's coverage, the
        // search's orders) is made meanwhile and waited for by those pages, so that `serve` answers its first page
        // as soon as it can (docs/serve.md).
        let coverage =
            kinds.contains(.report)
            ? Deferred { ChartsData.timelineCoverage(dataset: dataset, derived: derived).map(TimelineCoverage.init) }
            : Deferred(value: nil)
        search = byPath ? Deferred { SearchOrders(liveUsers, views: views) } : Deferred(value: SearchOrders())
        let made = Locked(Indexes())
        // The file name indexes in a build too: making them is the per-build check that no two users and no two
        // posts got one file name (``FileNameIndex``).
        DispatchQueue.concurrentPerform(iterations: 3) { part in
            switch part {
            case 0:
                let order = liveUsers.sorted { derived.userRank[$0] < derived.userRank[$1] }
                made.withLock { $0.usersByName = order }
            case 1:
                // By the file names ``SiteLinks`` makes, so a path finds the page that would be written there.
                let posts = Result { () throws(RenderError) -> FileNameIndex in
                    try FileNameIndex(
                        dataset.posts.indices.filter { derived.post(dataset.posts[$0].key) == $0 }, dataset: dataset,
                        kind: "posts"
                    ) { dataset.posts[$0].key }
                }
                made.withLock { $0.postFiles = posts }
            default:
                let users = Result { () throws(RenderError) -> FileNameIndex in
                    try FileNameIndex(liveUsers, dataset: dataset, kind: "users") { dataset.users[$0].key }
                }
                made.withLock { $0.userFolders = users }
            }
        }
        let indexes = made.withLock { $0 }
        let assetNames = templates.assets.keys.sorted()
        let inputs = PageInputCache(views: views, templates: templates, perPage: options.perPage)
        renderer = PageRenderer(
            views: views, templates: templates, audit: audit,
            info: ReportInfo(exportName: options.exportName, schemaName: dataset.schema.name), pages: pages,
            assetNames: assetNames, usersByName: indexes.usersByName, perPage: options.perPage,
            baseURL: options.baseURL,
            cards: try CardCache(
                views: views, templates: templates, inputs: inputs, store: cardStore, used: needsCards,
                baseURL: options.baseURL),
            inputs: inputs, likedOrder: LikedOrder(derived: derived, users: dataset.users.count), coverage: coverage,
            trend: options.trend)
        self.kinds = kinds
        self.perPage = options.perPage
        self.baseURL = options.baseURL
        self.sitemapLimit = options.sitemapLimit
        self.liveUsers = liveUsers
        userFolders = try indexes.userFolders!.get()
        postFiles = try indexes.postFiles!.get()
        contentFiles =
            byPath
            ? Dictionary(navPages.map { page in (SafeFileName.forKey(page.name), pages.firstIndex(of: page)!) }) {
                first, _ in first
            }
            : [:]
        assetFiles = byPath ? Dictionary(uniqueKeysWithValues: assetNames.enumerated().map { ($1, $0) }) : [:]
        try checkDistinctPaths(contentDirectory: options.contentDirectory)
    }

    private var dataset: Dataset { renderer.views.dataset }
    private var derived: DerivedData { renderer.views.derived }

    /// Whether the build writes `declaration`'s pages: its kind is chosen, or it has none (the assets).
    func isChosen(_ declaration: PageDeclaration) -> Bool { declaration.kind.map(kinds.contains) ?? true }

    /// Every page of the kinds chosen, in the order `build` renders them: subject by subject (the site's pages,
    /// then each user's, each post's, the `Content/` pages, the assets), and for each item its kinds in the
    /// declarations' order.
    var jobs: [PageJob] { jobs { isChosen($0) } }

    /// The pages of the kinds `include` accepts, in the order of ``jobs``.
    func jobs(_ include: (PageDeclaration) -> Bool) -> [PageJob] {
        var jobs: [PageJob] = []
        for subject in PageSubject.allCases {
            let all = PageDeclarations.all
            let kinds = all.indices.filter { all[$0].subject == subject && include(all[$0]) }
            guard !kinds.isEmpty else { continue }
            for item in items(of: subject) {
                for kind in kinds {
                    for page in 1...pageCount(all[kind], item) {
                        jobs.append(PageJob(kind: kind, item: item, page: page))
                    }
                }
            }
        }
        return jobs
    }

    /// The items of `subject` that have pages (``PageSubject``).
    private func items(of subject: PageSubject) -> [Int] {
        switch subject {
        case .site: [0]
        case .user: liveUsers
        case .post: dataset.posts.indices.filter { derived.post(dataset.posts[$0].key) == $0 }
        case .content: renderer.pages.indices.filter { renderer.pages[$0].name != "index" }
        case .asset: Array(renderer.assetNames.indices)
        }
    }

    /// How many pages `declaration` has for `item`: its list `--per-page` at a time, or one.
    private func pageCount(_ declaration: PageDeclaration, _ item: Int) -> Int {
        declaration.listLength.map { Pagination(perPage: perPage, count: $0(renderer, item)).pageCount } ?? 1
    }

    /// The page `build` writes at `path` (relative to the site's root, `users/<uid>/index.html`), if any. The
    /// path is matched against each kind's ``PagePath`` only to find a candidate; it is the page's only when
    /// ``PageRenderer/path(of:)`` gives the page exactly that path back (`page-02.html`, `page-1.html` or a page past
    /// the last are none).
    func job(at path: String) -> PageJob? {
        for (kind, declaration) in PageDeclarations.all.enumerated() where isChosen(declaration) {
            guard let (name, page) = declaration.path.match(path) else { continue }
            for item in candidates(declaration.subject, name) where page <= pageCount(declaration, item) {
                let job = PageJob(kind: kind, item: item, page: page)
                if renderer.path(of: job) == path { return job }
            }
        }
        return nil
    }

    /// The items of `subject` whose file name may be `name` (needs `byPath`).
    private func candidates(_ subject: PageSubject, _ name: String) -> [Int] {
        switch subject {
        case .site: [0]
        case .user: userFolders.candidates(name[...], dataset: dataset) { derived.user($0) }
        case .post: postFiles.candidates(name[...], dataset: dataset) { derived.post($0) }
        case .content: contentFiles[name].map { [$0] } ?? []
        case .asset: assetFiles[name].map { [$0] } ?? []
        }
    }

    /// Whether `build` writes a page at `path` (relative to the site's root), without rendering it.
    public func hasPage(at path: String) -> Bool { job(at: path) != nil }

    /// The text of the page `build` writes at `path` (relative to the site's root), or nil when it writes none
    /// there. Safe to call from several threads at once.
    public func render(path: String) throws(RenderError) -> String? {
        try renderBytes(path: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// ``render(path:)``'s UTF-8 bytes, as `build` writes them to the page's file: what `serve` answers with,
    /// without making a `String` of them, which would check every byte again (docs/serve.md "Benchmark").
    public func renderBytes(path: String) throws(RenderError) -> [UInt8]? {
        try requestedPage(at: path)?.prepare().renderBytes()
    }

    /// The page `build` writes at `path` (relative to the site's root), found and keyed but not rendered, or nil
    /// when it writes none there: what `serve` looks its page cache up by (docs/serve.md "The page cache").
    public func requestedPage(at path: String) -> RequestedPage? {
        if path.hasPrefix("sitemap"), path.hasSuffix(".xml") {
            return sitemap().first { $0.path == path }.map {
                RequestedPage(renderer: renderer, text: $0.text, path: path)
            }
        }
        return job(at: path).map { RequestedPage(renderer: renderer, job: $0, path: path) }
    }

    /// `sitemap.xml` (with more pages than a sitemap may list, an index and its parts): every HTML page, in byte
    /// order of their paths; none when not asked for or without a base URL, since the protocol wants absolute URLs.
    func sitemap() -> [(path: String, text: String)] {
        guard kinds.contains(.sitemap), let baseURL else { return [] }
        let htmlPages = jobs { isChosen($0) && $0.inSitemap }.map(renderer.path(of:)).filter { $0.hasSuffix(".html") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Sitemap.render(pages: htmlPages, baseURL: baseURL, limit: sitemapLimit)
    }

    /// The users whose username or uid, compared in lower case, starts with `prefix`, as the static site's search
    /// matches them: the first `limit` (usernames first, then uids, each in byte order) and how many match in all,
    /// for a search box's status line. Needs `byPath`.
    public func users(matching prefix: String, limit: Int) -> (
        found: [(username: String, uid: String, path: String)], total: Int
    ) {
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
        return (
            found.map { u in
                let key = dataset.users[u].key
                return (renderer.views.username(u), dataset.key(key), renderer.views.searchTarget(key))
            }, total
        )
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

    /// The path of the page the search leads to of the user whose uid is `uid` (their timeline,
    /// `users/<uid>/index.html`; ``PageDeclarations/searchTarget``), if they have one.
    public func timelinePath(uid: String) -> String? {
        guard isChosen(PageDeclarations.searchTarget), let key = dataset.keyID(uid), let u = derived.user(key) else {
            return nil
        }
        return renderer.views.searchTarget(dataset.users[u].key)
    }

    /// The path of the page of the post whose key is `key` (`posts/<key>.html`), if it has one.
    public func postPath(key: String) -> String? {
        guard isChosen(PageDeclarations.posts), let id = dataset.keyID(key), let p = derived.post(id) else {
            return nil
        }
        return renderer.views.links.post(dataset.posts[p].key)
    }
}

/// What ``SitePages`` makes on both cores before it can render.
private struct Indexes {
    var usersByName: [Int] = []
    var postFiles: Result<FileNameIndex, RenderError>?
    var userFolders: Result<FileNameIndex, RenderError>?
}

/// Live users by username folded to lower case, and by uid, each sorted by those bytes: the search's prefix ranges.
private struct SearchOrders: Sendable {
    var byUsername: [(name: String, user: Int)] = []
    var byUID: [(uid: String, user: Int)] = []

    init() {}

    init(_ users: [Int], views: SiteViews) {
        byUsername = users.map { (views.username($0).lowercased(), $0) }.sorted {
            $0.0.utf8.lexicographicallyPrecedes($1.0.utf8)
        }
        byUID = users.map { (views.dataset.key(views.dataset.users[$0].key).lowercased(), $0) }
            .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    }
}
