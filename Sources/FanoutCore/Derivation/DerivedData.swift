import Dispatch

/// What the export's facts imply, computed exactly as docs/derived-data.md defines it.
///
/// - Timeline of U: U's own posts plus the posts of every user U follows, newest first, ties by post key
///   ascending, each post once. Follows come from `following` (the source of truth), or from `followers` where
///   the layout has no `following`.
/// - Like count of P: the number of distinct existing users who liked P (from the like set, the source of truth).
/// - Likers of P: those users, ordered by username, then uid.
/// - A post's time: its timestamp field, else the time in its push ID; posts with neither sort as oldest.
/// - Comments of P: the comments stored on P whose author exists, newest first (undated last), ties by comment key
///   ascending, each comment key once.
public struct DerivedData: Sendable {
    /// User index for each key, or -1.
    package let userIndexByKey: [Int32]
    /// Post index for each key, or -1. Where two posts share a key, the last one read wins.
    package let postIndexByKey: [Int32]
    /// Each post's owner key (``Post/owner``), or ``noKey``: 4 bytes a post, so rules that look up the owner of
    /// millions of timeline entries read a table that stays in the cache instead of the large ``Post`` values.
    package let postOwners: [KeyID]
    /// Each post's effective time in seconds since 1970, or nil when it has none.
    package let postTimes: [Double?]
    /// Per post index: liker user indexes, ordered by username then uid.
    package let likers: GroupedIndex
    /// Per user index: post indexes the user liked, ascending (for ``viewerLiked(user:post:)``).
    package let likedPosts: GroupedIndex
    /// Per user index: followed keys (which may name missing users), ascending by key id.
    package let followedKeys: GroupedIndex
    /// Per user index: user indexes of their followers, ordered by username then uid.
    package let followers: GroupedIndex
    /// Per user index: the user's own posts, newest first.
    package let ownPosts: GroupedIndex
    /// Per user index: the derived timeline as post indexes, newest first.
    package let timelines: GroupedIndex
    /// Each post's position in the order timelines list posts in (newest first, equal times by key): what orders
    /// any other list of posts the same way.
    package let postRank: [Int32]
    /// Each user's position when users are ordered by username then uid.
    package let userRank: [Int32]
    /// Per post index: comment indexes (positions in ``Dataset/comments``), newest first; nil when the export has
    /// no comments, so that exports without them derive nothing more.
    package let postComments: GroupedIndex?

    /// Derives everything from `dataset`.
    public init(_ dataset: Dataset) {
        let keyCount = dataset.keys.count
        var userIndexByKey = [Int32](repeating: -1, count: keyCount)
        for (i, user) in dataset.users.enumerated() { userIndexByKey[Int(user.key)] = Int32(i) }
        var postIndexByKey = [Int32](repeating: -1, count: keyCount)
        for (i, post) in dataset.posts.enumerated() { postIndexByKey[Int(post.key)] = Int32(i) }
        // The posts' side and the users' side need nothing of each other: one core each.
        let ((posts, postComments), people) = concurrently(
            {
                (
                    Self.postSide(dataset, postIndexByKey: postIndexByKey),
                    Self.comments(dataset, postIndexByKey: postIndexByKey, userIndexByKey: userIndexByKey)
                )
            },
            { Self.userSide(dataset, userIndexByKey: userIndexByKey, postIndexByKey: postIndexByKey) })
        let (postTimes, postsByOwnerKey, ownPosts, rankOfPost) = (posts.times, posts.byOwnerKey, posts.own, posts.rank)
        let (userRank, likers, likedPosts, followedKeys, followers) =
            (people.rank, people.likers, people.likedPosts, people.followedKeys, people.followers)

        // Timelines: own posts plus followed users' posts, ordered by the global post rank.
        var timelines = Self.timelines(dataset, followedKeys: followedKeys, postsByOwnerKey: postsByOwnerKey)
        timelines.sortAndDeduplicateGroupsConcurrently { [rankOfPost] in rankOfPost[Int($0)] < rankOfPost[Int($1)] }

        self.userIndexByKey = userIndexByKey
        self.postIndexByKey = postIndexByKey
        postOwners = dataset.posts.map(\.owner)
        self.postTimes = postTimes
        self.likers = likers
        self.likedPosts = likedPosts
        self.followedKeys = followedKeys
        self.followers = followers
        self.ownPosts = ownPosts
        self.timelines = timelines
        postRank = rankOfPost
        self.userRank = userRank
        self.postComments = postComments
    }

