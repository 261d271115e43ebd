/// A user's timeline as an Atom feed (docs/site.md "Pages, feeds and the sitemap"): its newest posts, each linking
/// to the post's page.
enum FeedValues {
    static func feed(_ r: PageRenderer, _ job: PageJob, path: String) -> PageSource.Body {
        let (dataset, derived, views, u) = (r.dataset, r.derived, r.views, job.item)
        let key = dataset.users[u].key
        let posts = derived.timelines[u].prefix(AtomFeed.entryLimit)
        let feed = AtomFeed(
            uid: dataset.key(key), folder: r.links.userFolder(key), title: "\(views.username(u))’s timeline",
            author: views.username(u), entries: [], baseURL: r.baseURL)
        // Each post's entry is the same in every feed listing it: made once a build, or kept from the last one
        // (docs/site.md "Rebuilds, progress and timings"), as cards are, for feeds two folders deep.
        let toRoot = AtomFeed.toRoot(feed.folder)
        // Made as bytes, as a page is rendered: each kept entry goes in as the bytes the cache keeps.
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        out.append(contentsOf: feed.head(newest: posts.compactMap { derived.postTimes[Int($0)] }.max()).utf8)
        let kept = toRoot == CardCache.root
        for p in posts {
            // The entry is made in a closure that borrows the renderer, not one stored (which would copy it and
            // retain everything it holds, once a post): most entries are kept and never made.
            if kept {
                r.cards.appendFeedEntry(Int(p), to: &out) { entryText(r, Int(p), toRoot: toRoot) }
            } else {
                out.append(contentsOf: entryText(r, Int(p), toRoot: toRoot).utf8)
            }
        }
        out.append(contentsOf: AtomFeed.tail.utf8)
        return .bytes(out)
    }

    /// Post `p`'s entry in a feed whose way back to the root is `toRoot`.
    private static func entryText(_ r: PageRenderer, _ p: Int, toRoot: String) -> String {
        let post = r.dataset.posts[p]
        let entry = AtomFeed.Entry(
            key: r.dataset.key(post.key), path: r.links.post(post.key), time: r.derived.postTimes[p],
            author: r.views.posterName(post), caption: post.caption)
        return AtomFeed.entryText(entry, toRoot: toRoot, baseURL: r.baseURL)
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
