/// Every kind of page the site has, each declared once (docs/site.md "Adding a kind of page"): where its pages
/// live, its template and values, how many pages an item has, how its input key is made, whether the sitemap lists
/// it and the search leads to it. Everything else follows from here: `build` renders the kinds chosen, in this
/// order within each subject; `serve` finds a page by matching its path against these patterns; `--pages` offers
/// their kinds, in this order.
///
/// A kind is a declaration here, its values in `PageKinds/<Name>Values.swift` and its template in `Templates/`.
enum PageDeclarations {
    static let all: [PageDeclaration] = [
        index, searchJSON, searchScript, timelines, timelineMarkdown, profiles, liked, likedMarkdown, posts, report,
        reportMarkdown, reportJSON, content, feeds, jsonFeeds, assets,
    ]

    static let index = PageDeclaration(
        "index", kind: .index, subject: .site, path: PagePath("index.html", then: "page/{n}/index.html"),
        body: .template(
            "index", values: { r, job, path in IndexValues.values(r, job, path: path) },
            variables: IndexValues.variables),
        listLength: { r, _ in r.usersByName.count }, inSitemap: true, label: "the index")

    static let searchJSON = PageDeclaration(
        "search.json", kind: .search, subject: .site, path: PagePath("search.json"),
        body: .made { r, _, _ in .text(SearchData.json(r.views.searchEntries(r.usersByName))) },
        inputKey: SearchData.inputKey, label: "the search data")

    static let searchScript = PageDeclaration(
        "search-data.js", kind: .search, subject: .site, path: PagePath("search-data.js"),
        body: .made { r, _, _ in .text(SearchData.script(r.views.searchEntries(r.usersByName))) },
        inputKey: SearchData.inputKey, label: "the search script's data")

    static let timelines = PageDeclaration(
        "timeline", kind: .timelines, subject: .user,
        path: PagePath("users/{user}/index.html", then: "users/{user}/page-{n}.html"),
        body: .template("timeline", values: TimelineValues.values, variables: TimelineValues.variables),
        listLength: TimelineValues.length, inputKey: TimelineValues.inputKey, showsCards: true, inSitemap: true,
        inSearch: true)

    static let timelineMarkdown = timelines.markdownTwin()

    static let profiles = PageDeclaration(
        "profile", kind: .profiles, subject: .user,
        path: PagePath("users/{user}/profile.html", then: "users/{user}/profile-{n}.html"),
        body: .template("profile", values: ProfileValues.values, variables: ProfileValues.variables),
        listLength: ProfileValues.length, inputKey: ProfileValues.inputKey, showsCards: true, inSitemap: true)

    static let liked = PageDeclaration(
        "liked", kind: .liked, subject: .user,
        path: PagePath("users/{user}/liked.html", then: "users/{user}/liked-{n}.html"),
        body: .template("liked", values: LikedValues.values, variables: LikedValues.variables),
        listLength: LikedValues.length, inputKey: LikedValues.inputKey, showsCards: true, inSitemap: true)

    static let likedMarkdown = liked.markdownTwin()

    static let posts = PageDeclaration(
        "post", kind: .posts, subject: .post, path: PagePath("posts/{post}.html"),
        body: .template(
            "post", values: { r, job, path in PostValues.values(r, job, path: path) },
            variables: PostValues.variables),
        inputKey: PostValues.inputKey, inSitemap: true)

    static let report = PageDeclaration(
        "report", kind: .report, subject: .site, path: PagePath("report.html"),
        body: .template(
            "report", values: { r, job, path in ReportValues.htmlValues(r, job, path: path) },
            variables: ReportValues.htmlVariables),
        inSitemap: true, label: "the validation report")

    static let reportMarkdown = PageDeclaration(
        "report.md", kind: .report, subject: .site, path: PagePath("report.md"),
        body: .template(
            "report.md", values: { r, job, path in ReportValues.values(r, job, path: path) },
            variables: TemplateVariables.report),
        label: "the Markdown report")

    static let reportJSON = PageDeclaration(
        "report.json", kind: .report, subject: .site, path: PagePath("report.json"),
        body: .made { r, job, path in ReportValues.json(r, job, path: path) }, label: "the JSON report")

    static let content = PageDeclaration(
        "page", kind: .pages, subject: .content, path: PagePath("{content}.html"),
        body: .template(
            "page", values: { r, job, path in ContentValues.values(r, job, path: path) },
            variables: ContentValues.variables),
        inSitemap: true)

    static let feeds = PageDeclaration(
        "feed.xml", kind: .feeds, subject: .user, path: PagePath("users/{user}/feed.xml"),
        body: .made { r, job, path in FeedValues.feed(r, job, path: path) }, inputKey: FeedValues.inputKey)

    /// The JSON Feed beside each Atom feed, of the same kind (`--pages feeds` builds both) and from the same inputs.
    static let jsonFeeds = PageDeclaration(
        "feed.json", kind: .feeds, subject: .user, path: PagePath("users/{user}/feed.json"),
        body: .made { r, job, path in JSONFeedValues.feed(r, job, path: path) }, inputKey: FeedValues.inputKey)

    /// The files of the templates that are not templates, copied as they are whatever pages are chosen; an HTML
    /// file among them is a page of the site like any other.
    static let assets = PageDeclaration(
        "assets", kind: nil, subject: .asset, path: PagePath("{asset}"),
        body: .made { r, job, _ in .text(r.templates.assets[r.assetNames[job.item]] ?? "") }, inSitemap: true)

    /// The kind of per-user pages a user the search finds is led to (``PageDeclaration/inSearch``).
    static let searchTarget = all.first { $0.inSearch }!

    /// Each declaration's position in ``all``, by name.
    static let positions = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.name, $0) })
}

extension PageKind {
    /// `index.html`, `page/2/index.html`, …: the users, `--per-page` a page.
    public static let index = PageKind("index")
    /// `search.json` and `search-data.js`: every user's name, uid and timeline, for the index's search box.
    public static let search = PageKind("search")
    /// `users/<uid>/index.html`, `page-2.html`, … (the timeline's pages).
    public static let timelines = PageKind("timelines")
    /// `users/<uid>/index.md`, `page-2.md`, …: the Markdown twins of the pages that have them.
    public static let markdown = PageKind("markdown")
    /// `users/<uid>/profile.html`, `profile-2.html`, ….
    public static let profiles = PageKind("profiles")
    /// `users/<uid>/liked.html`, `liked-2.html`, …: the posts the user liked.
    public static let liked = PageKind("liked")
    /// `posts/<key>.html`.
    public static let posts = PageKind("posts")
    /// `report.html`, `report.md`, `report.json`.
    public static let report = PageKind("report")
    /// The pages of `Content/`.
    public static let pages = PageKind("pages")
    /// `users/<uid>/feed.xml` and `feed.json`: an Atom feed and a JSON Feed per timeline.
    public static let feeds = PageKind("feeds")
}
