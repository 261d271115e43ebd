import FanoutJSON

/// Documents as the pieces of their JSON tree: each one's path segments and its fields as JSON members, put in
/// path order and nested by ``tree()`` (see ``DocumentJSON/tree(_:)``, which is this made from documents).
///
/// A chunk of an export's records is added record by record (``add(record:)``), most through ``EntityJSON``, so
/// that no document is made of strings and arrays only to be written out again.
struct DocumentFragments: RecordTarget {
    private var segments = SegmentList()
    /// (Plain copies into a block: a record's dozens of small pieces through an array's append each checked
    /// its uniqueness and capacity. A copy of the value shares the block, so only one copy is written to.)
    private var members: [UInt8] = []
    /// Per document: the index of its first segment, and where its members end in `members` (they start where
    /// the document before it ends).
    private var documents: [(firstSegment: Int, membersEnd: Int)] = []
    /// ``EntityJSON``'s scratch list of array names.
    private var arrays: [UnsafeRawBufferPointer] = []

    var count: Int { documents.count }

    /// Adds the document of `record`, unless ``EntityJSON`` declines it; false then, and nothing is added.
    mutating func add(record: UnsafeRawBufferPointer) -> Bool {
        let (segmentCount, memberCount) = (segments.count, members.count)
        do throws(ProtoReader.Malformed) {
            try EntityJSON.decode(record, segments: &segments, members: &members, arrays: &arrays)
        } catch {
            segments.removeSegments(from: segmentCount)
            members.removeSubrange(memberCount...)
            arrays.removeAll(keepingCapacity: true)
            return false
        }
        documents.append((segmentCount, members.count))
        return true
    }

    mutating func add(record: UnsafeRawBufferPointer, file: Int, offset: Int) throws(EntityDecoder.Failure) {
        if !add(record: record) { add(try EntityDecoder.document(record)) }
    }

    /// Drops every document, keeping the storage for the next ones (a chunk's, made on the same thread).
    mutating func removeAll() {
        segments.removeAll()
        members.removeAll(keepingCapacity: true)
        documents.removeAll(keepingCapacity: true)
    }

    /// Appends `other`'s documents after these.
    mutating func append(_ other: DocumentFragments) {
        let (segmentBase, memberBase) = (segments.count, members.count)
        other.segments.withSegments { segment in
            for index in 0..<other.segments.count { segments.append(segment(index)) }
        }
        members += other.members
        documents += other.documents.map { ($0.firstSegment + segmentBase, $0.membersEnd + memberBase) }
    }

    /// Adds `document`.
    mutating func add(_ document: FirestoreDocument) {
        let first = segments.count
        for segment in document.segments { segments.append(segment) }
        var written: [UInt8] = []
        DocumentJSON.appendMembers(document.fields, typed: false, to: &written)
        members += written
        documents.append((first, members.count))
    }

    /// Document `index`'s segments: the index of the first, and how many.
    private func segmentRange(_ index: Int) -> Range<Int> {
        let first = documents[index].firstSegment
        return first..<(index + 1 < documents.count ? documents[index + 1].firstSegment : segments.count)
    }

    /// Document `index`'s path, `users/abc`.
    func path(_ index: Int) -> String {
        segmentRange(index).map(segments.string).joined(separator: "/")
    }

    /// ``DocumentPathSet/hash(_:)`` of document `index`'s path.
    func pathHash(_ index: Int) -> Int {
        segments.withSegments { segment in DocumentPathSet.hash(segmentRange(index).lazy.map(segment)) }
    }

    /// Document `index`'s collection at the top level.
    func collection(_ index: Int) -> String { segments.string(documents[index].firstSegment) }

    /// Whether two documents are in one collection at the top level.
    func sameCollection(_ a: Int, _ b: Int) -> Bool {
        segments.withSegments { segment in
            SegmentList.equal(segment(documents[a].firstSegment), segment(documents[b].firstSegment))
        }
    }

    /// The documents as one JSON tree: collections hold documents by ID, documents hold their fields and their
    /// subcollections; a document that does not exist but has subcollections holds `".absent": true`. Throws
    /// naming the document when one path is there twice.
    func tree() throws(DocumentJSON.DuplicateDocument) -> [UInt8] {
        var out: [UInt8] = []
        try tree(into: &out)
        return out
    }

    /// ``tree()`` written into `out`, replacing what it held (its storage is reused).
    func tree(into out: inout [UInt8]) throws(DocumentJSON.DuplicateDocument) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(members.count + segments.count * 24 + 2)
        let duplicate = segments.withSegments { segment -> Int? in
            func precedes(_ a: Int, _ b: Int) -> Bool {
                let (x, y) = (segmentRange(a), segmentRange(b))
                for (i, j) in zip(x, y) where !SegmentList.equal(segment(i), segment(j)) {
                    return SegmentList.precedes(segment(i), segment(j))
                }
                return x.count < y.count
            }
            var order = Array(documents.indices)
            // Records come in path order nearly always; sorting only when they do not saves the sort's compares.
            if zip(order, order.dropFirst()).contains(where: { !precedes($0, $1) }) {
                order.sort(by: precedes)
            }
            out.append(UInt8(ascii: "{"))
            // The open path (its segments' indices), and per open level whether it has a member yet (0: the root).
            var open: [Int] = []
            var hasMembers = [false]
            for index in order {
                let range = segmentRange(index)
                var common = 0
                while common < open.count, common < range.count,
                    SegmentList.equal(segment(open[common]), segment(range.lowerBound + common))
                {
                    common += 1
                }
                if common == range.count { return index }
                while open.count > common {
                    open.removeLast()
                    hasMembers.removeLast()
                    out.append(UInt8(ascii: "}"))
                }
                for level in common..<range.count {
                    if hasMembers[level] { out.append(UInt8(ascii: ",")) }
                    hasMembers[level] = true
                    JSONWriter.appendQuoted(segment(range.lowerBound + level), to: &out)
                    out.append(contentsOf: ":{".utf8)
                    open.append(range.lowerBound + level)
                    hasMembers.append(false)
                    // A document level above the one stored (an odd level): a parent that does not exist.
                    if level % 2 == 1, level < range.count - 1 {
                        out.append(contentsOf: #"".absent":true"#.utf8)
                        hasMembers[level + 1] = true
                    }
                }
                let start = index == 0 ? 0 : documents[index - 1].membersEnd
                if documents[index].membersEnd > start {
                    if hasMembers[range.count] { out.append(UInt8(ascii: ",")) }
                    hasMembers[range.count] = true
                    out.append(contentsOf: members[start..<documents[index].membersEnd])
                }
            }
            for _ in open { out.append(UInt8(ascii: "}")) }
            out.append(UInt8(ascii: "}"))
            return nil
        }
        if let duplicate { throw DocumentJSON.DuplicateDocument(path: path(duplicate)) }
    }
}
