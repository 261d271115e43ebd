/// A fact that names keys by ``KeyID``: its ids change when keys are renumbered (the merge of a split read's
/// halves, the tickets of batched interning; see ``Dataset/renumberKeys(since:through:)``).
package protocol KeyedFact {
    /// Replaces each id other than ``noKey`` by `ids[id]`.
    mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>)
}

extension UnsafeBufferPointer where Element == KeyID {
    /// The new id of `id`; ``noKey`` stays.
    @inline(__always) fileprivate func map(_ id: KeyID) -> KeyID { id == noKey ? noKey : self[Int(id)] }
}

extension User: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        key = ids.map(key)
        storedKey = ids.map(storedKey)
    }
}

extension Post: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        key = ids.map(key)
        pathOwner = ids.map(pathOwner)
        ownerField = ids.map(ownerField)
        posterCopyUID = ids.map(posterCopyUID)
        storedKey = ids.map(storedKey)
    }
}

extension Like: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        self = Like(post: ids.map(post), user: ids.map(user), id: ids.map(id))
    }
}

extension Follow: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        self = Follow(user: ids.map(user), target: ids.map(target), id: ids.map(id))
    }
}

extension TimelineEntry: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        self = TimelineEntry(user: ids.map(user), post: ids.map(post), posterUID: ids.map(posterUID), id: ids.map(id))
    }
}

extension OwnedPost: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        self = OwnedPost(user: ids.map(user), post: ids.map(post), id: ids.map(id))
    }
}

extension Comment: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        id = ids.map(id)
        post = ids.map(post)
        user = ids.map(user)
        storedID = ids.map(storedID)
    }
}

extension Flag: KeyedFact {
    @inline(__always) package mutating func renumberKeys(through ids: UnsafeBufferPointer<KeyID>) {
        self = Flag(post: ids.map(post), user: ids.map(user), id: ids.map(id))
    }
}

extension Dataset {
    /// How many facts of each relation a dataset holds: where the facts added after that moment begin.
    package struct FactCounts: Sendable {
        var users = 0, posts = 0, likes = 0, likeMirror = 0, following = 0, followers = 0, timeline = 0, postMirror = 0,
            flags = 0, comments = 0
        /// Rows per declared row set (a set not listed has none).
        var declared: [Int] = []

        /// No facts: everything is added after it.
        package init() {}

        init(
            users: Int, posts: Int, likes: Int, likeMirror: Int, following: Int, followers: Int, timeline: Int,
            postMirror: Int,
            flags: Int, comments: Int, declared: [Int]
        ) {
            (self.users, self.posts, self.likes, self.likeMirror) = (users, posts, likes, likeMirror)
            (self.following, self.followers, self.timeline, self.postMirror, self.flags) = (
                following, followers, timeline, postMirror, flags
            )
            (self.comments, self.declared) = (comments, declared)
        }
    }

    /// How many facts of each relation the dataset holds now.
    package var factCounts: FactCounts {
        FactCounts(
            users: users.count, posts: posts.count, likes: likes.count, likeMirror: likeMirror.count,
            following: following.count, followers: followers.count, timeline: timeline.count,
            postMirror: postMirror.count, flags: flags.count, comments: comments.count, declared: declared.map(\.count))
    }

    /// Renumbers the keys of the facts added since `start`: each id other than ``noKey`` becomes `ids[id]`.
    /// (Field problems hold rendered paths, not ids.)
    package mutating func renumberKeys(since start: FactCounts, through ids: UnsafeBufferPointer<KeyID>) {
        users.renumberKeys(from: start.users, ids)
        posts.renumberKeys(from: start.posts, ids)
        likes.renumberKeys(from: start.likes, ids)
        likeMirror.renumberKeys(from: start.likeMirror, ids)
        following.renumberKeys(from: start.following, ids)
        followers.renumberKeys(from: start.followers, ids)
        timeline.renumberKeys(from: start.timeline, ids)
        postMirror.renumberKeys(from: start.postMirror, ids)
        flags.renumberKeys(from: start.flags, ids)
        comments.renumberKeys(from: start.comments, ids)
        for i in declared.indices {
            declared[i].renumberKeys(from: i < start.declared.count ? start.declared[i] : 0, ids)
        }
    }
}

extension Array where Element: KeyedFact {
    fileprivate mutating func renumberKeys(from start: Int, _ ids: UnsafeBufferPointer<KeyID>) {
        guard start < count else { return }
        withUnsafeMutableBufferPointer { facts in
            for i in start..<facts.count { facts[i].renumberKeys(through: ids) }
        }
    }
}
