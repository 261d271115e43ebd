extension Dataset {
    /// Makes room for the facts of about `bytes` bytes of an export laid out as ``schema``, so that reading them
    /// does not grow the arrays: each growth copied an array into fresh memory, a page fault every 4 KB, and
    /// growing took a fifth of the read's time (docs/performance.md "The read phase beside JSON parsers").
    ///
    /// The room is what dense exports need: an edge or a timeline entry in 32 bytes of JSON, a post in 256, a
    /// user in 1 KB (Makestagram exports take 40, 70, 340 and 5,500). Room never written costs address space,
    /// not memory: a page is given to the process when first written. Relations the schema lacks get none. The
    /// arrays are in 2 MB pages, a page fault each instead of 512.
    package mutating func reserveCapacity(forBytes bytes: Int) {
        let edges = bytes / 32
        if schema.users != nil { reserve(&users, bytes / 1024) }
        if schema.posts != nil { reserve(&posts, bytes / 256) }
        if schema.likes != nil { reserve(&likes, edges) }
        if schema.likeMirror != nil { reserve(&likeMirror, edges) }
        if schema.following != nil { reserve(&following, edges) }
        if schema.followers != nil { reserve(&followers, edges) }
        if schema.timeline != nil { reserve(&timeline, edges) }
        if schema.postMirror != nil { reserve(&postMirror, edges) }
        if schema.flags != nil { reserve(&flags, edges) }
        if schema.comments != nil { reserve(&comments, bytes / 128) }
    }

    /// Makes room for `count` facts in `facts`, in 2 MB pages (``HugePages``).
    private func reserve<Fact>(_ facts: inout [Fact], _ count: Int) {
        facts.reserveCapacity(count)
        HugePages.advise(&facts)
    }
}
