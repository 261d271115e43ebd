import FanoutCore

/// Renders one page of the site to its path and text.
struct PageRenderer: @unchecked Sendable {
    let views: SiteViews
    let templates: TemplateSet
    let audit: AuditResult
    let info: ReportInfo
    let pages: [ContentPage]
    /// The users that have pages, by username: the index's order and the search data's.
    let usersByName: [Int]
    /// Posts per timeline and profile page.
    let perPage: Int
    /// The site's published URL, ending in `/`, for feeds; nil for relative feed links.
    let baseURL: String?
    let cards: CardCache
    /// Hashes for input keys (``inputKey(_:path:)``), made as they are first needed.
    let inputs: PageInputCache
    /// Timeline coverage for the report's chart and `report.json`, made once per build while other pages render.
    let coverage: Deferred<TimelineCoverage?>
    /// The history's trend on the report page (``SiteOptions/trend``).
    let trend: String?

    var dataset: Dataset { views.dataset }
    var derived: DerivedData { views.derived }
    private var links: SiteLinks { views.links }

    /// Where `job`'s page lives, relative to the site's root: the one place that says so for `build`, which writes
    /// it there, and `serve`, which answers that path with it (``SitePages/job(at:)``).
    func path(of job: SiteBuilder.Job) -> String {
        switch job {
        case .index(let page): return SiteLinks.index(page: page)
        case .searchJSON: return SiteLinks.searchJSON
        case .searchScript: return SiteLinks.searchScriptData
        case .report: return "report.html"
        case .reportMarkdown: return "report.md"
        case .reportJSON: return "report.json"
        case .timeline(let u, let page): return links.timeline(dataset.users[u].key, page: page)
        case .timelineMarkdown(let u, let page): return links.timelineMarkdown(dataset.users[u].key, page: page)
        case .profile(let u, let page): return links.profile(dataset.users[u].key, page: page)
        case .feed(let u): return links.feed(dataset.users[u].key)
        case .post(let p): return links.post(dataset.posts[p].key)
        case .content(let i): return "\(SafeFileName.forKey(pages[i].name)).html"
        case .asset(let name): return name
        }
    }

    /// `job`'s page: its path (``path(of:)``) and its text.
    func render(_ job: SiteBuilder.Job) throws(RenderError) -> (String, String) {
        let source = try source(job)
        return (source.path, try source.render(templates: templates))
    }

    /// What `job`'s page is made from: its template and values, or its text; nothing is rendered yet but what
    /// the values are made of (a `Content/` page's HTML, the report's findings).
    /// `path`: the page's path, when the caller has made it already.
    func source(_ job: SiteBuilder.Job, path: String? = nil) throws(RenderError) -> PageSource {
        let path = path ?? self.path(of: job)
        func page(_ template: String, _ values: [String: Any]) -> PageSource { PageSource(path: path, body: .template(template, values)) }
        switch job {
        case .index(let page): return PageSource(path: path, body: .template("index", try index(page: page, path: path)))
        case .searchJSON: return PageSource(path: path, body: .text(SearchData.json(views.searchEntries(usersByName))))
        case .searchScript: return PageSource(path: path, body: .text(SearchData.script(views.searchEntries(usersByName))))
        case .report:
            var context = ReportView.context(audit, info: info, coverage: coverage.value, pageLinks: FindingPages(views: views).links)
            if let trend { context["trend"] = trend }
            return page("report", views.page(path, title: "Validation report", context))
        case .reportMarkdown:
            let context = ReportView.context(audit, info: info, coverage: coverage.value, pageLinks: FindingPages(views: views).links)
            return page("report.md", views.page(path, title: "Validation report", context))
        case .reportJSON:
            return PageSource(path: path, body: .text(JSONReport.render(audit, info: info, coverage: coverage.value)))
        case .timeline(let u, let n): return page("timeline", try timeline(u, page: n, markdown: false, path: path))
        case .timelineMarkdown(let u, let n): return page("timeline.md", try timeline(u, page: n, markdown: true, path: path))
        case .profile(let u, let n): return page("profile", try profile(u, page: n, path: path))
        case .feed(let u): return PageSource(path: path, body: .feed(feed(u)))
        case .post(let p): return page("post", post(p, path: path))
        case .content(let i):
            let content = pages[i]
            return page("page", views.page(path, title: content.title, ["contentHTML": CommonMark.html(content.markdown)]))
        case .asset(let name):
            return PageSource(path: path, body: .text(templates.assets[name] ?? ""))
        }
    }

