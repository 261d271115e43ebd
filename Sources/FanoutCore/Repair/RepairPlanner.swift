import FanoutJSON

/// Computes the repair patch of an export as a whole, not finding by finding.
///
/// Each relation has one source of truth: the like set over the counter and the `user-likes` mirror;
/// `following` over `followers`; `users` over poster copies; the owner in the post's path or owner field over
/// its poster uid copy; the derived timeline over the stored one. The planner first repairs the sources (likes
/// by deleted users or on deleted posts, duplicate likes, follows with a missing end, self-follows), then
/// recomputes every copy from the repaired sources, so that applying the patch leaves no finding of a
/// mechanical rule. What no rule can decide (a post whose owner is gone, a missing field, an invalid key, a
/// timestamp far from its push ID) is left alone.
public struct RepairPlanner {
    let dataset: Dataset
    let derived: DerivedData
    /// The updates so far, by path.
    var updates: [String: JSONValue] = [:]

    /// The repair patch of the export `context` describes.
    public static func plan(_ context: CheckContext) -> RepairPatch {
        var planner = RepairPlanner(dataset: context.dataset, derived: context.derived)
        planner.repairLikes()
        let follows = planner.repairFollows()
        planner.repairComments()
        planner.repairPostCopies()
        planner.repairTimelines(follows: follows)
        planner.repairDeclaredCopies(context)
        return RepairPatch(planner.updates)
    }

    /// Whether `key` names an existing user; without a users relation every uid is taken as existing, as the
    /// rules that need one are skipped.
    func userExists(_ key: KeyID) -> Bool {
        dataset.schema.users == nil || (key != noKey && derived.user(key) != nil)
    }

    /// Whether `key` names an existing post; without a posts relation every key is taken as existing.
    func postExists(_ key: KeyID) -> Bool {
        dataset.schema.posts == nil || derived.post(key) != nil
    }

    /// Records that `path` must hold `value`.
    mutating func set(_ path: String?, _ value: JSONValue) {
        if let path { updates[path] = value }
    }
}
