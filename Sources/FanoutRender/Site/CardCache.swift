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
    /// What a build keeps its cards in from one build to the next: the previous build's, read from before
    /// rendering one, and its cards' keys; nil for `serve`, which keeps none.
    private let store: CardStore?
    private let inputs: PageInputCache
    /// The input hashes of `post-card` and `post-card.md`, with the renderer's: part of every card's key.
    private let templateKeys: (html: UInt64, markdown: UInt64)
    /// By card (`2 p` HTML, `2 p + 1` Markdown), once made when ``store`` is kept: its key, and the store's record
    /// when it was read from there rather than rendered.
    private let cardKeys: UnsafeMutableBufferPointer<UInt64>
    private let stored: UnsafeMutableBufferPointer<CardStore.Record?>
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
    /// `store`: the previous build's cards, for a build that keeps them (``CardStore``); nil for none.
    init(
        views: SiteViews, templates: TemplateSet, inputs: PageInputCache, store: CardStore? = nil, used: Bool = true
    ) throws(RenderError) {
        for name in ["post-card", "post-card.md"] where !templates.contains(name) {
            throw RenderError.template(file: "\(name).mustache", message: "no such template")
        }
        self.views = views
        self.templates = templates
        self.inputs = inputs
        self.store = used ? store : nil
        func templateKey(_ name: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(RendererIdentity.hash)
            hasher.combine(name)
            hasher.combine(templates.inputHash(of: name))
            hasher.combine(Self.root)
            return hasher.finalize()
        }
        templateKeys = (templateKey("post-card"), templateKey("post-card.md"))
        cards = .allocate(capacity: used ? 3 * views.dataset.posts.count : 0)
        cards.initialize(repeating: nil)
        let kept = store == nil || !used ? 0 : 2 * views.dataset.posts.count
        cardKeys = .allocate(capacity: kept)
        cardKeys.initialize(repeating: 0)
        stored = .allocate(capacity: kept)
        stored.initialize(repeating: nil)
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
        cardKeys.deallocate()
        stored.deinitialize()
        stored.deallocate()
        locks.deinitialize(count: Self.lockCount)
        locks.deallocate()
    }

    /// Post `p`'s card, as HTML or as Markdown, with links relative to a page two folders deep
    /// (`users/<uid>/…`).
    func card(_ p: Int, markdown: Bool) -> String {
        cached(3 * p + (markdown ? 1 : 0)) {
            guard let store else { return (render(p, markdown: markdown), nil) }
            let key = cardKey(p, markdown: markdown)
            if let (text, record) = store.card(key) { return (text, (key, record)) }
            return (render(p, markdown: markdown), (key, nil))
        }
    }

    private func render(_ p: Int, markdown: Bool) -> String {
        (try? templates.render(views.postCard(p, root: Self.root), template: markdown ? "post-card.md" : "post-card"))
            ?? ""
    }

    /// The key of post `p`'s card: a hash of everything its text is made from, the post's card values
    /// (``PageInputCache/card(_:)``), its template and the renderer.
    func cardKey(_ p: Int, markdown: Bool) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(markdown ? templateKeys.markdown : templateKeys.html)
        hasher.combine(inputs.card(p))
        return hasher.finalize()
    }

    /// Post `p`'s key, as its pages show it: every timeline showing the post needs it.
    func key(_ p: Int) -> String {
        cached(3 * p + 2) { (views.dataset.key(views.dataset.posts[p].key), nil) }
    }

    /// The text in `slot`, made by `make` the first time, with a card's key and its record in the previous store
    /// when the card is kept.
    private func cached(_ slot: Int, _ make: () -> (String, (UInt64, CardStore.Record?)?)) -> String {
        if made[slot].load(ordering: .acquiring) { return cards[slot]! }
        // Made outside the lock: two pages may make the same text at once, and both get the same text.
        let (text, kept) = make()
        return locks[(slot / 3) % Self.lockCount].withLock { _ in
            if made[slot].load(ordering: .relaxed) { return cards[slot]! }
            cards[slot] = text
            if let (key, record) = kept {
                let card = 2 * (slot / 3) + slot % 3
                cardKeys[card] = key
                stored[card] = record
            }
            made[slot].store(true, ordering: .releasing)
            return text
        }
    }
}

extension CardCache {
    /// What the next build's store holds (``CardStoreUpdate``): the cards this build rendered, and the previous
    /// store's records of cards still current (read by this build, or with the key a post's card has now).
    /// Call once every page is rendered; nil when no store is kept, or this build shows no cards (its pages are
    /// none that would: the store is left as it is).
    func storeContents() -> CardStoreContents? {
        // A build that made no card (a rebuild in which no page showing one changed) leaves the store as it is,
        // without the keys of every post's cards.
        guard let store,
            (0..<cardKeys.count).contains(where: { made[3 * ($0 / 2) + $0 % 2].load(ordering: .acquiring) })
        else { return nil }
        var rendered: [(key: UInt64, text: String)] = []
        var kept: [CardStore.Record] = []
        var read = 0
        for card in 0..<cardKeys.count {
            let (p, markdown) = (card / 2, card % 2 == 1)
            let slot = 3 * p + card % 2
            if made[slot].load(ordering: .acquiring) {
                if let record = stored[card] {
                    kept.append(record)
                    read += 1
                } else {
                    rendered.append((cardKeys[card], cards[slot]!))
                }
            } else if let record = store.record(cardKey(p, markdown: markdown)) {
                // Not shown by this build's pages, but current: a later rebuild may show it.
                kept.append(record)
            }
        }
        return CardStoreContents(rendered: rendered, kept: kept, read: read)
    }
}

/// What a build leaves in the card store (``CardCache/storeContents()``).
struct CardStoreContents {
    /// The cards this build rendered, by key.
    var rendered: [(key: UInt64, text: String)]
    /// The previous store's records still current.
    var kept: [CardStore.Record]
    /// How many cards the pages showed from the previous store instead of rendering them.
    var read: Int
}
