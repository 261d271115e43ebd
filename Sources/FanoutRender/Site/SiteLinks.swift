import FanoutCore

/// Where each page of the site lives, relative to the site's root.
///
/// Every link in the site is relative, so the folder works from `file://` and under any path on a host.
struct SiteLinks {
    let dataset: Dataset

    func userFolder(_ user: KeyID) -> String { "users/\(SafeFileName.forKey(dataset.key(user)))" }
    /// Page `page` (from 1) of a timeline: `index.html`, then `page-2.html`, …
    func timeline(_ user: KeyID, page: Int = 1) -> String {
        "\(userFolder(user))/\(Self.timelineFile(page: page, ext: "html"))"
    }
    /// The Markdown twin of a timeline page: `index.md`, `page-2.md`, …
    func timelineMarkdown(_ user: KeyID, page: Int = 1) -> String {
        "\(userFolder(user))/\(Self.timelineFile(page: page, ext: "md"))"
    }
    /// Page `page` (from 1) of a profile: `profile.html`, then `profile-2.html`, …
    func profile(_ user: KeyID, page: Int = 1) -> String {
        "\(userFolder(user))/\(Self.profileFile(page: page))"
    }
    /// The timeline's Atom feed.
    func feed(_ user: KeyID) -> String { "\(userFolder(user))/feed.xml" }
    func post(_ post: KeyID) -> String { "posts/\(SafeFileName.forKey(dataset.key(post))).html" }
    /// The fragment of a post's page that leads to its comments (the `id` of `post.mustache`'s section).
    static let commentsAnchor = "#comments"

    /// Page `page` (from 1) of the index of users: `index.html`, then `page/2/index.html`, … as Hugo and Zola
    /// lay out a list's pages. The folder `page/` meets nothing else: users live under `users/`, posts under
    /// `posts/`, and a `Content/` page is a file, `<name>.html`.
    static func index(page: Int) -> String { page == 1 ? "index.html" : "page/\(page)/index.html" }

    /// The search data of the index's search box: every user's name, uid and timeline (see ``SearchData``).
    static let searchJSON = "search.json"
    /// The same data as a script, for browsers that may not fetch `search.json` (a site opened from disk).
    static let searchScriptData = "search-data.js"

    /// A timeline page's file name inside its user's folder.
    static func timelineFile(page: Int, ext: String) -> String { page == 1 ? "index.\(ext)" : "page-\(page).\(ext)" }
    /// A profile page's file name inside its user's folder.
    static func profileFile(page: Int) -> String { page == 1 ? "profile.html" : "profile-\(page).html" }

    /// The prefix that leads from a page at `path` back to the root, e.g. `../../` for `users/x/index.html`.
    static func root(of path: String) -> String {
        String(repeating: "../", count: path.split(separator: "/").count - 1)
    }
}
