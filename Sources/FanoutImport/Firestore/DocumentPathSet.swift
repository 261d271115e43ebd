/// The paths of the documents read so far, kept as hashes beside where each document's record is, so that a path
/// stored twice is found across chunks without holding every path; a hash seen before is checked against the
/// earlier records' paths, read again, so a collision never makes a document a duplicate.
struct DocumentPathSet {
    /// Per hash, the first record with it, and any later ones whose paths only share the hash.
    private var first: [Int: Int] = [:]
    private var more: [Int: [Int]] = [:]
    /// The `output-N` files the places are in.
    let files: [String]
    /// The export, for messages.
    let source: String

    init(files: [String], source: String) {
        self.files = files
        self.source = source
    }

    /// A document's path, given as its segments' bytes, as the set keeps it (the same in every thread of one
    /// process).
    static func hash(_ segments: some Collection<UnsafeRawBufferPointer>) -> Int {
        var hasher = Hasher()
        hasher.combine(segments.count)
        for segment in segments { combine(segment, into: &hasher) }
        return hasher.finalize()
    }

    private static func combine(_ segment: UnsafeRawBufferPointer, into hasher: inout Hasher) {
        hasher.combine(segment.count)
        hasher.combine(bytes: segment)
    }

    /// Where a document's record is: its file's index and its byte offset, in one integer.
    static func place(file: Int, offset: Int) -> Int { file << 44 | offset }

    /// Adds the path of the document at `place`, whose hash is `hash`; returns the path when a document with it
    /// was added before, nil otherwise.
    mutating func insert(hash: Int, place: Int) throws(InputError) -> [String]? {
        guard let earlier = first[hash] else {
            first[hash] = place
            return nil
        }
        let segments = try path(at: place)
        for other in [earlier] + (more[hash] ?? []) where try path(at: other) == segments {
            return segments
        }
        more[hash, default: []].append(place)
        return nil
    }

    /// Adds the paths of `other` (a later run of the same export's records); returns the first of them, in the
    /// tree's order, that was added before, nil when none was.
    mutating func insert(contentsOf other: DocumentPathSet) throws(InputError) -> [String]? {
        var duplicate: [String]?
        for (hash, place) in other.first {
            for place in [place] + (other.more[hash] ?? []) {
                if let path = try insert(hash: hash, place: place),
                    duplicate.map({ DocumentJSON.precedes(path, $0) }) ?? true
                {
                    duplicate = path
                }
            }
        }
        return duplicate
    }

    /// The path of the record at `place`, read again.
    private func path(at place: Int) throws(InputError) -> [String] {
        try FirestoreRecords.segments(files: files, file: place >> 44, offset: place & (1 << 44 - 1))
    }
}
