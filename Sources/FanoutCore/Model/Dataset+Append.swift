extension Dataset {
    /// Appends the facts of `other`, read from the part of the same export that follows this one's, so that
    /// the result is what one reader going through both parts would have built.
    ///
    /// `other` interned its keys in a table of its own; they are interned here in `other`'s order, so keys
    /// new to this table get the ids a single reader would have given them, and every fact is renumbered.
    package mutating func append(_ other: consuming Dataset) {
        var other = other
        // Batched (``KeyQueue``): most of `other`'s keys are already here, each a cache miss to find.
        var queue = KeyQueue()
        for id in 0..<other.keys.count {
            other.keys.withBytes(KeyID(id)) { _ = queue.ticket($0, table: &keys) }
        }
        queue.flush(into: &keys)
        // The other table (its slots take about a tenth of the export's size) is not needed any more: freed
        // before the facts are moved, when the merge holds the most memory.
        other.keys = KeyTable()
        queue.withIDs { other.renumberKeys(since: FactCounts(), through: $0) }
        users.append(moving: &other.users)
        posts.append(moving: &other.posts)
        likes.append(moving: &other.likes)
        likeMirror.append(moving: &other.likeMirror)
        following.append(moving: &other.following)
        followers.append(moving: &other.followers)
        timeline.append(moving: &other.timeline)
        postMirror.append(moving: &other.postMirror)
        flags.append(moving: &other.flags)
        comments.append(moving: &other.comments)
        for i in declared.indices { declared[i].append(moving: &other.declared[i]) }
        fieldProblems.append(moving: &other.fieldProblems)
    }
}

extension Array {
    /// Appends `other`'s elements, leaving it empty; when this array is empty, `other`'s storage is taken over
    /// instead of copied (the halves of an export rarely share a relation).
    fileprivate mutating func append(moving other: inout [Element]) {
        guard !other.isEmpty else { return }
        if isEmpty {
            swap(&self, &other)
        } else {
            append(contentsOf: other)
            other = []
        }
    }
}
