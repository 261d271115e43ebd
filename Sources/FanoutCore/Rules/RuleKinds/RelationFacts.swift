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

/// The facts of each relation that declarations count and mirror: the ones the repair keeps (docs/layouts.md "Declaring
/// your app's copies"). Likes, follows and comments whose ends do not exist, self-follows and repeated pairs are left
/// out, as the rules that report them delete them; posts are the live ones (the last of a repeated key), timelines the
/// derived ones.
struct RelationFacts {
    let context: CheckContext
    /// Whether a user's follow of themself is kept: as the app's counter counts it (`self = "counted"`), though the
    /// repair deletes it (`follow-self`).
    var keepsSelfFollows = false

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
        var facts: [RelationFact] = []
        facts.reserveCapacity(count(relation))
        each(relation) { facts.append($0) }
        return facts
    }

    /// How many facts ``each(_:_:)`` calls its body with, at most.
    func count(_ relation: DeclaredRelation) -> Int {
        switch relation {
        case .users: dataset.users.count
        case .posts: dataset.posts.count
        case .likes: dataset.likes.count
        case .follows: (dataset.schema.following != nil ? dataset.following : dataset.followers).count
        case .comments: dataset.comments.count
        case .flags: dataset.flags.count
        case .timeline: derived.timelines.values.count
        case .records: dataset.rowSets.records(of: relation, by: nil).map { dataset.declared[$0].count } ?? 0
        }
    }

    /// Calls `body` with each fact of ``all(_:)``, in order, without collecting them.
    func each(_ relation: DeclaredRelation, _ body: (RelationFact) -> Void) {
        switch relation {
        case .users:
            for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {
                body(RelationFact(a: user.key, b: noKey, index: u))
            }
        case .posts:
            for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
                body(RelationFact(a: post.owner, b: post.key, index: p))
            }
        case .likes:
            for (i, like) in dataset.likes.enumerated() { body(RelationFact(a: like.post, b: like.user, index: i)) }
        case .follows:
            let follows = dataset.schema.following != nil ? dataset.following : dataset.followers
            for (i, follow) in follows.enumerated() { body(RelationFact(a: follow.user, b: follow.target, index: i)) }
        case .comments:
            for (i, comment) in dataset.comments.enumerated() {
                body(RelationFact(a: comment.post, b: comment.id, c: comment.user, index: i))
            }
        case .flags:
            for (i, flag) in dataset.flags.enumerated() { body(RelationFact(a: flag.post, b: flag.user, index: i)) }
        case .timeline:
            for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {
                for p in derived.timelines[u] {
                    body(RelationFact(a: user.key, b: dataset.posts[Int(p)].key, index: u))
                }
            }
        case .records:
            guard let s = dataset.rowSets.records(of: relation, by: nil) else { return }
            let rows = dataset.declared[s], key = dataset.rowSets.sets[s].a!
            for row in 0..<rows.count { body(RelationFact(a: rows.key(row, key), b: noKey, index: row)) }
        }
    }

    /// Whether the repair keeps `fact` of `relation` (its ends exist, it follows no one's self); repeated pairs
    /// are left to ``kept(_:)``.
    func isKept(_ fact: RelationFact, of relation: DeclaredRelation) -> Bool {
        switch relation {
        case .users, .posts, .timeline, .flags: true
        case .records: fact.a != noKey
        case .likes: userExists(fact.b) && postExists(fact.a)
        case .follows: (keepsSelfFollows || fact.a != fact.b) && userExists(fact.a) && userExists(fact.b)
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

    /// How many kept facts of `relation` the key of end `per` has (any key, for a count over the whole export):
    /// likes by post or user are looked up in the derivation, which has counted them, others are tallied once.
    func counter(_ relation: DeclaredRelation, per: String?) -> (KeyID) -> Int {
        if relation == .likes, per != nil, dataset.schema.users != nil, dataset.schema.posts != nil {
            let derived = self.derived
            return per == "post"
                ? { key in derived.post(key).map { derived.likers[$0].count } ?? 0 }
                : { key in derived.user(key).map { derived.likedPosts[$0].count } ?? 0 }
        }
        let tally =
            relation.countsAsRecords(per: per) ? recordTally(relation, per: per) : self.tally(relation, per: per)
        guard per != nil else { return { _ in tally.total } }
        return { key in key == noKey ? 0 : Int(tally.byKey[Int(key)]) }
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
            var pairs: [Int64] = []
            pairs.reserveCapacity(count(relation))
            each(relation) { if isKept($0, of: relation) { pairs.append($0.pair) } }
            let total = Self.countDistinct(&pairs, into: &counts, byFirst: per.map { $0 == first })
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

    /// How many records of `relation` each key of group `per` has, and how many there are: rows read as records
    /// (``RowSet/Role/records``), each (group, key) pair once, so that a record stored twice counts once.
    func recordTally(_ relation: DeclaredRelation, per: String?) -> (byKey: [Int32], total: Int) {
        var counts = [Int32](repeating: 0, count: per == nil ? 0 : dataset.keys.count)
        guard let s = dataset.rowSets.records(of: relation, by: per) else { return (counts, 0) }
        let rows = dataset.declared[s], spec = dataset.rowSets.sets[s], key = spec.a!
        var pairs: [Int64] = []
        pairs.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            let record = rows.key(row, key), group = spec.b.map { rows.key(row, $0) } ?? 0
            guard record != noKey, group != noKey else { continue }
            pairs.append(Int64(group) << 32 | Int64(UInt32(bitPattern: record)))
        }
        let total = Self.countDistinct(&pairs, into: &counts, byFirst: per.map { _ in true })
        return (counts, total)
    }

    /// Sorts `pairs` (two keys in one integer, ``RelationFact/pair``) and counts each distinct one once: in all
    /// (returned) and, unless `byFirst` is nil, for the key of its first or second half in `counts`. Sorting
    /// integers rather than hashing pairs, as millions of them are counted.
    private static func countDistinct(_ pairs: inout [Int64], into counts: inout [Int32], byFirst: Bool?) -> Int {
        pairs.sort()
        var total = 0
        for (i, pair) in pairs.enumerated() where i == 0 || pairs[i - 1] != pair {
            total += 1
            guard let byFirst else { continue }
            let key = byFirst ? KeyID(truncatingIfNeeded: pair >> 32) : KeyID(truncatingIfNeeded: pair)
            if key != noKey { counts[Int(key)] += 1 }
        }
        return total
    }
}
