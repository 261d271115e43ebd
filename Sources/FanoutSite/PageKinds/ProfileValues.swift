import FanoutCore
import FanoutTemplates

/// The values of a user's profile pages (docs/site.md): their posts newest first, `--per-page` a page, whom
/// they follow and who follows them.
enum ProfileValues {
    static func length(_ r: PageRenderer, _ u: Int) -> Int { r.derived.ownPosts[u].count }

    static func values(_ r: PageRenderer, _ job: PageJob, path: String) throws(RenderError) -> [String: Any] {
        let (dataset, derived, views, u) = (r.dataset, r.derived, r.views, job.item)
        let user = dataset.users[u]
        let following = derived.followedKeys[u].filter { $0 != user.key }
            .map { views.person($0) }
            .sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }
        // A user's follow of themself is no follow to the audit (`follow-self`; the repair deletes it), so the lists
        // leave it out and the page says it is there.
        let followers = derived.followers[u].filter { $0 != Int32(u) }
        var values: [String: Any] = [
            "username": views.username(u), "uid": dataset.key(user.key),
            "viewerName": views.username(u),
            "posts": try r.postItems(derived.ownPosts[u], page: job.page, viewer: u),
            "postCount": CountText.grouped(derived.ownPosts[u].count),
            "followers": followers.map { views.person(dataset.users[Int($0)].key) },
            "followerCount": CountText.grouped(followers.count),
            "followsThemself": followers.count < derived.followers[u].count,
            "following": following, "followingCount": CountText.grouped(following.count),
        ]
        if let name = user.name { values["name"] = VisibleText.shown(name) }
        let files = job.declaration.path
        let count = derived.ownPosts[u].count
        values.merge(Pagination(perPage: r.perPage, count: count).values(page: job.page) { files.file(page: $0) }) {
            $1
        }
        return views.page(path, title: views.username(u) + r.pageSuffix(job.page, count: count), values)
    }

    /// Everything ``values(_:_:path:)`` reads: the user, their posts on the page, every follower and followed user.
    static func inputKey(_ r: PageRenderer, _ job: PageJob, path: String) -> UInt64 {
        let (dataset, derived, u) = (r.dataset, r.derived, job.item)
        var hasher = r.keyHasher(path, template: job.declaration.template)
        let user = dataset.users[u]
        r.feedUser(u, into: &hasher)
        hasher.combine(optional: user.name)
        r.feedPosts(derived.ownPosts[u], page: job.page, viewer: u, into: &hasher)
        hasher.combine(derived.followers[u].count)
        hasher.combine(derived.followers[u].contains(Int32(u)))
        for follower in derived.followers[u] { hasher.combine(r.inputs.person(dataset.users[Int(follower)].key)) }
        let following = derived.followedKeys[u].filter { $0 != user.key }
        hasher.combine(following.count)
        for key in following { hasher.combine(r.inputs.person(key)) }
        return hasher.finalize()
    }

    static let variables: [TemplateVariable] =
        [
            .init("username", "the user's name"), .init("uid", "the user's uid"),
            .init("name", "the display name, where the export stores one"),
            .init("viewerName", "the user's name, for the hearts"),
            TemplateVariables.postItems, .init("postCount", "the user's posts in all"),
            .init("followers", "who follows the user", TemplateVariables.person), .init("followerCount", "how many"),
            .init("following", "whom the user follows", TemplateVariables.person), .init("followingCount", "how many"),
            .init("followsThemself", "whether the export has the user following themself, which neither list shows"),
        ] + TemplateVariables.postPagination
}
