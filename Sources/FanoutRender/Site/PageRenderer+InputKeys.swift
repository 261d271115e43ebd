import FanoutCore

extension PageRenderer {
    /// The input key of `job`'s page made from the data its values are made from, without making them, for the
    /// kinds of page a site has thousands of (timelines, profiles, feeds, posts); nil for the other kinds, whose
    /// key hashes their values (``PageSource/inputKey(templates:)``). docs/site.md "Rebuilds, progress and timings".
    ///
    /// Each key feeds everything the function making that page's values reads: keep the two side by side when
    /// either changes. What many pages share is hashed once (``PageInputCache``): a post's card values, a user as
    /// lists show them. The property test (`IncrementalBuildPropertyTests`) edits exports and templates at
    /// random and compares incremental builds with full ones byte for byte.
    /// `path` is the page's path (``path(of:)``), which the caller has made already.
    func inputKey(_ job: SiteBuilder.Job, path: String) -> UInt64? {
        var hasher = StableHasher()
        switch job {
        case .timeline(let u, let page), .timelineMarkdown(let u, let page):
            let markdown = if case .timelineMarkdown = job { true } else { false }
            start(&hasher, path, template: markdown ? "timeline.md" : "timeline")
            feedUser(u, into: &hasher)
            feedPosts(derived.timelines[u], page: page, viewer: u, into: &hasher)
        case .profile(let u, let page):
            start(&hasher, path, template: "profile")
            let user = dataset.users[u]
            feedUser(u, into: &hasher)
            hasher.combine(optional: user.name)
            feedPosts(derived.ownPosts[u], page: page, viewer: u, into: &hasher)
            hasher.combine(derived.followers[u].count)
            for follower in derived.followers[u] { hasher.combine(inputs.person(dataset.users[Int(follower)].key)) }
            let following = derived.followedKeys[u].filter { $0 != user.key }
            hasher.combine(following.count)
            for key in following { hasher.combine(inputs.person(key)) }
        case .feed(let u):
            start(&hasher, path, template: nil)
            feedUser(u, into: &hasher)
            hasher.combine(optional: baseURL)
            let entries = derived.timelines[u].prefix(AtomFeed.entryLimit)
            hasher.combine(entries.count)
            for p in entries { hasher.combine(inputs.card(Int(p))) }
        case .post(let p):
            start(&hasher, path, template: "post")
            hasher.combine(inputs.card(p))
            hasher.combine(derived.likers[p].count)
            for liker in derived.likers[p] { hasher.combine(inputs.person(dataset.users[Int(liker)].key)) }
            PostComments(views: views, post: p).hashInput(into: &hasher, inputs: inputs)
        default:
            return nil
        }
        return hasher.finalize()
    }

    /// What every page feeds first: the renderer, the page's path, its template and what every page shows.
    private func start(_ hasher: inout StableHasher, _ path: String, template: String?) {
        hasher.combine(RendererIdentity.hash)
        hasher.combine(path)
        hasher.combine(inputs.common)
        hasher.combine(perPage)
        if let template {
            hasher.combine(template)
            hasher.combine(templates.inputHash(of: template))
        }
    }

    /// The page's user: uid and name.
    private func feedUser(_ u: Int, into hasher: inout StableHasher) {
        hasher.combine(dataset.key(dataset.users[u].key))
        hasher.combine(views.username(u))
    }

    /// Page `page` of `posts` as `viewer` sees it: the list's length, and each post's card and heart.
    private func feedPosts(_ posts: ArraySlice<Int32>, page: Int, viewer: Int, into hasher: inout StableHasher) {
        hasher.combine(posts.count)
        hasher.combine(page)
        hasher.combine(inputs.cardTemplates)
        let range = Pagination(perPage: perPage, count: posts.count).range(of: page)
        for i in range {
            let p = Int(posts[posts.startIndex + i])
            hasher.combine(inputs.card(p))
            hasher.combine(derived.viewerLiked(user: viewer, post: p))
        }
    }
}