    /// Page `page` of the index: `perPage` users by username, each with uid and counts; the first page also
    /// shows `Content/index.md`. Every page has the search box, which `search.js` brings to life.
    private func index(page: Int, path: String) throws(RenderError) -> [String: Any] {
        let pagination = Pagination(perPage: perPage, count: usersByName.count)
        let users: [[String: Any]] = usersByName[pagination.range(of: page)].map { u in
            let key = dataset.users[u].key
            return [
                "username": views.username(u), "uid": dataset.key(key),
                "timelineHref": links.timeline(key), "profileHref": links.profile(key),
                "postCount": CountText.grouped(derived.ownPosts[u].count),
                "timelineCount": CountText.grouped(derived.timelines[u].count),
                "followerCount": CountText.grouped(derived.followers[u].count),
                "followingCount": CountText.grouped(derived.followedKeys[u].count { $0 != key }),
            ]
        }
        let postCount = derived.postIndexByKey.count { $0 >= 0 }, likeCount = derived.likers.values.count
        let userCount = usersByName.count
        var values: [String: Any] = [
            "users": users, "userCount": CountText.grouped(userCount), "usersText": CountText.phrase(userCount, "user", "users"),
            "postCount": CountText.grouped(postCount), "postsText": CountText.phrase(postCount, "post", "posts"),
            "likeCount": CountText.grouped(likeCount), "likesText": CountText.phrase(likeCount, "like", "likes"),
            "findingCount": CountText.grouped(audit.findings.count),
            "findingsText": CountText.phrase(audit.findings.count, "finding", "findings"),
        ]
        let root = SiteLinks.root(of: path)
        var nav = pagination.values(page: page, labels: ("← Previous", "Next →")) { root + SiteLinks.index(page: $0) }
        if let first = nav.removeValue(forKey: "firstPost"), let last = nav.removeValue(forKey: "lastPost") {
            nav["firstUser"] = first
            nav["lastUser"] = last
        }
        values.merge(nav) { $1 }
        if page == 1, let intro = pages.first(where: { $0.name == "index" }) {
            values["intro"] = CommonMark.html(intro.markdown)
        }
        let suffix = page > 1 ? " (page \(CountText.grouped(page)) of \(CountText.grouped(pagination.pageCount)))" : ""
        return views.page(path, title: "Users" + suffix, values)
    }

    /// Page `page` of `u`'s timeline, or its Markdown twin. Every page carries the timeline's uid, so the
    /// pages of one timeline can be found and read in order.
    private func timeline(_ u: Int, page: Int, markdown: Bool, path: String) throws(RenderError) -> [String: Any] {
        let key = dataset.users[u].key
        let shared = try PagePosts(cards: cards, inputs: inputs, templates: templates, viewer: views.username(u))
        // Group slices keep the whole index's positions; pages count from the timeline's start.
        let timeline = Array(derived.timelines[u])
        let pagination = Pagination(perPage: perPage, count: timeline.count)
        let posts = timeline[pagination.range(of: page)].map { cardItem(Int($0), viewer: u, shared: shared) }
        var values: [String: Any] = [
            "timelineUID": dataset.key(key), "username": views.username(u), "uid": dataset.key(key),
            "viewerName": views.username(u), "posts": posts, "postCount": CountText.grouped(timeline.count),
            "postsText": CountText.phrase(timeline.count, "post", "posts"),
            "markdownHref": SiteLinks.timelineFile(page: page, ext: "md"), "feedHref": "feed.xml",
        ]
        let ext = markdown ? "md" : "html"
        values.merge(pagination.values(page: page) { SiteLinks.timelineFile(page: $0, ext: ext) }) { $1 }
        let suffix = page > 1 ? " (page \(CountText.grouped(page)) of \(CountText.grouped(pagination.pageCount)))" : ""
        return views.page(path, title: "\(views.username(u))’s timeline\(suffix)", values)
    }

