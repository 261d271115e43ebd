import FanoutTemplates

/// The values of a user's timeline pages and of their Markdown twins (docs/site.md): the timeline's posts newest
/// first, `--per-page` a page. Every page carries the timeline's uid, so the pages of one timeline can be found and
/// read in order.
enum TimelineValues {
    static func length(_ r: PageRenderer, _ u: Int) -> Int { r.derived.timelines[u].count }

    static func values(_ r: PageRenderer, _ job: PageJob, path: String) throws(RenderError) -> [String: Any] {
        let u = job.item
        // Group slices keep the whole index's positions; pages count from the timeline's start.
        let timeline = r.derived.timelines[u]
        var values = try r.userPostListValues(u, list: timeline, job: job, twin: PageDeclarations.timelineMarkdown.path)
        values["timelineUID"] = r.dataset.key(r.dataset.users[u].key)
        values["feedHref"] = PageDeclarations.feeds.path.file(page: 1)
        values["jsonFeedHref"] = PageDeclarations.jsonFeeds.path.file(page: 1)
        let title = "\(r.views.username(u))’s timeline" + r.pageSuffix(job.page, count: timeline.count)
        return r.views.page(path, title: title, values)
    }

    static func inputKey(_ r: PageRenderer, _ job: PageJob, path: String) -> UInt64 {
        r.userPostListKey(job.item, list: { r.derived.timelines[job.item] }, kind: .timeline, job: job, path: path)
    }

    static let variables: [TemplateVariable] =
        [
            .init("timelineUID", "the uid whose timeline this is (the layout marks the page with it)"),
            .init("username", "the user's name"), .init("uid", "the user's uid"),
            .init("viewerName", "the user's name, for the hearts"),
            TemplateVariables.postItems, .init("postCount", "the posts on the whole timeline"),
            .init("postsText", "`1 post`, `12 posts`"),
            .init("markdownHref", "this page's Markdown twin"), .init("feedHref", "the timeline's Atom feed"),
            .init("jsonFeedHref", "the timeline's JSON Feed"),
        ] + TemplateVariables.postPagination
}
