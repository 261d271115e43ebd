import FanoutCore
import FanoutTemplates

/// What the input keys made from a page's data (``PageDeclaration/inputKey``) are made of. docs/site.md "Rebuilds,
/// progress and timings".
///
/// Each kind's key feeds everything the function making that kind's values reads: its values file keeps the two
/// side by side. What many pages share is hashed once (``PageInputCache``): a post's card values, a user as lists
/// show them. The property test (`IncrementalBuildPropertyTests`) edits exports and templates at random and compares
/// incremental builds with full ones byte for byte.
extension PageRenderer {
    /// A hasher fed what every page feeds first: the renderer, the page's path, its template and what every page
    /// shows.
    func keyHasher(_ path: String, template: String?) -> StableHasher {
        var hasher = StableHasher()
        hasher.combine(RendererIdentity.hash)
        hasher.combine(path)
        hasher.combine(inputs.common)
        hasher.combine(perPage)
        if let template {
            hasher.combine(template)
            hasher.combine(templates.inputHash(of: template))
        }
        return hasher
    }

    /// The page's user: uid and name.
    func feedUser(_ u: Int, into hasher: inout StableHasher) {
        hasher.combine(key: dataset.users[u].key, of: dataset)
        hasher.combine(views.username(u))
    }

    /// Page `page` of `posts` as `viewer` sees it: the list's length, and each post's card and heart.
    func feedPosts(
        _ posts: some RandomAccessCollection<Int32>, page: Int, viewer: Int, into hasher: inout StableHasher
    ) {
        hasher.combine(posts.count)
        hasher.combine(page)
        hasher.combine(inputs.cardTemplates)
        for i in Pagination(perPage: perPage, count: posts.count).range(of: page) {
            let p = Int(posts[posts.index(posts.startIndex, offsetBy: i)])
            hasher.combine(inputs.card(p))
            hasher.combine(derived.viewerLiked(user: viewer, post: p))
        }
    }
}
