import FanoutCore
import FanoutTemplates

/// Builds the values templates see. Keys are documented in docs/template-variables.md.
struct SiteViews: @unchecked Sendable {  // `common` holds immutable strings and arrays only.
    let dataset: Dataset
    let derived: DerivedData
    let links: SiteLinks
    /// Values every page gets: site title, export name, navigation.
    let common: [String: Any]
    /// Keys of posts users flagged as inappropriate (Parse's `FlaggedContent`); their cards are marked.
    let flagged: Set<KeyID>
    /// Each user's file name (``SiteLinks/name(_:)``), by their place in the dataset: made once a build rather than
    /// once for each of the user's pages (a rebuild makes every page's path; docs/performance.md "Rebuilds").
    /// A post has one page or two, so its name is made where it is needed.
    let userFileNames: [String]

    init(dataset: Dataset, derived: DerivedData, common: [String: Any]) {
        self.dataset = dataset
        self.derived = derived
        self.links = SiteLinks(dataset: dataset)
        self.common = common
        self.flagged = Set(dataset.flags.map(\.post))
        let links = self.links
        self.userFileNames = dataset.users.indices.map { links.name(dataset.users[$0].key) }
    }

    /// `common` plus the page's own values and its `root` prefix.
    func page(_ path: String, title: String, _ values: [String: Any]) -> [String: Any] {
        var context = common
        context.reserveCapacity(common.count + values.count + 2)
        context["root"] = SiteLinks.root(of: path)
        context["title"] = title
        for (key, value) in values { context[key] = value }
        return context
    }

    /// What pages call a user: the username, else the display name, else the uid; an empty name counts as none
    /// (FriendlyPix stores `displayName: ""` for people who never set one), so that no link or heading is empty.
    /// Invisible scalars are spelled out (``VisibleText``), so that look-alike names read apart on every page.
    func username(_ user: Int) -> String {
        if let name = dataset.users[user].shownName, !name.isEmpty { return VisibleText.shown(name) }
        return VisibleText.shown(dataset.key(dataset.users[user].key))
    }

    /// A person in a list: name and, when the user exists, the link to their profile.
    func person(_ key: KeyID) -> [String: Any] {
        if let u = derived.user(key) { return ["name": username(u), "href": links.profile(key)] }
        return ["name": VisibleText.shown(dataset.key(key))]
    }

    /// One post as the `post-card` templates show it, for a page whose way back to the root is `root`;
    /// `onItsPage` for the post's own page, where nothing links to the page itself.
    ///
    /// Cards do not depend on who views them (the heart is rendered by the page), so each post's card is
    /// rendered once and reused on every timeline and profile that shows it (see ``CardCache``).
    func postCard(_ p: Int, root: String, onItsPage: Bool = false) -> PostCard {
        let post = dataset.posts[p]
        let likers = derived.likers[p]
        let count = likers.count
        let time = derived.postTimes[p]
        let page = links.post(post.key)
        var card = PostCard(
            root: root,
            key: dataset.key(post.key),
            postHref: onItsPage ? nil : page,
            likesHref: onItsPage || count == 0 ? nil : page,
            posterName: posterName(post),
            likeCount: count,
            likeCountText: count == 0 ? "no likes" : CountText.phrase(count, "like", "likes"),
            isoTime: time.map(DateText.iso),
            displayTime: time.map(DateText.display) ?? "undated",
            imageURL: SafeURL.image(post.imageURL),
            imageHeight: Self.photoHeight(post.imageHeight))
        if count > 0 { card.likersSummary = Self.summary(likers.prefix(3).map { username(Int($0)) }, total: count) }
        if post.owner != noKey { card.profileHref = links.profile(post.owner) }
        card.flagged = flagged.contains(post.key)
        if let caption = post.caption, !caption.isEmpty { card.caption = Caption(caption) }
        if let stored = post.storedLikeCount, stored != Int64(count) { card.storedLikeCount = stored }
        if let comments = commentCount(p) {
            card.commentCount = comments
            if !onItsPage && comments > 0 { card.commentsHref = page + SiteLinks.commentsAnchor }
        }
        return card
    }

    /// The number of post `p`'s comments (``DerivedData/comments(post:)``); nil when the layout has no comments,
    /// whose pages and cards say nothing of them.
    func commentCount(_ p: Int) -> Int? {
        dataset.schema.comments == nil ? nil : derived.commentCount(post: p)
    }

    /// The width `image_height` is measured at: Makestagram stores a photo's height when shown 414 points wide
    /// (its `UIImage.aspectHeight`, for the widest iPhone of its day), and shows it in a box of that shape.
    static let photoWidth = 414

    /// The height a card reserves for its photo at ``photoWidth``: `image_height` rounded, when it is a height a
    /// photo can have (1 to 10 times the width); nil otherwise, and the photo takes the shape it loads with.
    static func photoHeight(_ stored: Double?) -> Int? {
        guard let stored, stored.isFinite else { return nil }
        let height = stored.rounded()
        return height >= 1 && height <= Double(10 * photoWidth) ? Int(height) : nil
    }

    /// The name a post shows for its poster: the owner's username, else the copy the post holds, else the owner's key.
    func posterName(_ post: Post) -> String { posterName(owner: post.owner, copied: post.posterCopyUsername) }

    /// ``posterName(_:)`` of a post whose owner is `owner` and whose copy of the poster's name is `copied`.
    func posterName(owner: KeyID, copied: String?) -> String {
        if let u = derived.user(owner) { return username(u) }
        return VisibleText.shown(copied ?? dataset.key(owner))
    }

    /// "alice", "alice and bob", "alice, bob and carol", "alice, bob and 3 others", as the seeds show likers.
    static func summary(_ names: [String], total: Int) -> String {
        switch total {
        case 0: return ""
        case 1: return names[0]
        case 2: return "\(names[0]) and \(names[1])"
        case 3: return "\(names[0]), \(names[1]) and \(names[2])"
        default: return "\(names[0]), \(names[1]) and \(CountText.grouped(total - 2)) others"
        }
    }
}

extension SiteViews {
    /// The search data's entries for `users`, in that order: name, uid and the page the search leads to
    /// (``PageDeclarations/searchTarget``) of each.
    func searchEntries(_ users: [Int]) -> [SearchData.Entry] {
        users.map { u in
            let key = dataset.users[u].key
            return SearchData.Entry(username: username(u), uid: dataset.key(key), url: searchTarget(key))
        }
    }

    /// The first page of `user`'s that the search leads to.
    func searchTarget(_ user: KeyID) -> String { PageDeclarations.searchTarget.path.path(name: links.name(user)) }
}
