import Foundation

/// Every post's card as HTML and as Markdown, and its key, for the pages under `users/`, each made the first time
/// a page shows it and then reused.
///
/// A post appears on the timeline of its owner and of every follower, so rendering its card per timeline
/// would repeat the same Markdown-to-HTML conversion and template work many times over; pages insert the cached
/// text verbatim (it is already escaped by its own template). Rendering on first use, rather than every card in
/// both formats up front, means a build renders only what its pages show: no Markdown cards when no Markdown
/// page is built, whatever the templates look up.
final class CardCache: @unchecked Sendable {  // `cards` is only touched under the lock of its stripe.
    /// The way back to the root from the pages that use cached cards.
    static let root = "../../"

    private let views: SiteViews
    private let templates: TemplateSet
    /// Three slots per post: the HTML card at `3 p`, the Markdown one at `3 p + 1`, the key at `3 p + 2`; nil until
    /// made.
    private let cards: UnsafeMutableBufferPointer<String?>
    /// Locks for the slots, slot `i` under `locks[i % locks.count]`: pages render in parallel.
    private let locks = (0..<64).map { _ in NSLock() }

    /// An empty cache for `views`' posts, or for none when `used` is false (a build without user pages).
    /// Fails when a card template is missing, so that rendering cannot.
    init(views: SiteViews, templates: TemplateSet, used: Bool = true) throws(RenderError) {
        for name in ["post-card", "post-card.md"] where !templates.contains(name) {
            throw RenderError.template(file: "\(name).mustache", message: "no such template")
        }
        self.views = views
        self.templates = templates
        cards = .allocate(capacity: used ? 3 * views.dataset.posts.count : 0)
        cards.initialize(repeating: nil)
    }

    deinit {
        cards.deinitialize()
        cards.deallocate()
    }

    /// Post `p`'s card, as HTML or as Markdown, with links relative to a page two folders deep
    /// (`users/<uid>/…`).
    func card(_ p: Int, markdown: Bool) -> String {
        cached(3 * p + (markdown ? 1 : 0)) {
            (try? templates.render(
                views.postCard(p, root: Self.root), template: markdown ? "post-card.md" : "post-card")) ?? ""
        }
    }

    /// Post `p`'s key, as its pages show it: every timeline showing the post needs it.
    func key(_ p: Int) -> String {
        cached(3 * p + 2) { views.dataset.key(views.dataset.posts[p].key) }
    }

    /// The text in `slot`, made by `make` the first time.
    private func cached(_ slot: Int, _ make: () -> String) -> String {
        let lock = locks[slot % locks.count]
        if let text = lock.withLock({ cards[slot] }) { return text }
        // Made outside the lock: two pages may make the same text at once, and both get the same text.
        let text = make()
        return lock.withLock {
            if let first = cards[slot] { return first }
            cards[slot] = text
            return text
        }
    }
}
