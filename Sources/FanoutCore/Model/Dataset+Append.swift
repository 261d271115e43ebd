extension Dataset {
    /// Appends the facts of `other`, read from the part of the same export that follows this one's, so that
    /// the result is what one reader going through both parts would have built.
    ///
    /// `other` interned its keys in a table of its own; they are interned here in `other`'s order, so keys
    /// new to this table get the ids a single reader would have given them, and every fact is renumbered.
    package mutating func append(_ other: consuming Dataset) {
        var other = other
        var ids = [KeyID](repeating: noKey, count: other.keys.count)
        for id in ids.indices {
            ids[id] = other.keys.withBytes(KeyID(id)) { keys.intern($0) }
        }
        // The other table (its slots take about a tenth of the export's size) is not needed any more: freed
        // before the facts are moved, when the merge holds the most memory.
        other.keys = KeyTable()
        ids.withUnsafeBufferPointer { ids in
            @inline(__always) func map(_ id: KeyID) -> KeyID { id == noKey ? noKey : ids[Int(id)] }
            users.append(renumbered: &other.users) { $0.key = map($0.key) }
            posts.append(renumbered: &other.posts) { post in
                post.key = map(post.key)
                post.pathOwner = map(post.pathOwner)
                post.ownerField = map(post.ownerField)
                post.posterCopyUID = map(post.posterCopyUID)
            }
            likes.append(renumbered: &other.likes) { $0 = Like(post: map($0.post), user: map($0.user), id: map($0.id)) }
            likeMirror.append(renumbered: &other.likeMirror) {
                $0 = Like(post: map($0.post), user: map($0.user), id: map($0.id))
            }
            following.append(renumbered: &other.following) {
                $0 = Follow(user: map($0.user), target: map($0.target), id: map($0.id))
            }
            followers.append(renumbered: &other.followers) {
                $0 = Follow(user: map($0.user), target: map($0.target), id: map($0.id))
            }
            timeline.append(renumbered: &other.timeline) {
                $0 = TimelineEntry(user: map($0.user), post: map($0.post), posterUID: map($0.posterUID))
            }
            postMirror.append(renumbered: &other.postMirror) { $0 = OwnedPost(user: map($0.user), post: map($0.post)) }
            flags.append(renumbered: &other.flags) { $0 = Flag(post: map($0.post), user: map($0.user), id: map($0.id)) }
        }
        // Paths were rendered to text while reading, so they need no renumbering.
        fieldProblems.append(contentsOf: other.fieldProblems)
    }
}

extension Array {
    /// Appends `other`'s elements, each changed by `renumber`; when this array is empty, `other`'s storage is
    /// taken over (leaving it empty) and changed in place instead of copied (the halves of an export rarely share a relation).
    fileprivate mutating func append(renumbered other: inout [Element], _ renumber: (inout Element) -> Void) {
        guard !other.isEmpty else { return }
        if isEmpty {
            swap(&self, &other)
            withUnsafeMutableBufferPointer { buffer in
                for i in buffer.indices { renumber(&buffer[i]) }
            }
        } else {
            reserveCapacity(count + other.count)
            for var element in other {
                renumber(&element)
                append(element)
            }
        }
    }
}
