import FanoutTemplates

/// What the pages listing posts share (a timeline, a profile, the posts a user liked): the posts of one page as
/// cards with the page user's heart, the title's page number, and the values and input key of a list of a user's
/// posts with a Markdown twin.
extension PageRenderer {
    /// Page `page` of `list`, `--per-page` posts, as user `viewer` sees them: each post's cached card, whether the
    /// viewer liked it, and the heart saying so.
    func postItems(
        _ list: some RandomAccessCollection<Int32>, page: Int, viewer: Int
    ) throws(RenderError) -> [PostItem] {
        let shared = try PagePosts(cards: cards, inputs: inputs, templates: templates, viewer: views.username(viewer))
        let items = Pagination(perPage: perPage, count: list.count).range(of: page).map { i in
            let p = Int(list[list.index(list.startIndex, offsetBy: i)])
            return PostItem(post: p, liked: derived.viewerLiked(user: viewer, post: p), page: shared)
        }
        cards.prefetch(items.lazy.map { Int($0.post) })
        return items
    }

    /// What a title adds on the pages after the first of a list of `count` items: " (page 2 of 3)".
    func pageSuffix(_ page: Int, count: Int) -> String {
        guard page > 1 else { return "" }
        let pages = Pagination(perPage: perPage, count: count).pageCount
        return " (page \(CountText.grouped(page)) of \(CountText.grouped(pages)))"
    }

    /// The values of `job`'s page, page `job.page` of `list`, a list of user `u`'s posts newest first whose pages
    /// have Markdown twins at `twin` (or are them): the user, the posts with `u`'s hearts, their number, the twin's
    /// file and the links to the list's other pages of `job`'s kind. Its input key:
    /// ``userPostListKey(_:list:kind:job:path:)``.
    func userPostListValues(
        _ u: Int, list: some RandomAccessCollection<Int32>, job: PageJob, twin: PagePath
    ) throws(RenderError) -> [String: Any] {
        let key = dataset.users[u].key
        var values: [String: Any] = [
            "username": views.username(u), "uid": dataset.key(key), "viewerName": views.username(u),
            "posts": try postItems(list, page: job.page, viewer: u), "postCount": CountText.grouped(list.count),
            "postsText": CountText.phrase(list.count, "post", "posts"), "markdownHref": twin.file(page: job.page),
        ]
        let files = job.declaration.path
        let pagination = Pagination(perPage: perPage, count: list.count)
        values.merge(pagination.values(page: job.page) { files.file(page: $0) }) { $1 }
        return values
    }

    /// The input key of a page ``userPostListValues(_:list:job:twin:)`` makes the values of (its path holds the
    /// page's number and the twin's file follows from it): the user, and the page's posts as `u` sees them, hashed
    /// once for the page and its twin (`kind`, ``PageInputCache/postListPage(_:user:page:_:)``); `list` is made
    /// only when they are hashed.
    func userPostListKey<List: RandomAccessCollection<Int32>>(
        _ u: Int, list: () -> List, kind: PageInputCache.PostList, job: PageJob, path: String
    ) -> UInt64 {
        var hasher = keyHasher(path, template: job.declaration.template)
        hasher.combine(
            inputs.postListPage(kind, user: u, page: job.page) {
                var shown = StableHasher()
                feedUser(u, into: &shown)
                feedPosts(list(), page: job.page, viewer: u, into: &shown)
                return shown.finalize()
            })
        return hasher.finalize()
    }
}
