import Synchronization

/// Every post's card as HTML and as Markdown, and its key, for the pages under `users/`, each made the first time
/// a page shows it and then reused.
///
/// A post appears on the timeline of its owner and of every follower, so rendering its card per timeline
/// would repeat the same Markdown-to-HTML conversion and template work many times over; pages insert the cached
/// text verbatim (it is already escaped by its own template). Rendering on first use, rather than every card in
/// both formats up front, means a build renders only what its pages show: no Markdown cards when no Markdown
/// page is built, whatever the templates look up.
final class CardCache: @unchecked Sendable {  // a slot is written once, under its stripe's lock, then only read.
    /// The way back to the root from the pages that use cached cards.
    static let root = "../../"

    private let views: SiteViews
    private let templates: TemplateSet
    /// Three slots per post: the HTML card at `3 p`, the Markdown one at `3 p + 1`, the key at `3 p + 2`; nil until
    /// made, and never changed once made.
    private let cards: UnsafeMutableBufferPointer<String?>
    /// Whether each slot is made: set (releasing) after the slot is written, read (acquiring) before it is, so that a
    /// look-up of a made slot takes no lock. A lock is a write to memory both render threads share, and `serve`
    /// looks up two slots for every post of every page it renders.
    private let made: UnsafeMutablePointer<Atomic<Bool>>
    /// Locks for making the slots, a post's three under `locks[p % lockCount]`: pages render in parallel. Mutexes in
    /// one block rather than lock objects in an array, which every use would retain and release.
    private let locks: UnsafeMutablePointer<Mutex<Void>>
    private static let lockCount = 64

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
        made = .allocate(capacity: cards.count)
        for i in 0..<cards.count { (made + i).initialize(to: Atomic(false)) }
        locks = .allocate(capacity: Self.lockCount)
        for i in 0..<Self.lockCount { (locks + i).initialize(to: Mutex(())) }
    }

    deinit {
        made.deinitialize(count: cards.count)
        made.deallocate()
        cards.deinitialize()
        cards.deallocate()
        locks.deinitialize(count: Self.lockCount)
        locks.deallocate()
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
        if made[slot].load(ordering: .acquiring) { return cards[slot]! }
        // Made outside the lock: two pages may make the same text at once, and both get the same text.
        let text = make()
        return locks[(slot / 3) % Self.lockCount].withLock { _ in
            if made[slot].load(ordering: .relaxed) { return cards[slot]! }
            cards[slot] = text
            made[slot].store(true, ordering: .releasing)
            return text
        }
    }
}
