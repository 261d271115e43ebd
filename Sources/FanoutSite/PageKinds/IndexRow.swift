import FanoutTemplates

/// One user as a page of the index lists them: their name, uid, links and counts, answered by name with a `switch`
/// rather than made into a `[String: Any]` and converted into a ``TemplateValue`` dictionary per row, which was most
/// of an index page's rendering (docs/performance.md "Rebuilds": a post or a like rewrites every
/// page of the index, as each shows the site's totals).
struct IndexRow: TemplateValues, InputHashable {
    static let names = [
        "username", "uid", "timelineHref", "profileHref", "postCount", "timelineCount", "followerCount",
        "followingCount",
    ]

    let username: String
    let uid: String
    let timelineHref: String
    let profileHref: String
    let postCount: String
    let timelineCount: String
    let followerCount: String
    let followingCount: String
    /// A hash of the values, the page's way back to the root and the renderer: everything the row renders from, with
    /// the text of the section's body, which the list's key adds (``fragmentKey``).
    let key: UInt64
    let root: String

    /// A row of a page whose way back to the root is `root`.
    init(
        username: String, uid: String, timelineHref: String, profileHref: String, postCount: String,
        timelineCount: String, followerCount: String, followingCount: String, root: String
    ) {
        (self.username, self.uid, self.timelineHref, self.profileHref) = (username, uid, timelineHref, profileHref)
        (self.postCount, self.timelineCount, self.followerCount, self.followingCount) =
            (postCount, timelineCount, followerCount, followingCount)
        self.root = root
        var hasher = StableHasher()
        hasher.combine(RendererIdentity.hash)
        hasher.combine("index row")
        hasher.combine(root)
        for text in [
            username, uid, timelineHref, profileHref, postCount, timelineCount, followerCount, followingCount,
        ] {
            hasher.combine(text)
        }
        key = hasher.finalize()
    }

    /// A page's rows as the index's `{{#users}}` body renders them depend on their values alone when the body looks up
    /// no name of the page's but `root`, which a row answers too (with its page's): kept by the build's
    /// ``FragmentCache`` and copied by the index pages of the next.
    var fragmentKey: UInt64? { key }

    /// Every row answers every name (none is ever absent).
    static var answersEveryName: Bool { true }

    func value(named name: String) -> TemplateValue? {
        switch name {
        case "username": .string(username)
        case "uid": .string(uid)
        case "timelineHref": .string(timelineHref)
        case "profileHref": .string(profileHref)
        case "postCount": .string(postCount)
        case "timelineCount": .string(timelineCount)
        case "followerCount": .string(followerCount)
        case "followingCount": .string(followingCount)
        // Not one of ``names``: the page's own `root`, answered by the row so that a body linking from the root
        // depends on the row alone (``fragmentKey``); the same value the page gives.
        case "root": .string(root)
        default: nil
        }
    }

    /// The row's part of its page's input key: its ``key``, which hashes every value.
    func hashInput(into hasher: inout StableHasher) { hasher.combine(key) }
}