    /// Post times, posts grouped by owner key and by owning user, newest first, and each post's rank.
    private static func postSide(_ dataset: Dataset, postIndexByKey: [Int32])
        -> (times: [Double?], byOwnerKey: GroupedIndex, own: GroupedIndex, rank: [Int32])
    {
        // Posts shadowed by a later post with the same key take no part in derivation.
        let livePost: (Int) -> Bool = { postIndexByKey[Int(dataset.posts[$0].key)] == Int32($0) }
        let postTimes = dataset.posts.map { post in
            post.createdAt ?? dataset.keys.withBytes(post.key) { PushID.time(of: $0) }
        }
        let postOrder = Self.rankPosts(dataset, times: postTimes)

        // Posts per owner key, newest first (postOrder is already newest first).
        var ownerPairs: [(group: Int32, value: Int32)] = []
        ownerPairs.reserveCapacity(dataset.posts.count)
        for p in postOrder where livePost(Int(p)) {
            let owner = dataset.posts[Int(p)].owner
            if owner != noKey { ownerPairs.append((owner, p)) }
        }
        let postsByOwnerKey = GroupedIndex(groupCount: dataset.keys.count, pairs: ownerPairs)
        var ownPairs: [(group: Int32, value: Int32)] = []
        for (i, user) in dataset.users.enumerated() {
            for p in postsByOwnerKey[Int(user.key)] { ownPairs.append((Int32(i), p)) }
        }
        let ownPosts = GroupedIndex(groupCount: dataset.users.count, pairs: ownPairs)
        var rankOfPost = [Int32](repeating: 0, count: dataset.posts.count)
        for (rank, p) in postOrder.enumerated() { rankOfPost[Int(p)] = Int32(rank) }
        return (postTimes, postsByOwnerKey, ownPosts, rankOfPost)
    }

    /// User ranks, likers and liked posts, followed keys and followers.
    private static func userSide(_ dataset: Dataset, userIndexByKey: [Int32], postIndexByKey: [Int32])
        -> (
            rank: [Int32], likers: GroupedIndex, likedPosts: GroupedIndex, followedKeys: GroupedIndex,
            followers: GroupedIndex
        )
    {
        let userRank = Self.rankUsers(dataset)

        // Likes: distinct existing likers of existing posts.
        var likePairs: [(group: Int32, value: Int32)] = []
        likePairs.reserveCapacity(dataset.likes.count)
        for like in dataset.likes {
            let p = postIndexByKey[Int(like.post)], u = userIndexByKey[Int(like.user)]
            if p >= 0 && u >= 0 { likePairs.append((p, u)) }
        }
        var likers = GroupedIndex(groupCount: dataset.posts.count, pairs: likePairs)
        likers.sortAndDeduplicateGroups { userRank[Int($0)] < userRank[Int($1)] }
        var likedPosts = GroupedIndex(groupCount: dataset.users.count, pairs: likePairs.map { ($0.value, $0.group) })
        likedPosts.sortAndDeduplicateGroups(by: <)

        // Follows from the source of truth.
        let follows = dataset.schema.following != nil ? dataset.following : dataset.followers
        var followPairs: [(group: Int32, value: Int32)] = []
        var followerPairs: [(group: Int32, value: Int32)] = []
        for follow in follows {
            let u = userIndexByKey[Int(follow.user)]
            guard u >= 0 else { continue }
            followPairs.append((u, follow.target))
            let t = userIndexByKey[Int(follow.target)]
            if t >= 0 { followerPairs.append((t, u)) }
        }
        var followedKeys = GroupedIndex(groupCount: dataset.users.count, pairs: followPairs)
        followedKeys.sortAndDeduplicateGroups(by: <)
        var followers = GroupedIndex(groupCount: dataset.users.count, pairs: followerPairs)
        followers.sortAndDeduplicateGroups { userRank[Int($0)] < userRank[Int($1)] }

        return (userRank, likers, likedPosts, followedKeys, followers)
    }

    /// Each post's comments by existing authors, newest first (undated last), ties by comment key ascending, each
    /// comment key once (the last one read, as for posts that share a key); nil without comments.
    private static func comments(_ dataset: Dataset, postIndexByKey: [Int32], userIndexByKey: [Int32]) -> GroupedIndex?
    {
        let comments = dataset.comments
        guard !comments.isEmpty else { return nil }
        var pairs: [(group: Int32, value: Int32)] = []
        pairs.reserveCapacity(comments.count)
        var seen = Set<Int64>()
        for c in comments.indices.reversed() {
            let comment = comments[c]
            // A comment whose post or author field is missing has `noKey` there, outside both tables.
            guard comment.post >= 0, comment.user >= 0 else { continue }
            let p = postIndexByKey[Int(comment.post)]
            guard p >= 0, userIndexByKey[Int(comment.user)] >= 0,
                seen.insert(Int64(p) << 32 | Int64(UInt32(bitPattern: comment.id))).inserted
            else { continue }
            pairs.append((p, Int32(c)))
        }
        var index = GroupedIndex(groupCount: dataset.posts.count, pairs: pairs)
        index.sortAndDeduplicateGroups { a, b in
            let ca = comments[Int(a)], cb = comments[Int(b)]
            let ta = ca.createdAt ?? -.infinity, tb = cb.createdAt ?? -.infinity
            if ta != tb { return ta > tb }
            if ca.id != cb.id { return dataset.keys.precedes(ca.id, cb.id) }
            return a < b
        }
        return index
    }

