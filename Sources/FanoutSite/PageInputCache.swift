import CPrefetch
import FanoutCore
import FanoutTemplates

/// Hashes of what many pages show, each made the first time an input key needs it (docs/site.md "Rebuilds, progress and
/// timings"): a post's card values (a post shows on its owner's and every follower's timeline) and a user as lists show
/// them (name and profile link, on the likers and followers of many pages).
final class PageInputCache: @unchecked Sendable {  // the slots are only read and written as atomic words
    private let views: SiteViews
    /// By post: the hash of its card's values (``PostCard/hashInput(into:)``); 0 until made.
    private let cards: UnsafeMutableBufferPointer<UInt64>
    /// By user: the hash of the user as ``SiteViews/person(_:)`` shows them; 0 until made.
    private let people: UnsafeMutableBufferPointer<UInt64>
    /// A hash of the templates cards and hearts are rendered with: part of the key of every page showing cards.
    let cardTemplates: UInt64
    /// A hash of what every page shows whatever its kind (site title, export, navigation: ``SiteViews/common``).
    let common: UInt64

    /// The lists of a user's posts whose pages have Markdown twins: a page and its twin show the same user and posts,
    /// so what their input keys hash of them is made once for both (``postListPage(_:user:page:_:)``).
    enum PostList: Int, CaseIterable {
        case timeline, liked
    }

    /// By list: each user's first slot in ``listPages``, and after the last user's the number of slots.
    private let listStarts: [[Int]]
    /// By list, a slot per page of each user's list: the hash of the user and the page's posts; 0 until made.
    private let listPages: [UnsafeMutableBufferPointer<UInt64>]

    /// `perPage`: the posts of a page of a list.
    init(views: SiteViews, templates: TemplateSet, perPage: Int) {
        self.views = views
        cards = .allocate(capacity: views.dataset.posts.count)
        cards.initialize(repeating: 0)
        people = .allocate(capacity: views.dataset.users.count)
        people.initialize(repeating: 0)
        var starts: [[Int]] = []
        var pages: [UnsafeMutableBufferPointer<UInt64>] = []
        for list in PostList.allCases {
            let lists = list == .timeline ? views.derived.timelines : views.derived.likedPosts
            var first = [Int](repeating: 0, count: lists.groupCount + 1)
            for u in 0..<lists.groupCount {
                let count = Int(lists.starts[u + 1] - lists.starts[u])
                first[u + 1] = first[u] + Pagination(perPage: perPage, count: count).pageCount
            }
            let slots = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: first[lists.groupCount])
            slots.initialize(repeating: 0)
            starts.append(first)
            pages.append(slots)
        }
        listStarts = starts
        listPages = pages
        var hasher = StableHasher()
        for name in ["post-card", "post-card.md", "heart"] { hasher.combine(templates.inputHash(of: name)) }
        cardTemplates = hasher.finalize()
        hasher = StableHasher()
        hasher.combine(templateValue: views.common)
        common = hasher.finalize()
    }

    deinit {
        cards.deallocate()
        people.deallocate()
        for slots in listPages { slots.deallocate() }
    }

    /// Page `page` (from 1) of user `u`'s list `list`: what `make` hashes of it, made for the first of the page and its
    /// twin to need it: the timeline and liked pages' keys were a quarter of a rebuild's deciding which pages changed,
    /// each page and its twin hashing the same posts (docs/performance.md "Rebuilds").
    func postListPage(_ list: PostList, user u: Int, page: Int, _ make: () -> UInt64) -> UInt64 {
        let starts = listStarts[list.rawValue]
        guard u + 1 < starts.count, page >= 1, starts[u] + page - 1 < starts[u + 1] else { return make() }
        return cached(listPages[list.rawValue], starts[u] + page - 1) { hasher in hasher.combine(make()) }
    }

    /// Everything post `p`'s card shows is made from, as ``SiteViews/postCard(_:root:onItsPage:)`` reads it (a
    /// feed entry and a post page's card show less of the same): keep the two side by side.
    func card(_ p: Int) -> UInt64 {
        cached(cards, p) { hasher in
            // The post read where the dataset keeps it, not copied out: a copy retains and releases each of its
            // strings, and every post's card is hashed each build (docs/performance.md "Rebuilds").
            views.dataset.posts.withUnsafeBufferPointer { posts in
                let post = posts.baseAddress! + p
                let (dataset, derived) = (views.dataset, views.derived)
                hasher.combine(key: post.pointee.key, of: dataset)
                hasher.combine(views.posterName(owner: post.pointee.owner, copied: post.pointee.posterCopyUsername))
                // Whether it has an owner, then the owner's uid (none: "").
                hasher.combine(post.pointee.owner != noKey)
                hasher.combine(key: post.pointee.owner, of: dataset)
                let likers = derived.likers[p]
                hasher.combine(likers.count)
                for liker in likers.prefix(3) { hasher.combine(views.username(Int(liker))) }
                hasher.combine(derived.postTimes[p]?.bitPattern)
                hasher.combine(optional: post.pointee.imageURL)
                hasher.combine(post.pointee.imageHeight?.bitPattern)
                hasher.combine(views.flagged.contains(post.pointee.key))
                hasher.combine(optional: post.pointee.caption)
                hasher.combine(post.pointee.storedLikeCount.map { UInt64(bitPattern: $0) })
                hasher.combine(optional: views.commentCount(p))
            }
        }
    }

    /// The user or key `key` as a list of people shows it: name and profile link, or the bare key.
    func person(_ key: KeyID) -> UInt64 {
        let u = views.derived.user(key)
        let feed = { (hasher: inout StableHasher) in
            // A closure rather than `self.views.username`: that method, taken as a value, holds a copy of the views.
            hasher.combine(optional: u.map { self.views.username($0) })
            hasher.combine(key: key, of: self.views.dataset)
        }
        // Cached by user, for the key the user is stored under (the one lists name them by).
        guard let u, views.dataset.users[u].key == key else {
            var hasher = StableHasher()
            feed(&hasher)
            return hasher.finalize()
        }
        return cached(people, u, feed)
    }

    private func cached(_ slots: UnsafeMutableBufferPointer<UInt64>, _ i: Int, _ feed: (inout StableHasher) -> Void)
        -> UInt64
    {
        // Without a lock: two threads that both find a slot empty make the same hash (a lock a look-up was 4 % of a
        // rebuild with nothing changed, docs/performance.md "Rebuilds").
        let known = fanout_load_word(slots.baseAddress! + i)
        if known != 0 { return known }
        var hasher = StableHasher()
        feed(&hasher)
        let hash = hasher.finalize()
        fanout_store_word(slots.baseAddress! + i, hash)
        return hash
    }
}
