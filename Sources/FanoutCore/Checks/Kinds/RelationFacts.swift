/// A fact of a relation as declarations see it: its ends in ``DeclaredRelation/ends`` order (a post's poster and
/// key, a like's post and user, a comment's post, key and author), and where it is stored.
struct RelationFact {
    /// The ends; `c` only for comments (the author).
    var a: KeyID, b: KeyID, c: KeyID = noKey
    /// The fact's index in its relation's array (posts, likes, `following`…), or its user's for timelines.
    var index: Int

    /// End `name` of a fact of `relation`.
    func end(_ name: String, of relation: DeclaredRelation) -> KeyID {
        switch relation.ends.firstIndex(of: name) {
        case 0: a
        case 1: b
        case 2: c
        default: noKey
        }
    }

    /// The pair that identifies the fact, as one integer.
    var pair: Int64 { Int64(a) << 32 | Int64(UInt32(bitPattern: b)) }
}

/// The facts of each relation that declarations count and mirror: the ones the repair keeps (README "Declaring
/// your app's copies"). Likes, follows and comments whose ends do not exist, self-follows and repeated pairs are
/// left out, as the rules that report them delete them; posts are the live ones (the last of a repeated key),
/// timelines the derived ones.
struct RelationFacts {
    let context: CheckContext

    private var dataset: Dataset { context.dataset }
    private var derived: DerivedData { context.derived }

    /// Whether `key` names an existing user; without a users relation every uid is taken as existing.
    func userExists(_ key: KeyID) -> Bool {
        dataset.schema.users == nil || (key != noKey && derived.user(key) != nil)
    }

    /// Whether `key` names an existing post; without a posts relation every key is taken as existing.
    func postExists(_ key: KeyID) -> Bool {
        dataset.schema.posts == nil || (key != noKey && derived.post(key) != nil)
    }

    /// Every stored fact of `relation`, repeated and invalid ones included, in the order stored. Follows come from
    /// `following`, the source of truth, else `followers`.
    func all(_ relation: DeclaredRelation) -> [RelationFact] {
        switch relation {
        case .users:
            return dataset.users.enumerated().compactMap { u, user in
                derived.user(user.key) == u ? RelationFact(a: user.key, b: noKey, index: u) : nil
            }
        case .posts:
            return dataset.posts.enumerated().compactMap { p, post in
                derived.post(post.key) == p ? RelationFact(a: post.owner, b: post.key, index: p) : nil
            }
        case .likes:
            return dataset.likes.enumerated().map { RelationFact(a: $1.post, b: $1.user, index: $0) }
        case .follows:
            let follows = dataset.schema.following != nil ? dataset.following : dataset.followers
            return follows.enumerated().map { RelationFact(a: $1.user, b: $1.target, index: $0) }
        case .comments:
            return dataset.comments.enumerated().map { RelationFact(a: $1.post, b: $1.id, c: $1.user, index: $0) }
        case .flags:
            return dataset.flags.enumerated().map { RelationFact(a: $1.post, b: $1.user, index: $0) }
        case .timeline:
            var facts: [RelationFact] = []
            for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {
                for p in derived.timelines[u] { facts.append(RelationFact(a: user.key, b: dataset.posts[Int(p)].key, index: u)) }
            }
            return facts
        }
    }

    /// Whether the repair keeps `fact` of `relation` (its ends exist, it follows no one's self); repeated pairs
    /// are left to ``kept(_:)``.
    func isKept(_ fact: RelationFact, of relation: DeclaredRelation) -> Bool {
        switch relation {
        case .users, .posts, .timeline, .flags: true
        case .likes: userExists(fact.b) && postExists(fact.a)
        case .follows: fact.a != fact.b && userExists(fact.a) && userExists(fact.b)
        case .comments: postExists(fact.a) && userExists(fact.c)
        }
    }

    /// The facts of `relation` the repair keeps, each pair once (the first stored), in the order stored.
    func kept(_ relation: DeclaredRelation) -> [RelationFact] {
        let facts = all(relation).filter { isKept($0, of: relation) }
        // Users and posts are live already, timelines derived: none repeats.
        guard relation != .users, relation != .posts, relation != .timeline else { return facts }
        // The first of each pair, found by sorting rather than hashing millions of pairs.
        var order = Array(facts.indices)
        order.sort { (facts[$0].pair, $0) < (facts[$1].pair, $1) }
        var first = [Bool](repeating: false, count: facts.count)
        for (i, f) in order.enumerated() where i == 0 || facts[order[i - 1]].pair != facts[f].pair { first[f] = true }
        return facts.indices.compactMap { first[$0] ? facts[$0] : nil }
    }

    /// How many kept facts of `relation` each key of end `per` has (indexed by ``KeyID``), and how many there are.
    func tally(_ relation: DeclaredRelation, per: String?) -> (byKey: [Int32], total: Int) {
        var counts = [Int32](repeating: 0, count: per == nil ? 0 : dataset.keys.count)
        // Likes are counted by the derivation already (distinct existing likers of each existing post).
        if relation == .likes, dataset.schema.users != nil, dataset.schema.posts != nil {
            var total = 0
            for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
                let n = derived.likers[p].count
                total += n
                if per == "post" { counts[Int(post.key)] += Int32(n) }
            }
            if per == "user" {
                for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {
                    counts[Int(user.key)] += Int32(derived.likedPosts[u].count)
                }
            }
            return (counts, total)
        }
        // Where the group is an end of the pair that identifies a fact, the distinct pairs are found by sorting
        // integers rather than facts; comments by author go through `kept`.
        if let (first, second) = relation.pair, relation != .users, relation != .posts, relation != .timeline,
            per == nil || per == first || per == second
        {
            var pairs = all(relation).compactMap { isKept($0, of: relation) ? $0.pair : nil }
            pairs.sort()
            var total = 0
            for (i, pair) in pairs.enumerated() where i == 0 || pairs[i - 1] != pair {
                total += 1
                guard let per else { continue }
                let key = per == first ? KeyID(truncatingIfNeeded: pair >> 32) : KeyID(truncatingIfNeeded: pair)
                if key != noKey { counts[Int(key)] += 1 }
            }
            return (counts, total)
        }
        let facts = kept(relation)
        guard let per else { return ([], facts.count) }
        for fact in facts {
            let key = fact.end(per, of: relation)
            if key != noKey { counts[Int(key)] += 1 }
        }
        return (counts, facts.count)
    }
}