    /// `u`'s timeline as an Atom feed.
    private func feed(_ u: Int) -> AtomFeed {
        let key = dataset.users[u].key
        let entries = derived.timelines[u].prefix(AtomFeed.entryLimit).map { Int($0) }.map { p in
            let post = dataset.posts[p]
            return AtomFeed.Entry(
                key: dataset.key(post.key), path: links.post(post.key), time: derived.postTimes[p],
                author: views.posterName(post),
                caption: post.caption)
        }
        return AtomFeed(
            uid: dataset.key(key), folder: links.userFolder(key), title: "\(views.username(u))’s timeline",
            author: views.username(u), entries: Array(entries), baseURL: baseURL)
    }

    private func profile(_ u: Int, page: Int, path: String) throws(RenderError) -> [String: Any] {
        let user = dataset.users[u]
        let pagination = Pagination(perPage: perPage, count: derived.ownPosts[u].count)
        let shared = try PagePosts(cards: cards, inputs: inputs, templates: templates, viewer: views.username(u))
        let following = derived.followedKeys[u].filter { $0 != user.key }
            .map { views.person($0) }
            .sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }
        var values: [String: Any] = [
            "username": views.username(u), "uid": dataset.key(user.key),
            "viewerName": views.username(u),
            "posts": Array(derived.ownPosts[u])[pagination.range(of: page)].map { cardItem(Int($0), viewer: u, shared: shared) },
            "postCount": CountText.grouped(derived.ownPosts[u].count),
            "followers": derived.followers[u].map { views.person(dataset.users[Int($0)].key) },
            "followerCount": CountText.grouped(derived.followers[u].count),
            "following": following, "followingCount": CountText.grouped(following.count),
        ]
        if let name = user.name { values["name"] = name }
        values.merge(pagination.values(page: page) { SiteLinks.profileFile(page: $0) }) { $1 }
        let suffix = page > 1 ? " (page \(CountText.grouped(page)) of \(CountText.grouped(pagination.pageCount)))" : ""
        return views.page(path, title: views.username(u) + suffix, values)
    }

    /// A post on a user's page: its cached card, whether the page's user liked it, and the heart saying so.
    private func cardItem(_ p: Int, viewer: Int, shared: PagePosts) -> PostItem {
        PostItem(post: p, liked: derived.viewerLiked(user: viewer, post: p), page: shared)
    }

    /// A post's page: headed by its poster and time (what a reader knows a post by), its key kept as a detail.
    private func post(_ p: Int, path: String) -> [String: Any] {
        let post = dataset.posts[p]
        let card = views.postCard(p, root: SiteLinks.root(of: path), onItsPage: true)
        let likers = derived.likers[p].count
        let heading = "\(card.posterName) · \(card.displayTime)"
        let values: [String: Any] = [
            "key": dataset.key(post.key), "post": card, "heading": heading, "likeCountText": card.likeCountText,
            "likersHeading": likers == 0 ? "Likes" : "Liked by " + CountText.phrase(likers, "user", "users"),
            "likers": derived.likers[p].map { views.person(dataset.users[Int($0)].key) },
        ].merging(PostComments(views: views, post: p).values) { $1 }
        return views.page(path, title: heading, values)
    }
}