    /// Every user's own posts and followed users' posts, unsorted, with repeats: millions of entries, so
    /// counted first and then filled in place, each user's range at once.
    private static func timelines(_ dataset: Dataset, followedKeys: GroupedIndex, postsByOwnerKey: GroupedIndex)
        -> GroupedIndex
    {
        let users = dataset.users
        @Sendable func sources(_ i: Int, _ body: (ArraySlice<Int32>) -> Void) {
            let key = users[i].key
            body(postsByOwnerKey[Int(key)])
            for target in followedKeys[i] where target != key { body(postsByOwnerKey[Int(target)]) }
        }
        var starts = [Int32](repeating: 0, count: users.count + 1)
        for i in users.indices {
            var count = 0
            sources(i) { count += $0.count }
            starts[i + 1] = starts[i] + Int32(count)
        }
        let offsets = starts
        var values = [Int32](repeating: 0, count: Int(starts[users.count]))
        values.withUnsafeMutableBufferPointer { values in
            nonisolated(unsafe) let values = values
            let chunks = max(1, min(users.count, 64))
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for i in (users.count * chunk / chunks)..<(users.count * (chunk + 1) / chunks) {
                    var write = Int(offsets[i])
                    sources(i) { posts in
                        for p in posts {
                            values[write] = p
                            write += 1
                        }
                    }
                }
            }
        }
        return GroupedIndex(starts: starts, values: values)
    }

    // The queries a library user reads the derivation through. User and post indexes are positions in
    // ``Dataset/users`` and ``Dataset/posts``; ``user(_:)`` and ``post(_:)`` find them from a key.

    /// The derived timeline of user index `user`: post indexes, newest first.
    public func timeline(user: Int) -> [Int] { timelines[user].map(Int.init) }

    /// The posts of user index `user`: post indexes, newest first.
    public func posts(user: Int) -> [Int] { ownPosts[user].map(Int.init) }

    /// The keys user index `user` follows, which may name users missing from the export.
    public func followed(user: Int) -> [KeyID] { Array(followedKeys[user]) }

    /// The followers of user index `user`: user indexes, ordered by username then uid.
    public func followers(user: Int) -> [Int] { followers[user].map(Int.init) }

    /// The likers of post index `post`: user indexes, ordered by username then uid.
    public func likers(post: Int) -> [Int] { likers[post].map(Int.init) }

    /// The effective time of post index `post` in seconds since 1970 (its timestamp field, else the time in its
    /// push ID), or nil when it has none.
    public func time(post: Int) -> Double? { postTimes[post] }

    /// The derived like count of post index `post`.
    public func likeCount(post: Int) -> Int { likers[post].count }

    /// The comments of post index `post`: indexes in ``Dataset/comments``, newest first (undated last), ties by
    /// comment key; only those whose author exists, each comment key once.
    public func comments(post: Int) -> [Int] { postComments.map { $0[post].map(Int.init) } ?? [] }

    /// The number of comments of post index `post` (``comments(post:)``).
    public func commentCount(post: Int) -> Int { postComments?[post].count ?? 0 }

    /// Whether user index `user` liked post index `post`.
    public func viewerLiked(user: Int, post: Int) -> Bool {
        likedPosts.sortedGroup(user, contains: Int32(post))
    }

    /// The user index of `key`, if such a user exists.
    public func user(_ key: KeyID) -> Int? {
        // `noKey` (a post whose owner field is missing) is outside the table: no such user, not a crash.
        guard key >= 0, Int(key) < userIndexByKey.count else { return nil }
        let i = userIndexByKey[Int(key)]
        return i >= 0 ? Int(i) : nil
    }

    /// The post index of `key`, if such a post exists.
    public func post(_ key: KeyID) -> Int? {
        guard key >= 0, Int(key) < postIndexByKey.count else { return nil }
        let i = postIndexByKey[Int(key)]
        return i >= 0 ? Int(i) : nil
    }

    /// Post indexes newest first; equal times by post key ascending; posts without a time last.
    private static func rankPosts(_ dataset: Dataset, times: [Double?]) -> [Int32] {
        var order = (0..<Int32(dataset.posts.count)).map { $0 }
        order.sort { a, b in
            let ta = times[Int(a)] ?? -.infinity, tb = times[Int(b)] ?? -.infinity
            if ta != tb { return ta > tb }
            let ka = dataset.posts[Int(a)].key, kb = dataset.posts[Int(b)].key
            if ka != kb { return dataset.keys.precedes(ka, kb) }
            return a < b
        }
        return order
    }

    /// Each user's rank by the name pages show (username, else display name; users with neither sort by uid
    /// among the rest), then uid.
    private static func rankUsers(_ dataset: Dataset) -> [Int32] {
        let names = dataset.users.map { $0.shownName ?? dataset.key($0.key) }
        var order = Array(0..<dataset.users.count)
        order.sort { a, b in
            if names[a] != names[b] { return names[a].utf8.lexicographicallyPrecedes(names[b].utf8) }
            let ka = dataset.users[a].key, kb = dataset.users[b].key
            if ka != kb { return dataset.keys.precedes(ka, kb) }
            return a < b
        }
        var rank = [Int32](repeating: 0, count: order.count)
        for (r, u) in order.enumerated() { rank[u] = Int32(r) }
        return rank
    }
}
