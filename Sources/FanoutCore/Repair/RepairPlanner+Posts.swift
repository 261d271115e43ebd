import FanoutJSON

extension RepairPlanner {
    /// Rewrites each post's copies from their sources: the like counter from the (repaired) like set, the
    /// poster uid copy from the owner, the poster username copy from `users`. Copies that are missing or of
    /// the wrong type are `post-field` findings and left alone: only a person knows whether the field matters.
    mutating func repairPostCopies() {
        guard let relation = dataset.schema.posts else { return }
        for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
            if let field = relation.likeCount, dataset.schema.likes != nil, let stored = post.storedLikeCount {
                let counted = derived.likeCount(post: p)
                if stored != Int64(counted) { set(dataset.path(of: post, field: field), counted.jsonValue) }
            }
            if let field = relation.posterUID, post.posterCopyUID != noKey, post.owner != noKey,
                post.posterCopyUID != post.owner
            {
                set(dataset.path(of: post, field: field), .string(dataset.key(post.owner)))
            }
            if let field = relation.posterUsername, dataset.schema.users != nil, let copy = post.posterCopyUsername,
                let u = derived.user(post.owner), let username = dataset.users[u].username, copy != username
            {
                set(dataset.path(of: post, field: field), .string(username))
            }
        }
    }
}
