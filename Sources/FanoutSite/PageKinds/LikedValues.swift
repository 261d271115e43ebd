import FanoutTemplates

/// The values of the pages of the posts a user liked and of their Markdown twins (docs/site.md): the liked posts
/// that exist, newest first as timelines order them (a like carries no time of its own), `--per-page` a page,
/// each as its card with the user's heart.
enum LikedValues {
    static func length(_ r: PageRenderer, _ u: Int) -> Int { r.derived.likedPosts[u].count }

    /// The user's liked posts, newest first.
    static func posts(_ r: PageRenderer, _ u: Int) -> [Int32] { r.likedOrder.posts(u) }

    static func values(_ r: PageRenderer, _ job: PageJob, path: String) throws(RenderError) -> [String: Any] {
        let liked = posts(r, job.item)
        let twin = PageDeclarations.likedMarkdown.path
        let values = try r.userPostListValues(job.item, list: liked, job: job, twin: twin)
        let title = "Posts \(r.views.username(job.item)) liked" + r.pageSuffix(job.page, count: liked.count)
        return r.views.page(path, title: title, values)
    }

    /// Everything ``values(_:_:path:)`` reads: the user, and the page's posts as the user sees them.
    static func inputKey(_ r: PageRenderer, _ job: PageJob, path: String) -> UInt64 {
        r.userPostListKey(job.item, list: { posts(r, job.item) }, kind: .liked, job: job, path: path)
    }

    static let variables: [TemplateVariable] =
        [
            .init("username", "the user's name"), .init("uid", "the user's uid"),
            .init("viewerName", "the user's name, for the hearts"),
            TemplateVariables.postItems, .init("postCount", "the posts the user liked, in all"),
            .init("postsText", "`1 post`, `12 posts`"), .init("markdownHref", "this page's Markdown twin"),
        ] + TemplateVariables.postPagination
}
