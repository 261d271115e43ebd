import FanoutCore

/// Where each page of the site lives, relative to the site's root.
///
/// Every link in the site is relative, so the folder works from `file://` and under any path on a host.
struct SiteLinks {
    let dataset: Dataset

    func userFolder(_ user: KeyID) -> String { "users/\(SafeFileName.forKey(dataset.key(user)))" }
    func timeline(_ user: KeyID) -> String { "\(userFolder(user))/index.html" }
    func timelineMarkdown(_ user: KeyID) -> String { "\(userFolder(user))/index.md" }
    func profile(_ user: KeyID) -> String { "\(userFolder(user))/profile.html" }
    func post(_ post: KeyID) -> String { "posts/\(SafeFileName.forKey(dataset.key(post))).html" }

    /// The prefix that leads from a page at `path` back to the root, e.g. `../../` for `users/x/index.html`.
    static func root(of path: String) -> String {
        String(repeating: "../", count: path.split(separator: "/").count - 1)
    }
}
