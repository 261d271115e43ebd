import FanoutJSON

extension RepairPlanner {
    /// `following` is the source (`followers` where the layout has nothing else): follows with a missing end
    /// and self-follows are deleted; then `followers` is made to hold exactly the repaired follows.
    /// Returns the repaired follows, each once.
    mutating func repairFollows() -> [Follow] {
        let schema = dataset.schema
        let sourceIsFollowing = schema.following != nil
        guard sourceIsFollowing || schema.followers != nil else { return [] }
        let source = sourceIsFollowing ? dataset.following : dataset.followers
        func sourcePath(_ follow: Follow) -> String? {
            sourceIsFollowing ? dataset.path(ofFollowing: follow) : dataset.path(ofFollower: follow)
        }
        var kept = Set<Int64>()
        var repaired: [Follow] = []
        for follow in source {
            guard follow.user != follow.target, userExists(follow.user), userExists(follow.target) else {
                set(sourcePath(follow), .null)
                continue
            }
            if kept.insert(packed(follow)).inserted {
                repaired.append(follow)
            } else if follow.id != noKey {
                set(sourcePath(follow), .null)
            }
        }
        guard sourceIsFollowing, schema.followers != nil else { return repaired }
        let mirrored = Set(dataset.followers.map(packed))
        for follow in repaired where !mirrored.contains(packed(follow)) {
            set(
                dataset.path(ofFollower: Follow(user: follow.user, target: follow.target)),
                dataset.entryValue(schema.followers!, user: follow.user, target: follow.target))
        }
        for follow in dataset.followers where !kept.contains(packed(follow)) {
            set(dataset.path(ofFollower: follow), .null)
        }
        return repaired
    }
}
