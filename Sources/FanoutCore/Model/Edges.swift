/// A stored like: `user` liked `post`. Keys may name users or posts that do not exist.
public struct Like: Sendable, Equatable, Hashable {
    /// The liked post's key.
    public package(set) var post: KeyID
    /// The liker's uid.
    public package(set) var user: KeyID
    /// The key of the row that stores the like (Parse's `Like` objectId), or ``noKey`` where the pair is the key.
    package var id: KeyID

    /// A like.
    package init(post: KeyID, user: KeyID, id: KeyID = noKey) {
        self.post = post
        self.user = user
        self.id = id
    }
}

/// A stored follow: `user` follows `target`, whichever direction it was stored in.
public struct Follow: Sendable, Equatable, Hashable {
    /// The follower's uid.
    public package(set) var user: KeyID
    /// The followed user's uid.
    public package(set) var target: KeyID
    /// The key of the row that stores the follow (Parse's `Follow` objectId), or ``noKey`` where the pair is the key.
    package var id: KeyID

    /// A follow.
    package init(user: KeyID, target: KeyID, id: KeyID = noKey) {
        self.user = user
        self.target = target
        self.id = id
    }
}

/// A stored entry of the post ownership mirror (`user-posts/{user}/{post}`): `user` lists `post` as theirs.
package struct OwnedPost: Sendable, Equatable, Hashable {
    /// The uid the entry is stored under.
    package var user: KeyID
    /// The post key.
    package var post: KeyID
    /// The key of the row that stores the entry, or ``noKey`` where the pair is the key.
    package var id: KeyID

    /// An ownership mirror entry.
    package init(user: KeyID, post: KeyID, id: KeyID = noKey) {
        self.user = user
        self.post = post
        self.id = id
    }
}

/// A flag: `user` reported `post` as inappropriate (Parse's `FlaggedContent`).
package struct Flag: Sendable, Equatable, Hashable {
    /// The flagged post's key.
    package var post: KeyID
    /// The uid of the user who flagged it.
    package var user: KeyID
    /// The key of the row that stores the flag, or ``noKey``.
    package var id: KeyID

    /// A flag.
    package init(post: KeyID, user: KeyID, id: KeyID = noKey) {
        self.post = post
        self.user = user
        self.id = id
    }
}

/// A stored timeline entry: `post` is in `user`'s stored timeline.
package struct TimelineEntry: Sendable, Equatable {
    /// The timeline owner's uid.
    package var user: KeyID
    /// The post key.
    package var post: KeyID
    /// The entry's copy of the poster's uid, or ``noKey``.
    package var posterUID: KeyID
    /// The key of the row that stores the entry (`timeline/{user}/{id}`), or ``noKey`` where the post is the key.
    package var id: KeyID

    /// A timeline entry.
    package init(user: KeyID, post: KeyID, posterUID: KeyID = noKey, id: KeyID = noKey) {
        self.user = user
        self.post = post
        self.posterUID = posterUID
        self.id = id
    }
}

/// A stored field that is missing or has the wrong JSON type, found while reading.
package struct FieldProblem: Sendable, Equatable {
    /// The database path of the field.
    package var path: String
    /// The type the schema expects, e.g. `number`.
    package var expected: String
    /// What was there, e.g. `string` or `missing`.
    package var actual: String

    /// A field problem.
    package init(path: String, expected: String, actual: String) {
        self.path = path
        self.expected = expected
        self.actual = actual
    }
}
