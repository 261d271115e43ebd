import FanoutCore

/// The pages of the site a finding concerns (docs/site.md): for each user its paths name, that user's
/// profile and timeline; for each post, the post's page. The site's `report.html` and `report.md` link them
/// under the finding.
///
/// A finding names its subjects by database path. A path is matched against every relation's pattern of the
/// schema (`timeline/{user}/{post}`, `posts/{poster}/{post}`, …); `{user}`, `{poster}` and `{target}` captures are
/// users, `{post}` captures posts, and an `{id}` capture (a Parse row: `Like/{id}`) stands for the user and post or
/// the two users of the like, follow or flag with that key. Only users and posts that have pages are linked.
struct FindingPages {
    let views: SiteViews
    private let patterns: [PathPattern]
    /// The ends of every like, follow and flag stored as a row of its own, by the row's key.
    private let rows: [KeyID: (users: [KeyID], posts: [KeyID])]

    init(views: SiteViews) {
        self.views = views
        let dataset = views.dataset, schema = dataset.schema
        patterns = [
            schema.users?.pattern, schema.posts?.pattern, schema.postMirror?.pattern, schema.likes?.pattern,
            schema.likeMirror?.pattern, schema.following?.pattern, schema.followers?.pattern, schema.timeline?.pattern,
            schema.flags?.pattern,
        ].compactMap { $0 }
        var rows: [KeyID: (users: [KeyID], posts: [KeyID])] = [:]
        guard patterns.contains(where: { $0.captureNames.contains("id") }) else {
            self.rows = rows
            return
        }
        for like in dataset.likes + dataset.likeMirror where like.id != noKey {
            rows[like.id] = ([like.user], [like.post])
        }
        for follow in dataset.following + dataset.followers where follow.id != noKey {
            rows[follow.id] = ([follow.user, follow.target], [])
        }
        for flag in dataset.flags where flag.id != noKey { rows[flag.id] = ([flag.user], [flag.post]) }
        self.rows = rows
    }

    /// The links for `finding`, from the site's root: users' profiles and timelines first, then posts, each
    /// once, in the order its paths name them.
    func links(_ finding: Finding) -> [[String: Any]] {
        let dataset = views.dataset, derived = views.derived
        var users: [KeyID] = [], posts: [KeyID] = []
        func add(_ key: KeyID, to list: inout [KeyID]) { if !list.contains(key) { list.append(key) } }
        for path in finding.paths {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            for pattern in patterns {
                for capture in pattern.captures(in: segments) ?? [] {
                    guard let key = dataset.keyID(String(capture.key)) else { continue }
                    switch capture.name {
                    case "user", "poster", "target": add(key, to: &users)
                    case "post": add(key, to: &posts)
                    case "id":
                        for user in rows[key]?.users ?? [] { add(user, to: &users) }
                        for post in rows[key]?.posts ?? [] { add(post, to: &posts) }
                    default: break
                    }
                }
            }
        }
        var links: [[String: Any]] = []
        for key in users {
            guard let u = derived.user(key) else { continue }
            let name = views.username(u)
            links.append(["text": "\(name)’s profile", "href": views.links.profile(key)])
            links.append(["text": "\(name)’s timeline", "href": views.links.timeline(key)])
        }
        for key in posts where derived.post(key) != nil {
            links.append(["text": "post \(dataset.key(key))", "href": views.links.post(key)])
        }
        return links
    }
}
