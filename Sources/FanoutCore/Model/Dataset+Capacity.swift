extension Dataset {
    /// Makes room for the facts of about `bytes` bytes of an export laid out as ``schema``, so that reading them
    /// does not grow the arrays: each growth copied an array into fresh memory, a page fault every 4 KB, and
    /// growing took a fifth of the read's time (README "Performance").
    ///
    /// The room is what dense exports need: an edge or a timeline entry in 32 bytes of JSON, a post in 256, a
    /// user in 1 KB (Makestagram exports take 40, 70, 340 and 5,500). Room never written costs address space,
    /// not memory: a page is given to the process when first written. Relations the schema lacks get none.
    package mutating func reserveCapacity(forBytes bytes: Int) {
        let edges = bytes / 32
        if schema.users != nil { users.reserveCapacity(bytes / 1024) }
        if schema.posts != nil { posts.reserveCapacity(bytes / 256) }
        if schema.likes != nil { likes.reserveCapacity(edges) }
        if schema.likeMirror != nil { likeMirror.reserveCapacity(edges) }
        if schema.following != nil { following.reserveCapacity(edges) }
        if schema.followers != nil { followers.reserveCapacity(edges) }
        if schema.timeline != nil { timeline.reserveCapacity(edges) }
        if schema.postMirror != nil { postMirror.reserveCapacity(edges) }
        if schema.flags != nil { flags.reserveCapacity(edges) }
    }
}
