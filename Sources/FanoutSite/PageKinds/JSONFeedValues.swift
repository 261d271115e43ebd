/// A user's timeline as a JSON Feed 1.1 beside its Atom feed (docs/site.md "Pages, feeds and the sitemap"): the same
/// posts, made as ``FeedValues`` makes the Atom feed, each post's item kept once for every feed listing it.
enum JSONFeedValues {
    static func feed(_ r: PageRenderer, _ job: PageJob, path: String) -> PageSource.Body {
        let (dataset, derived, views, u) = (r.dataset, r.derived, r.views, job.item)
        let key = dataset.users[u].key
        let feed = AtomFeed(
            uid: dataset.key(key), folder: r.links.userFolder(key), title: "\(views.username(u))’s timeline",
            author: views.username(u), entries: [], baseURL: r.baseURL)
        let toRoot = AtomFeed.toRoot(feed.folder)
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        out.append(contentsOf: JSONFeed.head(feed).utf8)
        let kept = toRoot == CardCache.root
        for (i, p) in derived.timelines[u].prefix(AtomFeed.entryLimit).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if kept {
                r.cards.appendJSONFeedItem(Int(p), to: &out) { itemText(r, Int(p), toRoot: toRoot) }
            } else {
                out.append(contentsOf: itemText(r, Int(p), toRoot: toRoot).utf8)
            }
        }
        out.append(contentsOf: JSONFeed.tail.utf8)
        return .bytes(out)
    }

    /// Post `p`'s item in a feed whose way back to the root is `toRoot`.
    private static func itemText(_ r: PageRenderer, _ p: Int, toRoot: String) -> String {
        let post = r.dataset.posts[p]
        let entry = AtomFeed.Entry(
            key: r.dataset.key(post.key), path: r.links.post(post.key), time: r.derived.postTimes[p],
            author: r.views.posterName(post), caption: post.caption)
        return JSONFeed.itemText(entry, toRoot: toRoot, baseURL: r.baseURL)
    }
}
