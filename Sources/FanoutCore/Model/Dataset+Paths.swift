import FanoutJSON

extension Dataset {
    /// Indexes the keys records are stored under (``storedUserKeys``, ``storedPostKeys``), once their facts name
    /// their final key ids; a layout without key fields has none.
    package mutating func indexStoredKeys() {
        guard schema.users?.key != nil || schema.posts?.key != nil else { return }
        storedUserKeys = [:]
        storedPostKeys = [:]
        for user in users where user.storedKey != noKey { storedUserKeys[user.key] = user.storedKey }
        for post in posts where post.storedKey != noKey { storedPostKeys[post.key] = post.storedKey }
    }

    /// The database path of `post`'s node, e.g. `posts/u1/-Kx`.
    package func path(of post: Post) -> String {
        guard let pattern = schema.posts?.pattern else { return key(post.key) }
        let stored = post.storedKey != noKey ? post.storedKey : storedPostKeys[post.key] ?? post.key
        return pattern.render { name in
            switch name {
            case "post": key(stored)
            case "poster": post.pathOwner == noKey ? "{poster}" : key(post.pathOwner)
            default: "{\(name)}"
            }
        }
    }

    /// The database path of the post `key` owned by `owner` (which the path names where it captures `{poster}`).
    package func path(ofPost key: KeyID, owner: KeyID) -> String {
        var post = Post(key: key)
        post.pathOwner = owner
        return path(of: post)
    }

    /// The database path of a field of `post`, e.g. `posts/u1/-Kx/like_count`.
    package func path(of post: Post, field: FieldPath) -> String {
        "\(path(of: post))/\(field)"
    }

    /// The database path of `user`'s node, e.g. `users/u1`.
    package func path(ofUser user: KeyID) -> String {
        guard let pattern = schema.users?.pattern else { return key(user) }
        let stored = storedUserKeys[user] ?? user
        return pattern.render { $0 == "user" ? key(stored) : "{\($0)}" }
    }

    /// The database path of a like in the like set, e.g. `postLikes/-Kx/u2`.
    package func path(ofLike like: Like) -> String? {
        schema.likes.map { render($0, post: like.post, user: like.user, id: like.id) }
    }

    /// The database path of a like in the mirror, e.g. `user-likes/u2/-Kx`.
    package func path(ofMirroredLike like: Like) -> String? {
        schema.likeMirror.map { render($0, post: like.post, user: like.user, id: like.id) }
    }

    /// The database path of a follow under `following`, e.g. `following/u1/u2`.
    package func path(ofFollowing follow: Follow) -> String? {
        schema.following.map { render($0, user: follow.user, target: follow.target, id: follow.id) }
    }

    /// The database path of a follow under `followers`, e.g. `followers/u2/u1`.
    package func path(ofFollower follow: Follow) -> String? {
        schema.followers.map { render($0, user: follow.user, target: follow.target, id: follow.id) }
    }

    /// The path a new row of `followers` would have, its own key written as `newRowKey` (a list's element is
    /// numbered later: ``MirrorRule/numberingListEntries(_:capture:elementPaths:)``).
    package func path(ofFollower follow: Follow, newRowKey: String) -> String? {
        schema.followers.map { render($0, user: follow.user, target: follow.target, id: noKey, newRowKey: newRowKey) }
    }

    /// The database path of a stored timeline entry, e.g. `timeline/u1/-Kx`; `id` is the key of its row where
    /// entries are rows keyed by an ID (docs/layouts.md "Declaring your app's copies": a new row is keyed by its post).
    package func path(ofTimeline user: KeyID, post: KeyID, id: KeyID = noKey) -> String? {
        schema.timeline?.pattern.render { name in
            switch name {
            case "user": key(user)
            case "post": key(post)
            case "id": key(id != noKey ? id : post)
            default: "{\(name)}"
            }
        }
    }

    /// The database path of `entry`.
    package func path(of entry: TimelineEntry) -> String? {
        path(ofTimeline: entry.user, post: entry.post, id: entry.id)
    }

    /// The database path of a comment, e.g. `comments/-Kx/-Kc`.
    package func path(of comment: Comment) -> String? {
        schema.comments?.pattern.render { name in
            switch name {
            case "post" where comment.post != noKey: key(comment.post)
            case "user" where comment.user != noKey: key(comment.user)
            case "id" where comment.id != noKey: key(comment.storedID != noKey ? comment.storedID : comment.id)
            default: "{\(name)}"
            }
        }
    }

    /// The database path of `field` of row `row` of declared row set `set` (the row's node for an empty field).
    package func path(ofRow row: Int, in set: Int, field: FieldPath) -> String {
        let node = path(ofRow: row, in: set)
        return field.keys.isEmpty ? node : "\(node)/\(field)"
    }

    /// The database path of row `row` of declared row set `set` (its node; findings add the set's field part).
    package func path(ofRow row: Int, in set: Int) -> String {
        let rows = declared[set], names = rowSets.sets[set].pattern.captureNames
        return rowSets.sets[set].pattern.render { name in
            guard let i = names.firstIndex(of: name) else { return "{\(name)}" }
            let id = rows.key(row, i)
            return id == noKey ? "{\(name)}" : key(id)
        }
    }

    /// The database path of a flag, e.g. `FlaggedContent/<objectId>`.
    package func path(ofFlag flag: Flag) -> String? {
        schema.flags.map { render($0, post: flag.post, user: flag.user, id: flag.id) }
    }

    /// The database path of an entry of the post ownership mirror, e.g. `user-posts/u1/-Kx`.
    package func path(ofOwnedPost entry: OwnedPost) -> String? {
        schema.postMirror.map { render($0, post: entry.post, user: entry.user, id: entry.id) }
    }

    /// The path of an edge of `relation` with the given ends. A row stored under a key of its own (`{id}`) that
    /// does not exist yet (a missing mirror entry) is keyed by the ends its fields name (docs/layouts.md "Declaring
    /// your app's copies").
    private func render(
        _ relation: EdgeRelation, post: KeyID = noKey, user: KeyID = noKey, target: KeyID = noKey, id: KeyID,
        newRowKey given: String? = nil
    ) -> String {
        relation.pattern.render { name in
            switch name {
            case "post" where post != noKey: key(post)
            case "user" where user != noKey: key(user)
            case "target" where target != noKey: key(target)
            // Rows (Parse's `Like/{id}`) are found by their own key, not by the pair.
            case "id" where id != noKey: key(id)
            case "id":
                given
                    ?? newRowKey(
                        [(relation.user, user), (relation.post, post), (relation.target, target)]
                            .compactMap { field, end in field == nil ? nil : end })
            default: "{\(name)}"
            }
        }
    }

    /// The key of a new row whose fields name `ends`: the key of the one end, or the ends' keys joined by `_`.
    package func newRowKey(_ ends: [KeyID]) -> String {
        ends.isEmpty ? "{id}" : ends.map { key($0) }.joined(separator: "_")
    }

    /// What a new entry of `relation` holds: the schema's edge value, or for a row the fields naming its ends.
    package func entryValue(_ relation: EdgeRelation, post: KeyID = noKey, user: KeyID = noKey, target: KeyID = noKey)
        -> JSONValue
    {
        let fields = [(relation.user, user), (relation.post, post), (relation.target, target)]
            .compactMap { field, end in field.map { ($0, end) } }
        guard !fields.isEmpty else { return schema.edgeValue.json }
        var value = JSONValue.object([])
        for (field, end) in fields { value = RepairPatch.setting(field.keys[...], to: .string(key(end)), in: value) }
        return value
    }
}
