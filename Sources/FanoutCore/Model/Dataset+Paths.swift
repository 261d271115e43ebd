extension Dataset {
    /// The database path of `post`'s node, e.g. `posts/u1/-Kx`.
    package func path(of post: Post) -> String {
        guard let pattern = schema.posts?.pattern else { return key(post.key) }
        return pattern.render { name in
            switch name {
            case "post": key(post.key)
            case "poster": post.pathOwner == noKey ? "{poster}" : key(post.pathOwner)
            default: "{\(name)}"
            }
        }
    }

    /// The database path of a field of `post`, e.g. `posts/u1/-Kx/like_count`.
    package func path(of post: Post, field: FieldPath) -> String {
        "\(path(of: post))/\(field)"
    }

    /// The database path of `user`'s node, e.g. `users/u1`.
    package func path(ofUser user: KeyID) -> String {
        guard let pattern = schema.users?.pattern else { return key(user) }
        return pattern.render { $0 == "user" ? key(user) : "{\($0)}" }
    }

    /// The database path of a like in the like set, e.g. `postLikes/-Kx/u2`.
    package func path(ofLike like: Like) -> String? {
        schema.likes.map { render($0.pattern, like) }
    }

    /// The database path of a like in the mirror, e.g. `user-likes/u2/-Kx`.
    package func path(ofMirroredLike like: Like) -> String? {
        schema.likeMirror.map { render($0.pattern, like) }
    }

    /// The database path of a follow under `following`, e.g. `following/u1/u2`.
    package func path(ofFollowing follow: Follow) -> String? {
        schema.following.map { render($0.pattern, follow) }
    }

    /// The database path of a follow under `followers`, e.g. `followers/u2/u1`.
    package func path(ofFollower follow: Follow) -> String? {
        schema.followers.map { render($0.pattern, follow) }
    }

    /// The database path of a stored timeline entry, e.g. `timeline/u1/-Kx`.
    package func path(ofTimeline user: KeyID, post: KeyID) -> String? {
        schema.timeline?.pattern.render { name in
            switch name {
            case "user": key(user)
            case "post": key(post)
            default: "{\(name)}"
            }
        }
    }

    /// The database path of a flag, e.g. `FlaggedContent/<objectId>`.
    package func path(ofFlag flag: Flag) -> String? {
        schema.flags.map { render($0.pattern, post: flag.post, user: flag.user, id: flag.id) }
    }

    /// The database path of an entry of the post ownership mirror, e.g. `user-posts/u1/-Kx`.
    package func path(ofOwnedPost entry: OwnedPost) -> String? {
        schema.postMirror.map { render($0.pattern, post: entry.post, user: entry.user, id: noKey) }
    }

    private func render(_ pattern: PathPattern, _ like: Like) -> String {
        render(pattern, post: like.post, user: like.user, id: like.id)
    }

    private func render(_ pattern: PathPattern, post: KeyID, user: KeyID, id: KeyID) -> String {
        pattern.render { name in
            switch name {
            case "post": key(post)
            case "user": key(user)
            // Rows (Parse's `Like/{id}`) are found by their own key, not by the pair.
            case "id" where id != noKey: key(id)
            default: "{\(name)}"
            }
        }
    }

    private func render(_ pattern: PathPattern, _ follow: Follow) -> String {
        pattern.render { name in
            switch name {
            case "user": key(follow.user)
            case "target": key(follow.target)
            case "id" where follow.id != noKey: key(follow.id)
            default: "{\(name)}"
            }
        }
    }
}
