import FanoutJSON

/// `follow-mirror-missing`: `following` and `followers` agree both ways.
struct FollowMirrorMissingRule: MirrorRule {
    let descriptor = RuleDescriptor(
        id: "follow-mirror-missing", defaultSeverity: .error,
        summary: "Every follow is stored in both `following` and `followers`.",
        explanation: """
            Following writes `following/{user}/{target}` and `followers/{target}/{user}` in one multi-path \
            update, but older clients or manual edits write one side only. `following` is the source of truth \
            (it drives the timeline): a missing `followers` entry is added, and a `followers` entry without its \
            `following` entry is deleted.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        if schema.following == nil { return "the schema has no following relation ([follows] following)" }
        if schema.followers == nil { return "the schema has no followers relation ([follows] followers)" }
        return nil
    }

    let orphanNamesSourceFirst = true

    func sides(of context: CheckContext) -> (source: [Follow], mirror: [Follow]) {
        (context.dataset.following, context.dataset.followers)
    }

    func pair(_ follow: Follow) -> Int64 { packed(follow) }

    func paths(of follow: Follow, fromSource: Bool, in dataset: Dataset) -> (source: String?, mirror: String?) {
        let other = Follow(user: follow.user, target: follow.target)
        guard fromSource else { return (dataset.path(ofFollowing: other), dataset.path(ofFollower: follow)) }
        // A list of followers' IDs gets its new element numbered once every missing one is known.
        let listed = dataset.schema.followers?.listsBareKeys == true
        return (
            dataset.path(ofFollowing: follow),
            listed ? dataset.path(ofFollower: other, newRowKey: "{id}") : dataset.path(ofFollower: other)
        )
    }

    func listNumbering(in context: CheckContext) -> (capture: String, elementPaths: () -> [String])? {
        let dataset = context.dataset
        guard dataset.schema.followers?.listsBareKeys == true else { return nil }
        return ("id", { dataset.followers.compactMap(dataset.path(ofFollower:)) })
    }

    func reportsMissing(_ follow: Follow, in context: CheckContext) -> Bool {
        // A follow of a deleted user or of oneself is deleted, not mirrored: other rules report those.
        follow.user != follow.target
            && (context.dataset.schema.users == nil
                || (context.derived.user(follow.user) != nil && context.derived.user(follow.target) != nil))
    }

    func entryValue(_ follow: Follow, in dataset: Dataset) -> JSONValue {
        dataset.entryValue(dataset.schema.followers!, user: follow.user, target: follow.target)
    }

    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String {
        q.entryValue(q.schema.followers!, ["user": "\(row).user", "target": "\(row).target"])
    }

    func missingMessage(_ follow: Follow, in context: CheckContext) -> String {
        "\(context.name(follow.user)) follows \(context.name(follow.target)) but is missing from their followers"
    }

    func orphanMessage(_ follow: Follow, in context: CheckContext) -> String {
        "\(context.name(follow.user)) is listed among \(context.name(follow.target))'s followers but does not follow them"
    }

    func sqlSides(_ q: SQLContext) -> (source: MirrorSide, mirror: MirrorSide) {
        let followers = q.schema.followers!
        var mirror = q.side("followers", followers)
        if followers.listsBareKeys {
            mirror.numberAsList(
                capture: "id", list: followers.target == nil ? "target" : "user",
                element: followers.target == nil ? "user" : "target", q)
        }
        return (q.side("following", q.schema.following!), mirror)
    }

    var sqlPair: (String, String) { ("user", "target") }

    func sqlCaptures(_ row: String) -> [String: String] {
        ["user": "\(row).user", "target": "\(row).target", "id": "\(row).id"]
    }

    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String {
        "\(row).user <> \(row).target"
            + (q.schema.users == nil ? "" : " AND \(q.userExists("\(row).user")) AND \(q.userExists("\(row).target"))")
    }

    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String] {
        [q.name("\(row).user"), "' follows '", q.name("\(row).target"), "' but is missing from their followers'"]
    }

    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String] {
        [
            q.name("\(row).user"), "' is listed among '", q.name("\(row).target"),
            "'''s followers but does not follow them'",
        ]
    }
}
