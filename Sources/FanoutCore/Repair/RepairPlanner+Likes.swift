import FanoutJSON

extension RepairPlanner {
    /// The like set is the source: likes by deleted users or on deleted posts are deleted, a repeated like is
    /// kept once; then the `user-likes` mirror is made to hold exactly the repaired like set.
    mutating func repairLikes() {
        guard dataset.schema.likes != nil else { return }
        var kept = Set<Int64>()
        for like in dataset.likes {
            let path = dataset.path(ofLike: like)
            guard userExists(like.user) && postExists(like.post) else {
                set(path, .null)
                continue
            }
            if !kept.insert(packed(like)).inserted {
                // A row of its own (Parse) is deleted; a repeated key in one object is written once.
                set(path, like.id != noKey ? .null : dataset.schema.edgeValue.json)
            }
        }
        guard dataset.schema.likeMirror != nil else { return }
        let mirrored = Set(dataset.likeMirror.map(packed))
        for like in dataset.likes where kept.contains(packed(like)) && !mirrored.contains(packed(like)) {
            set(
                dataset.path(ofMirroredLike: Like(post: like.post, user: like.user)),
                dataset.entryValue(dataset.schema.likeMirror!, post: like.post, user: like.user))
        }
        for like in dataset.likeMirror where !kept.contains(packed(like)) {
            set(dataset.path(ofMirroredLike: like), .null)
        }
    }
}
