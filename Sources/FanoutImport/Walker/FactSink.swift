import FanoutCore

/// Where the tree walker puts the facts it reads: ``DatasetSink`` fills the domain core (every command but
/// `tables`), a table writer streams them out as rows (`fanout tables`, docs/tables.md). The walker is generic over its
/// sink, so each one is compiled into its own walker and the core's read path pays nothing for the other.
///
/// Facts name keys by ``KeyID``, which the sink hands out: the core interns every key for the life of the
/// dataset; a streaming sink keeps only the keys of the facts being read (``keyMark`` and
/// ``releaseKeys(to:)``), so its memory does not grow with the export.
///
/// `position` is where the fact ends in the export (plus the walker's ``TreeWalker/positionBase``): facts of a
/// relation come in increasing position, whichever walker of a split read found them.
package protocol FactSink {
    /// The id of the key whose bytes are `bytes`, valid until ``releaseKeys(to:)`` passes it.
    mutating func key(_ bytes: UnsafeRawBufferPointer) -> KeyID
    /// The id of the key `text`.
    mutating func key(_ text: String) -> KeyID
    /// A mark of the keys handed out so far, taken before a level of the tree is read.
    var keyMark: Int { get }
    /// Forgets the keys handed out since `mark`, after that level of the tree was read.
    mutating func releaseKeys(to mark: Int)
    /// Called once before reading `region` bytes of an export of `total` bytes (all of them, or a walker's part of
    /// a split read).
    mutating func prepare(reading region: Int, of total: Int)
    /// Called where the walker holds no key it was handed (between members of a level above every capture), so
    /// that a sink whose ids are provisional may make the ones handed out so far final now.
    mutating func settleKeys()
    /// Called when the walker has read its part of the export (the whole tree, its half of a split read, a Parse
    /// class file): the facts handed over so far must be final, as ``append(_:)`` and the sink's owner see them.
    mutating func completeFacts()

    /// A user.
    mutating func user(_ user: User, position: Int)
    /// A field of the post that ``post(_:position:)`` hands over next is missing or of the wrong type.
    mutating func fieldProblem(_ post: Post, field: FieldPath, expected: String, actual: String)
    /// A post.
    mutating func post(_ post: Post, position: Int)
    /// A like in the like set.
    mutating func like(_ like: Like, position: Int)
    /// A like in the like set's mirror (`user-likes`).
    mutating func mirroredLike(_ like: Like, position: Int)
    /// A follow under `following`.
    mutating func following(_ follow: Follow, position: Int)
    /// A follow under `followers`.
    mutating func follower(_ follow: Follow, position: Int)
    /// A stored timeline entry.
    mutating func timelineEntry(_ entry: TimelineEntry, position: Int)
    /// An entry of the post ownership mirror (`user-posts`).
    mutating func ownedPost(_ entry: OwnedPost, position: Int)
    /// A flag.
    mutating func flag(_ flag: Flag, position: Int)
    /// A comment.
    mutating func comment(_ comment: Comment, position: Int)
    /// A row of the declared row set `set` (``RowSets``): its keys (valid during the call) and its value.
    mutating func declaredRow(_ set: Int, keys: UnsafeBufferPointer<KeyID>, value: StoredValue, position: Int)

    /// Whether the sink cannot take more facts (an output failed): the walker then stops at its next checkpoint.
    var hasFailed: Bool { get }
    /// Takes over the facts of `other`, read from the part of the same export that follows this sink's, leaving
    /// `other` without them (inout rather than consuming, so that no second reference to its storage is left
    /// while they are merged).
    mutating func append(_ other: inout Self)
}

