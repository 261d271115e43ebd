import FanoutCore

/// Where each page of the site lives, relative to the site's root, as the values of other pages link to it; the
/// paths are the declarations' (``PageDeclarations``), so that a link and the page it leads to cannot disagree.
///
/// Every link in the site is relative, so the folder works from `file://` and under any path on a host.
struct SiteLinks {
    let dataset: Dataset

    /// The file name a user's or a post's key becomes in paths (`{user}`, `{post}` in ``PagePath``).
    func name(_ key: KeyID) -> String { SafeFileName.forKey(dataset.key(key)) }
    func userFolder(_ user: KeyID) -> String { "users/\(name(user))" }
    /// Page `page` (from 1) of a timeline: `index.html`, then `page-2.html`, …
    func timeline(_ user: KeyID, page: Int = 1) -> String {
        PageDeclarations.timelines.path.path(name: name(user), page: page)
    }
    /// Page `page` (from 1) of a profile: `profile.html`, then `profile-2.html`, …
    func profile(_ user: KeyID, page: Int = 1) -> String {
        PageDeclarations.profiles.path.path(name: name(user), page: page)
    }
    func post(_ post: KeyID) -> String { PageDeclarations.posts.path.path(name: name(post)) }
    /// The fragment of a post's page that leads to its comments (the `id` of `post.mustache`'s section).
    static let commentsAnchor = "#comments"

    /// The prefix that leads from a page at `path` back to the root, e.g. `../../` for `users/x/index.html`.
    static func root(of path: String) -> String {
        // The path's non-empty parts, counted by byte rather than split into strings: every page asks.
        var parts = 0
        var inPart = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                inPart = false
            } else if !inPart {
                inPart = true
                parts += 1
            }
        }
        return String(repeating: "../", count: max(0, parts - 1))
    }
}
