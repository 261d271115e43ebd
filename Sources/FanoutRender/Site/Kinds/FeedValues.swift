/// A user's timeline as an Atom feed (docs/site.md "Pages, feeds and the sitemap"): its newest posts, each linking
/// to the post's page.
enum FeedValues {
    static func feed(_ r: PageRenderer, _ job: PageJob, path: String) -> PageSource.Body {
        let (dataset, derived, views, u) = (r.dataset, r.derived, r.views, job.item)
        let key = dataset.users[u].key
        let entries = derived.timelines[u].prefix(AtomFeed.entryLimit).map { Int($0) }.map { p in
            let post = dataset.posts[p]
            return AtomFeed.Entry(
                key: dataset.key(post.key), path: r.links.post(post.key), time: derived.postTimes[p],
                author: views.posterName(post), caption: post.caption)
        }
        return .feed(
            AtomFeed(
                uid: dataset.key(key), folder: r.links.userFolder(key), title: "\(views.username(u))’s timeline",
                author: views.username(u), entries: Array(entries), baseURL: r.baseURL))
    }

    /// Everything ``feed(_:_:path:)`` reads: the user, the base URL, and the cards of the posts it lists (a feed
    /// shows less of a post than its card).
    static func inputKey(_ r: PageRenderer, _ job: PageJob, path: String) -> UInt64 {
        var hasher = r.keyHasher(path, template: nil)
        r.feedUser(job.item, into: &hasher)
        hasher.combine(optional: r.baseURL)
        let entries = r.derived.timelines[job.item].prefix(AtomFeed.entryLimit)
        hasher.combine(entries.count)
        for p in entries { hasher.combine(r.inputs.card(Int(p))) }
        return hasher.finalize()
    }
}