/// The sink that fills the domain core.
///
/// Keys are interned in batches (``KeyQueue``): ``key(_:)-(UnsafeRawBufferPointer)`` hands out a ticket, which
/// facts carry until ``completeFacts()`` renumbers them to the keys' ids, so that the lookups' cache misses overlap
/// (docs/performance.md "The read phase beside JSON parsers").
package struct DatasetSink: FactSink {
    /// What was read, its records' stored keys indexed.
    package var dataset: Dataset {
        var dataset = filled
        dataset.indexStoredKeys()
        return dataset
    }
    private var filled: Dataset
    private var queue = KeyQueue()
    /// Where the facts that still name tickets begin.
    private var ticketed = Dataset.FactCounts()

    package init(schema: Schema) { filled = Dataset(schema: schema) }

    @inline(__always) package mutating func key(_ bytes: UnsafeRawBufferPointer) -> KeyID {
        queue.ticket(bytes, table: &filled.keys)
    }
    package mutating func key(_ text: String) -> KeyID {
        var text = text
        return text.withUTF8 { key(UnsafeRawBufferPointer($0)) }
    }
    // Interned keys live as long as the dataset: nothing to release.
    @inline(__always) package var keyMark: Int { 0 }
    @inline(__always) package mutating func releaseKeys(to mark: Int) {}

    /// Sizes the key table for an export of `total` bytes at one distinct key per kilobyte, what Makestagram
    /// exports hold (1.1 M keys in 1.1 GB). Both walkers of a split read size it for the whole export: each sees
    /// nearly every key (the second half of a Makestagram export is its timelines). A table that turns out too
    /// small still grows; one too large costs about a tenth of the export's size.
    ///
    /// The facts' arrays are sized for the walker's `region` (``Dataset/reserveCapacity(forBytes:)``).
    package mutating func prepare(reading region: Int, of total: Int) {
        guard total >= 1 << 20 else { return }
        filled.keys.reserveCapacity(total / 1024)
        filled.reserveCapacity(forBytes: region)
    }

    @inline(__always) package mutating func user(_ user: User, position: Int) { filled.users.append(user) }
    package mutating func fieldProblem(_ post: Post, field: FieldPath, expected: String, actual: String) {
        // The path names the post's keys, so their tickets are resolved now (field problems are rare).
        queue.flush(into: &filled.keys)
        var post = post
        queue.withIDs { post.renumberKeys(through: $0) }
        filled.fieldProblems.append(
            FieldProblem(path: filled.path(of: post, field: field), expected: expected, actual: actual))
    }

    /// Interns the keys still queued and renumbers the facts read since the last call from tickets to ids.
    package mutating func completeFacts() {
        settle()
        queue.freeIDs()
    }

    /// Settles the tickets handed out so far once there are ``settledTickets`` of them: renumbering the facts
    /// every so often, rather than all at the end, keeps the tickets' ids few (in the caches, and no fresh memory
    /// for an id per key read) and finds the facts still in the caches too.
    @inline(__always) package mutating func settleKeys() {
        if queue.ticketCount >= Self.settledTickets { settle() }
    }

    private static let settledTickets = 1 << 16

    private mutating func settle() {
        queue.flush(into: &filled.keys)
        queue.withIDs { filled.renumberKeys(since: ticketed, through: $0) }
        queue.reset(into: &filled.keys)
        ticketed = filled.factCounts
    }
    @inline(__always) package mutating func post(_ post: Post, position: Int) { filled.posts.append(post) }
    @inline(__always) package mutating func like(_ like: Like, position: Int) { filled.likes.append(like) }
    @inline(__always) package mutating func mirroredLike(_ like: Like, position: Int) {
        filled.likeMirror.append(like)
    }
    @inline(__always) package mutating func following(_ follow: Follow, position: Int) {
        filled.following.append(follow)
    }
    @inline(__always) package mutating func follower(_ follow: Follow, position: Int) {
        filled.followers.append(follow)
    }
    @inline(__always) package mutating func timelineEntry(_ entry: TimelineEntry, position: Int) {
        filled.timeline.append(entry)
    }
    @inline(__always) package mutating func ownedPost(_ entry: OwnedPost, position: Int) {
        filled.postMirror.append(entry)
    }
    @inline(__always) package mutating func flag(_ flag: Flag, position: Int) { filled.flags.append(flag) }
    @inline(__always) package mutating func comment(_ comment: Comment, position: Int) {
        filled.comments.append(comment)
    }
    @inline(__always) package mutating func declaredRow(
        _ set: Int, keys: UnsafeBufferPointer<KeyID>, value: StoredValue, position: Int
    ) {
        filled.declared[set].append(keys: keys, value: value)
    }

    package var hasFailed: Bool { false }
    package mutating func append(_ other: inout DatasetSink) {
        var taken = Dataset(schema: other.filled.schema)
        swap(&taken, &other.filled)
        filled.append(consume taken)
    }
}

extension TreeWalker where Sink == DatasetSink {
    /// A walker that fills a dataset laid out as `schema`.
    init(schema: Schema) throws(InputError) { try self.init(schema: schema, sink: DatasetSink(schema: schema)) }

    /// What the walker read.
    var dataset: Dataset { sink.dataset }
}
