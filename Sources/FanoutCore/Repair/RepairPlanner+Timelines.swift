import FanoutJSON

extension RepairPlanner {
    /// Makes every stored timeline the derived one over the repaired follows: each user's own posts and the
    /// posts of everyone they follow. Entries for other posts (stale, deleted, or of timelines whose owner is
    /// gone) are deleted, missing ones written, and wrong poster uids rewritten.
    mutating func repairTimelines(follows: [Follow]) {
        let schema = dataset.schema
        guard let relation = schema.timeline, schema.posts != nil, schema.users != nil else { return }
        let followed = GroupedIndex(
            groupCount: dataset.users.count,
            pairs: follows.compactMap { follow in
                guard let u = derived.user(follow.user), let t = derived.user(follow.target) else { return nil }
                return (Int32(u), Int32(t))
            })
        let stored = GroupedIndex(
            groupCount: dataset.keys.count,
            pairs: dataset.timeline.indices.map { (dataset.timeline[$0].user, Int32($0)) })
        // Per post: the last user whose timeline expects it, and the last whose stored timeline holds it. Stamps
        // avoid a set per user over millions of entries.
        var expected = [Int32](repeating: -1, count: dataset.posts.count)
        var present = [Int32](repeating: -1, count: dataset.posts.count)
        for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {
            let stamp = Int32(u)
            var posts = Array(derived.ownPosts[u])
            for t in followed[u] { posts += derived.ownPosts[Int(t)] }
            for p in posts { expected[Int(p)] = stamp }
            for e in stored[Int(user.key)] {
                let entry = dataset.timeline[Int(e)]
                let path = dataset.path(of: entry)
                guard let p = derived.post(entry.post), expected[p] == stamp else {
                    set(path, .null)
                    continue
                }
                present[p] = stamp
                let owner = dataset.posts[p].owner
                if let field = relation.posterUID, entry.posterUID != owner, let path {
                    set("\(path)/\(field)", .string(dataset.key(owner)))
                }
            }
            for p in posts where present[Int(p)] != stamp {
                present[Int(p)] = stamp
                let post = dataset.posts[Int(p)]
                set(
                    dataset.path(ofTimeline: user.key, post: post.key),
                    timelineEntryValue(dataset, owner: post.owner, post: post.key))
            }
        }
        for entry in dataset.timeline where derived.user(entry.user) == nil {
            set(dataset.path(of: entry), .null)
        }
    }
}
