import FanoutTemplates
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
    /// The index's rows as its pages rendered them, kept in the same store (``FragmentCache``).
    let fragments: FragmentCache
    /// The input hashes of `post-card` and `post-card.md`, with the renderer's, and of an Atom feed entry and a JSON
    /// Feed item (the renderer, the base URL): part of every kept text's key.
    private let templateKeys: (html: UInt64, markdown: UInt64, feed: UInt64, jsonFeed: UInt64)
    /// By kept text (``keptPerPost`` a post: the HTML card at `4 p`, the Markdown one at `4 p + 1`, the Atom feed
    /// entry at `4 p + 2`, the JSON Feed item at `4 p + 3`), once made when ``store`` is kept: its key, and the store's record when it was read from there
    /// rather than rendered.
    private let cardKeys: UnsafeMutableBufferPointer<UInt64>
    private let stored: UnsafeMutableBufferPointer<CardStore.Record?>
    /// Five slots per post, each a text's UTF-8 bytes: the HTML card at `5 p`, the Markdown one at `5 p + 1`, the key
    /// at `5 p + 2`, the Atom feed entry at `5 p + 3`, the JSON Feed item at `5 p + 4`; empty until made, and never changed once made. Bytes, not strings:
    /// a timeline page inserts fifty cards, and a string's reference count is a write to memory both render threads
    /// share. A text read from the store is its bytes in the store's mapped pack (verified against its hash once);
    /// any other is a copy the cache owns (``owned``) and frees with itself.
    private let texts: UnsafeMutableBufferPointer<UnsafeRawBufferPointer>
    private let owned: UnsafeMutableBufferPointer<Bool>
    /// Whether each slot is made: set (releasing) after the slot is written, read (acquiring) before it is, so that a
    /// look-up of a made slot takes no lock. A lock is a write to memory both render threads share, and `serve`
    /// looks up two slots for every post of every page it renders.
    private let made: UnsafeMutablePointer<Atomic<Bool>>
    /// Locks for making the slots, a post's under `locks[p % lockCount]`: pages render in parallel. Mutexes in
    /// one block rather than lock objects in an array, which every use would retain and release.
    private let locks: UnsafeMutablePointer<Mutex<Void>>
    private static let lockCount = 64
    private static let slotsPerPost = 5
    private static let keptPerPost = 4
    /// The slot of each kept text of a post (HTML card, Markdown card, Atom feed entry, JSON Feed item), from the
    /// post's first.
    private static let keptSlots = [0, 1, 3, 4]

    /// An empty cache for `views`' posts, or for none when `used` is false (a build without user pages).
    /// Fails when a card template is missing, so that rendering cannot.
    /// `store`: the previous build's cards, for a build that keeps them (``CardStore``); nil for none.
    /// `baseURL`: the site's, which feed entries link with.
    init(
        views: SiteViews, templates: TemplateSet, inputs: PageInputCache, store: CardStore? = nil, used: Bool = true,
        baseURL: String? = nil
    ) throws(RenderError) {
        for name in ["post-card", "post-card.md"] where !templates.contains(name) {
            throw RenderError.template(file: "\(name).mustache", message: "no such template")
        }
        self.views = views
        self.templates = templates
        self.inputs = inputs
        self.store = used ? store : nil
        fragments = FragmentCache(store: used ? store : nil, templates: templates)
        func templateKey(_ name: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(RendererIdentity.hash)
            hasher.combine(name)
            hasher.combine(templates.inputHash(of: name))
            hasher.combine(Self.root)
            return hasher.finalize()
        }
        func feedKey(_ name: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(RendererIdentity.hash)
            hasher.combine(name)
            hasher.combine(optional: baseURL)
            hasher.combine(Self.root)
            return hasher.finalize()
        }
        templateKeys = (
            templateKey("post-card"), templateKey("post-card.md"), feedKey("feed entry"), feedKey("json feed item")
        )
        texts = .allocate(capacity: used ? Self.slotsPerPost * views.dataset.posts.count : 0)
        texts.initialize(repeating: UnsafeRawBufferPointer(start: nil, count: 0))
        owned = .allocate(capacity: texts.count)
        owned.initialize(repeating: false)
        let kept = store == nil || !used ? 0 : Self.keptPerPost * views.dataset.posts.count
        cardKeys = .allocate(capacity: kept)
        cardKeys.initialize(repeating: 0)
        stored = .allocate(capacity: kept)
        stored.initialize(repeating: nil)
        made = .allocate(capacity: texts.count)
        for i in 0..<texts.count { (made + i).initialize(to: Atomic(false)) }
        locks = .allocate(capacity: Self.lockCount)
        for i in 0..<Self.lockCount { (locks + i).initialize(to: Mutex(())) }
    }

    deinit {
        made.deinitialize(count: texts.count)
        made.deallocate()
        for slot in 0..<texts.count where owned[slot] { texts[slot].deallocate() }
        texts.deallocate()
        owned.deallocate()
        cardKeys.deallocate()
        stored.deinitialize()
        stored.deallocate()
        locks.deinitialize(count: Self.lockCount)
        locks.deallocate()
    }

    /// Post `p`'s card, as HTML or as Markdown, with links relative to a page two folders deep
    /// (`users/<uid>/…`).
    func card(_ p: Int, markdown: Bool) -> String {
        String(decoding: cardBytes(p, markdown: markdown), as: UTF8.self)
    }

    /// ``card(_:markdown:)``'s UTF-8 bytes, kept by the cache for as long as it lives: what pages insert.
    func cardBytes(_ p: Int, markdown: Bool) -> UnsafeRawBufferPointer {
        kept(p, markdown ? 1 : 0) { render(p, markdown: markdown) }
    }

    /// Post `p`'s entry in a feed two folders deep (`users/<uid>/feed.xml`), appended to `out`; made by `make` when
    /// neither this build nor the store has it: what a feed shows of a post is the same in every feed that lists it,
    /// as a card is. A feed inserts the entry as the bytes kept here, with no `String` made of it for every feed.
    func appendFeedEntry(_ p: Int, to out: inout [UInt8], _ make: () -> String) {
        guard !texts.isEmpty else { return out.append(contentsOf: make().utf8) }
        out.append(contentsOf: kept(p, 2, make))
    }

    /// Post `p`'s item in a JSON Feed two folders deep (`users/<uid>/feed.json`), appended to `out`, kept as an Atom
    /// feed's entry is, since the same post is an item of every follower's feed.
    func appendJSONFeedItem(_ p: Int, to out: inout [UInt8], _ make: () -> String) {
        guard !texts.isEmpty else { return out.append(contentsOf: make().utf8) }
        out.append(contentsOf: kept(p, 3, make))
    }

    /// Prepares the look-ups of the kept cards of `posts` (their HTML and Markdown cards) that this build has not
    /// made yet in the previous build's store (``CardStore/prefetch(_:)``): what a page listing them is about to read.
    func prefetch(_ posts: some Sequence<Int>) {
        guard let store, !store.records.isEmpty else { return }
        var keys: [UInt64] = []
        for p in posts {
            for kind in 0..<2 where !made[Self.slotsPerPost * p + Self.keptSlots[kind]].load(ordering: .relaxed) {
                keys.append(keptKey(p, kind))
            }
        }
        store.prefetch(keys)
    }

    /// Post `p`'s kept text of kind `kind` (``keptSlots``): this build's, the store's, or made by `make`.
    private func kept(_ p: Int, _ kind: Int, _ make: () -> String) -> UnsafeRawBufferPointer {
        cached(p, Self.keptSlots[kind], kept: kind) {
            guard let store else { return (.made(make()), nil) }
            let key = keptKey(p, kind)
            if let record = store.record(key), let bytes = store.bytes(record) {
                return (.stored(bytes), (key, record))
            }
            return (.made(make()), (key, nil))
        }
    }

    private func render(_ p: Int, markdown: Bool) -> String {
        (try? templates.render(views.postCard(p, root: Self.root), template: markdown ? "post-card.md" : "post-card"))
            ?? ""
    }

    /// The key of post `p`'s card: a hash of everything its text is made from, the post's card values
    /// (``PageInputCache/card(_:)``), its template and the renderer.
    func cardKey(_ p: Int, markdown: Bool) -> UInt64 { keptKey(p, markdown ? 1 : 0) }

    /// The key of post `p`'s kept text of kind `kind`: its card values (which a feed entry shows less of), and
    /// what the kind's texts are made with.
    private func keptKey(_ p: Int, _ kind: Int) -> UInt64 {
        var hasher = StableHasher()
        switch kind {
        case 0: hasher.combine(templateKeys.html)
        case 1: hasher.combine(templateKeys.markdown)
        case 2: hasher.combine(templateKeys.feed)
        default: hasher.combine(templateKeys.jsonFeed)
        }
        hasher.combine(inputs.card(p))
        return hasher.finalize()
    }

    /// Post `p`'s key, as its pages show it: every timeline showing the post needs it.
    func key(_ p: Int) -> String { String(decoding: keyBytes(p), as: UTF8.self) }

    /// ``key(_:)``'s UTF-8 bytes, kept by the cache for as long as it lives.
    func keyBytes(_ p: Int) -> UnsafeRawBufferPointer {
        cached(p, 2, kept: nil) { (.made(views.dataset.key(views.dataset.posts[p].key)), nil) }
    }

    /// A text for a slot: made now, or bytes of the store's.
    private enum Text {
        case made(String)
        case stored(UnsafeRawBufferPointer)
    }

    /// The text in post `p`'s slot `offset`, made by `make` the first time, with a kept text's key and its record in
    /// the previous store when the text (of kind `kept`) is kept.
    private func cached(
        _ p: Int, _ offset: Int, kept kind: Int?, _ make: () -> (Text, (UInt64, CardStore.Record?)?)
    ) -> UnsafeRawBufferPointer {
        let slot = Self.slotsPerPost * p + offset
        if made[slot].load(ordering: .acquiring) { return texts[slot] }
        // Made outside the lock: two pages may make the same text at once, and both get the same text.
        let (text, kept) = make()
        let (bytes, isOwned): (UnsafeRawBufferPointer, Bool)
        switch text {
        case .stored(let stored): (bytes, isOwned) = (stored, false)
        case .made(var text):
            bytes = text.withUTF8 { source in
                let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 1)
                copy.copyMemory(from: UnsafeRawBufferPointer(source))
                return UnsafeRawBufferPointer(rebasing: copy[0..<source.count])
            }
            isOwned = true
        }
        let won = locks[p % Self.lockCount].withLock { _ -> Bool in
            if made[slot].load(ordering: .relaxed) { return false }
            texts[slot] = bytes
            owned[slot] = isOwned
            if let (key, record) = kept, let kind {
                let card = Self.keptPerPost * p + kind
                cardKeys[card] = key
                stored[card] = record
            }
            made[slot].store(true, ordering: .releasing)
            return true
        }
        if won { return bytes }
        // Another page made it first (its writes seen through the lock): the same text, kept once.
        if isOwned { bytes.deallocate() }
        return texts[slot]
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
        func slotOf(_ card: Int) -> Int {
            Self.slotsPerPost * (card / Self.keptPerPost) + Self.keptSlots[card % Self.keptPerPost]
        }
        guard let store,
            fragments.used || (0..<cardKeys.count).contains(where: { made[slotOf($0)].load(ordering: .acquiring) })
        else { return nil }
        var contents = CardStoreContents(rendered: [], kept: [], read: 0)
        // The keys of the texts this build did not make, looked up in the store's sorted records at once.
        var unmade: [UInt64] = []
        for card in 0..<cardKeys.count {
            let (p, kind) = (card / Self.keptPerPost, card % Self.keptPerPost)
            let slot = slotOf(card)
            // Feed entries and items are not cards: `-v`'s counts are of cards alone.
            let isCard = kind < 2
            if made[slot].load(ordering: .acquiring) {
                if let record = stored[card] {
                    contents.kept.append(record)
                    if isCard { contents.read += 1 } else { contents.feedEntriesRead += 1 }
                } else {
                    contents.rendered.append((cardKeys[card], String(decoding: texts[slot], as: UTF8.self)))
                    if isCard { contents.renderedCards += 1 }
                }
            } else {
                // Not shown by this build's pages, but current: a later rebuild may show it.
                unmade.append(keptKey(p, kind))
            }
        }
        contents.kept += store.records(unmade)
        let rows = fragments.storeContents()
        contents.rendered += rows.rendered
        contents.kept += rows.kept
        contents.renderedRows = rows.rendered.count
        contents.rowsRead = rows.read
        return contents
    }
}

/// What a build leaves in the card store (``CardCache/storeContents()``).
struct CardStoreContents {
    /// The cards and feed entries this build rendered, by key.
    var rendered: [(key: UInt64, text: String)]
    /// The previous store's records still current.
    var kept: [CardStore.Record]
    /// How many cards the pages showed from the previous store instead of rendering them.
    var read: Int
    /// How many of ``rendered`` are cards (the rest are feed entries).
    var renderedCards = 0
    /// How many feed entries the feeds showed from the previous store instead of rendering them.
    var feedEntriesRead = 0
    /// How many of ``rendered`` are index pages' lists of users (``FragmentCache``), and how many were read instead.
    var renderedRows = 0
    var rowsRead = 0
}
