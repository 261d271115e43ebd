import FanoutCore
import FanoutJSON

/// Where a ``TableRowSink`` hands its rows: the part files of `fanout tables`, which FanoutExport stages.
/// Called with about a megabyte of rows at a time, so its cost per call does not matter.
package protocol RowOutput: AnyObject {
    /// Appends `bytes`, whole rows of `table`, to the table's current part, starting one when there is none.
    /// False when the output failed (the output keeps its error); the sink then stops writing.
    func append(_ bytes: UnsafeRawBufferPointer, to table: Table) -> Bool
    /// Ends the current part of `table`, if any: the next rows start a new one.
    func endPart(of table: Table) -> Bool
    /// Takes over the parts of `other`, written by the sink of the part of the export after this output's sink.
    func append(_ other: any RowOutput)
}

/// The walker's second sink (see ``FactSink``): each fact becomes a row of newline-delimited JSON as it is read,
/// for `fanout tables` (docs/tables.md).
///
/// Nothing is kept across facts: keys live in a small stack that the walker unwinds level by level, rows go
/// through a buffer of about a megabyte per table to the ``RowOutput``, so memory does not grow with the export.
/// `key-invalid` is decided here, per key, as facts are read. It lives next to the walker, in this module, so
/// that the walker is compiled for it (a sink in another module would be called through generic witnesses).
package struct TableRowSink: FactSink {
    private let output: RowOutput
    private let rowsPerFile: Int?
    private var keys = KeyStack()
    private var buffers: [ByteBuffer]
    /// Per table: rows written, and rows in the current part.
    private var rows: [Int], rowsInPart: [Int]
    /// The field problems of the post being read.
    private var problems: [FieldNote] = []
    /// Per table, the bytes around its values: column names and the relation's path.
    private let formats: [RowFormat]
    /// Per byte value, its ``KeyStack`` flags: the JSON and Firebase rules, asked once per byte value.
    private let byteFlags: [UInt8] = (0...255).map { byte in
        (JSONWriter.needsEscape(UInt8(byte)) ? KeyStack.needsEscape : 0)
            | (FirebaseKey.isForbidden(UInt8(byte)) ? KeyStack.mayBeInvalid : 0)
    }
    /// Per declared row set, its name, role and path pieces.
    private let declaredFormats: [DeclaredFormat]
    /// Whether keys are checked for `key-invalid`, which applies to Firebase trees only.
    private let checksKeys: Bool
    package private(set) var hasFailed = false

    /// A sink writing the rows of an export laid out as `schema` to `output`; `rowsPerFile` limits each part.
    /// The sink of the first walker (`writesSchemaRows`) also writes the `key-invalid` rows that come from the
    /// schema alone.
    package init(schema: Schema, output: RowOutput, rowsPerFile: Int?, writesSchemaRows: Bool) {
        self.output = output
        self.rowsPerFile = rowsPerFile
        let count = Table.allCases.count
        buffers = (0..<count).map { _ in ByteBuffer(capacity: Self.flushBytes + (1 << 16)) }
        rows = Array(repeating: 0, count: count)
        rowsInPart = rows
        formats = Table.allCases.map { table in
            let pattern: PathPattern? =
                switch table {
                case .users: schema.users?.pattern
                case .posts: schema.posts?.pattern
                case .likes: schema.likes?.pattern
                case .likeMirror: schema.likeMirror?.pattern
                case .following: schema.following?.pattern
                case .followers: schema.followers?.pattern
                case .timeline: schema.timeline?.pattern
                case .flags: schema.flags?.pattern
                case .postMirror: schema.postMirror?.pattern
                case .comments: schema.comments?.pattern
                case .keyProblems, .declared: nil
                }
            return RowFormat(table, pattern)
        }
        checksKeys = schema.format == .firebase
        declaredFormats = RowSets(schema).sets.map(DeclaredFormat.init)
        if writesSchemaRows, checksKeys {
            for problem in FirebaseKey.depthProblems(in: schema) { depthRow(problem) }
        }
    }

    /// Rows are handed to the output in pieces of about this size.
    private static var flushBytes: Int { 1 << 20 }

    /// Per table, the rows written.
    package var rowCounts: [Int] { rows }

    // MARK: keys

    package mutating func key(_ bytes: UnsafeRawBufferPointer) -> KeyID { keys.push(bytes, byteFlags) }

    package mutating func key(_ text: String) -> KeyID {
        var text = text
        return text.withUTF8 { keys.push(UnsafeRawBufferPointer($0), byteFlags) }
    }

    package var keyMark: Int { keys.count }

    package mutating func releaseKeys(to mark: Int) { keys.pop(to: mark) }

    package mutating func prepare(reading region: Int, of total: Int) {}
    // Keys are released level by level (``releaseKeys(to:)``): nothing to settle.
    package mutating func settleKeys() {}
    // Rows are written as facts arrive: nothing is held back.
    package mutating func completeFacts() {}

    // MARK: facts

    package mutating func user(_ user: User, position: Int) {
        let path = PathKeys(user: user.key)
        let t = Table.users.index
        guard startRow(t) else { return }
        RowText.user(&buffers[t], formats[t], keys, path, position, user)
        endRow(t)
        checkKeys(.users, path, position)
    }

    package mutating func fieldProblem(_ post: Post, field: FieldPath, expected: String, actual: String) {
        problems.append(FieldNote(field: field, expected: expected, actual: actual))
    }

    package mutating func post(_ post: Post, position: Int) {
        let path = PathKeys(post: post.key, poster: post.pathOwner)
        let t = Table.posts.index
        if startRow(t) {
            RowText.post(&buffers[t], formats[t], keys, path, position, post, problems)
            endRow(t)
        }
        problems.removeAll(keepingCapacity: true)
        checkKeys(.posts, path, position)
    }

    package mutating func like(_ like: Like, position: Int) { edge(.likes, like.post, like.user, like.id, position) }
    package mutating func mirroredLike(_ like: Like, position: Int) {
        edge(.likeMirror, like.post, like.user, like.id, position)
    }
    package mutating func following(_ follow: Follow, position: Int) {
        edge(.following, follow.user, follow.target, follow.id, position)
    }
    package mutating func follower(_ follow: Follow, position: Int) {
        edge(.followers, follow.user, follow.target, follow.id, position)
    }
    package mutating func flag(_ flag: Flag, position: Int) { edge(.flags, flag.post, flag.user, flag.id, position) }
    package mutating func ownedPost(_ entry: OwnedPost, position: Int) {
        edge(.postMirror, entry.user, entry.post, entry.id, position)
    }

    package mutating func comment(_ comment: Comment, position: Int) {
        let path = PathKeys(user: comment.user, post: comment.post, id: comment.id)
        let t = Table.comments.index
        guard startRow(t) else { return }
        RowText.comment(&buffers[t], formats[t], keys, path, position, comment)
        endRow(t)
    }

    package mutating func declaredRow(
        _ set: Int, keys rowKeys: UnsafeBufferPointer<KeyID>, value: StoredValue, position: Int
    ) {
        let t = Table.declared.index
        guard startRow(t) else { return }
        RowText.declared(&buffers[t], formats[t], declaredFormats[set], keys, rowKeys, position, value)
        endRow(t)
    }

    /// A like, a mirrored like or a flag (`a` the post, `b` the user), a follow (`a` the user, `b` the target), or an
    /// entry of the post mirror (`a` the user, `b` the post).
    private mutating func edge(_ table: Table, _ a: KeyID, _ b: KeyID, _ id: KeyID, _ position: Int) {
        let path =
            table == .following || table == .followers
            ? PathKeys(user: a, target: b, id: id)
            : table == .postMirror ? PathKeys(user: a, post: b, id: id) : PathKeys(user: b, post: a, id: id)
        let t = table.index
        guard startRow(t) else { return }
        RowText.edge(&buffers[t], formats[t], keys, path, position, a, b, id)
        endRow(t)
        checkKeys(table, path, position)
    }

    package mutating func timelineEntry(_ entry: TimelineEntry, position: Int) {
        let path = PathKeys(user: entry.user, post: entry.post, id: entry.id)
        let t = Table.timeline.index
        guard startRow(t) else { return }
        RowText.timelineEntry(&buffers[t], formats[t], keys, path, position, entry)
        endRow(t)
        checkKeys(.timeline, path, position)
    }

    // MARK: key-invalid

    /// Writes a `key_problems` row for each invalid key the fact's path captures (the first capture of a key
    /// only) with the path up to it: `key-invalid` reports each invalid key at the first such row in its search
    /// order (``Table/keySearchRank``, then `seq`).
    private mutating func checkKeys(_ table: Table, _ path: PathKeys, _ position: Int) {
        guard checksKeys, let rank = table.keySearchRank else { return }
        let pieces = formats[table.index].pieces
        for (index, piece) in pieces.enumerated() {
            guard let capture = piece.capture else { continue }
            let id = path[capture]
            // Almost every key is valid, which its flags tell without reading it again.
            guard id != noKey, keys.mayBeInvalid(id) else { continue }
            let invalid = keys.withView { view -> (problem: String, key: String)? in
                guard let problem = FirebaseKey.problem(view[id]) else { return nil }
                let repeated = pieces[..<index].contains { earlier in
                    guard let other = earlier.capture, path[other] != noKey else { return false }
                    return view[path[other]].elementsEqual(view[id])
                }
                return repeated ? nil : (problem, String(decoding: view[id], as: UTF8.self))
            }
            guard let invalid else { continue }
            let t = Table.keyProblems.index
            guard startRow(t) else { return }
            RowText.keyProblem(
                &buffers[t], formats[t], formats[table.index], keys, path, position, through: index,
                table: table, rank: rank, key: invalid.key, problem: invalid.problem)
            endRow(t)
        }
    }

    /// A relation the schema stores too deep: a `key-invalid` finding of the schema's, written once.
    private mutating func depthRow(_ problem: FirebaseKey.DepthProblem) {
        let t = Table.keyProblems.index
        guard startRow(t) else { return }
        RowText.depthProblem(&buffers[t], formats[t], problem)
        endRow(t)
    }

    // MARK: parts

    /// Before a row of table index `t`: false when the output failed; ends the part when it is full.
    private mutating func startRow(_ t: Int) -> Bool {
        guard !hasFailed else { return false }
        if let rowsPerFile, rowsInPart[t] == rowsPerFile { endPart(t) }
        return !hasFailed
    }

    private mutating func endRow(_ t: Int) {
        buffers[t].append(UInt8(ascii: "}"))
        buffers[t].append(UInt8(ascii: "\n"))
        rows[t] += 1
        rowsInPart[t] += 1
        if buffers[t].count >= Self.flushBytes { flush(t) }
    }

    /// Hands the buffered rows of table index `t` to the output.
    private mutating func flush(_ t: Int) {
        guard !hasFailed, buffers[t].count > 0 else { return }
        let table = Table.allCases[t]
        let output = self.output
        if !output.append(buffers[t].bytes, to: table) { hasFailed = true }
        buffers[t].removeAll()
    }

    private mutating func endPart(_ t: Int) {
        flush(t)
        rowsInPart[t] = 0
        if !hasFailed, !output.endPart(of: Table.allCases[t]) { hasFailed = true }
    }

    /// Writes what is buffered and ends every part; call once the walk is done.
    package mutating func finish() {
        for t in buffers.indices { endPart(t) }
    }

    /// Takes over the rows of `other`, which read the part of the export after this sink's and wrote its own
    /// parts: the output puts those after this sink's (see ``RowOutput``).
    package mutating func append(_ other: inout TableRowSink) {
        finish()
        other.finish()
        output.append(other.output)
        for t in rows.indices { rows[t] += other.rows[t] }
        hasFailed = hasFailed || other.hasFailed
    }
}

extension ExportLoader {
    /// Reads the export at `path` into table row sinks: ``read(path:schema:progress:streaming:splitTarget:sink:)``
    /// with the sink type named here, so that the walker is compiled for it in this module (a generic call from
    /// another module would run the walker's unspecialized code).
    package static func readRows(
        path: String, schema: Schema?, progress: ((_ read: Int, _ total: Int) -> Void)?, splitTarget: Int??,
        sink makeSink: (Schema) -> TableRowSink
    ) throws(InputError) -> TableRowSink {
        try read(
            path: path, schema: schema, progress: progress, streaming: true, splitTarget: splitTarget, sink: makeSink)
    }
}

/// A field of a post that is missing or of the wrong type (`post-field`), for the post's row.
struct FieldNote {
    let field: FieldPath
    let expected: String
    let actual: String
}

/// The keys a fact's path captures, by capture name.
struct PathKeys {
    var user = noKey, post = noKey, poster = noKey, target = noKey, id = noKey

    subscript(capture: PathPiece.Capture) -> KeyID {
        switch capture {
        case .user: user
        case .post: post
        case .poster: poster
        case .target: target
        case .id: id
        }
    }
}

/// A segment of a relation's pattern: a capture, or literal bytes of its ``RowFormat``.
struct PathPiece {
    enum Capture: String { case user, post, poster, target, id }
    /// The capture, or nil for a literal key.
    let capture: Capture?
    /// The literal key, or the capture's placeholder (`{id}`) written when the fact has no key there (as the
    /// core's paths, `Dataset+Paths.swift`, write it), escaped for JSON: a range of ``RowFormat/text``.
    let text: Range<Int>
}

/// What a table's rows hold besides values, as bytes: each column's `{"name":` (first) or `,"name":`, and
/// the pieces of the relation's path. Kept in a few flat arrays, so that writing a row retains few objects.
struct RowFormat {
    let text: [UInt8]
    /// Column `i`'s prefix is `text[columns[i]..<columns[i + 1]]`.
    let columns: [Int]
    let pieces: [PathPiece]

    init(_ table: Table, _ pattern: PathPattern?) {
        var text: [UInt8] = [], columns = [0], pieces: [PathPiece] = []
        for (index, column) in table.columns.enumerated() {
            text += (index == 0 ? "{" : ",").utf8
            text += JSONWriter.quoted(column.name).utf8
            text.append(UInt8(ascii: ":"))
            columns.append(text.count)
        }
        for segment in pattern?.segments ?? [] {
            let start = text.count
            switch segment {
            case .literal(let key):
                text += Self.escaped(key)
                pieces.append(PathPiece(capture: nil, text: start..<text.count))
            case .capture(let name):
                text += Self.escaped("{\(name)}")
                pieces.append(PathPiece(capture: PathPiece.Capture(rawValue: name) ?? .id, text: start..<text.count))
            }
        }
        (self.text, self.columns, self.pieces) = (text, columns, pieces)
    }

    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var text = text
        text.withUTF8 { JSONWriter.appendEscaped(UnsafeRawBufferPointer($0), to: &out) }
        return out
    }

    /// Runs `body` with a writer of rows in this format over the keys of `keys`.
    func withWriter(_ keys: KeyStack, _ body: (RowWriter) -> Void) {
        text.withUnsafeBufferPointer { text in
            columns.withUnsafeBufferPointer { columns in
                pieces.withUnsafeBufferPointer { pieces in
                    keys.withView { body(RowWriter(text: text, columns: columns, pieces: pieces, keys: $0)) }
                }
            }
        }
    }
}

/// The keys of the facts being read, as a stack the walker unwinds level by level, with what each key's
/// bytes hold, found in one pass when it is read.
struct KeyStack {
    private var bytes = ByteBuffer(capacity: 1 << 12)
    /// Key `i` is `bytes[starts[i]..<starts[i + 1]]`.
    private var starts: [Int] = [0]
    /// Per key: whether it needs JSON escapes (bit 0), and whether it may be an invalid Firebase key (bit 1).
    private var flags: [UInt8] = []
    static let needsEscape: UInt8 = 1, mayBeInvalid: UInt8 = 2

    var count: Int { starts.count - 1 }

    /// Pushes `key`; `byteFlags` gives each byte value's flags.
    mutating func push(_ key: UnsafeRawBufferPointer, _ byteFlags: [UInt8]) -> KeyID {
        bytes.appendBytes(key)
        starts.append(bytes.count)
        var found: UInt8 = 0
        byteFlags.withUnsafeBufferPointer { table in
            for byte in key { found |= table[Int(byte)] }
        }
        if key.isEmpty || key.count > FirebaseKey.maximumBytes { found |= Self.mayBeInvalid }
        flags.append(found)
        return KeyID(count - 1)
    }

    mutating func pop(to mark: Int) {
        let dropped = count - mark
        guard dropped > 0 else { return }
        bytes.removeLast(bytes.count - starts[mark])
        starts.removeLast(dropped)
        flags.removeLast(dropped)
    }

    /// Whether key `id` may break Firebase's key rules (``FirebaseKey/problem(_:)`` decides).
    func mayBeInvalid(_ id: KeyID) -> Bool { flags[Int(id)] & Self.mayBeInvalid != 0 }

    func withView<T>(_ body: (KeyView) -> T) -> T {
        starts.withUnsafeBufferPointer { starts in
            flags.withUnsafeBufferPointer { body(KeyView(bytes: bytes.bytes, starts: starts, flags: $0)) }
        }
    }
}

/// The keys of a ``KeyStack``, as views of their bytes, while a row is written.
struct KeyView {
    let bytes: UnsafeRawBufferPointer
    let starts: UnsafeBufferPointer<Int>
    let flags: UnsafeBufferPointer<UInt8>

    subscript(id: KeyID) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[starts[Int(id)]..<starts[Int(id) + 1]])
    }

    /// Appends key `id` as a JSON string; most keys need no escape and are copied as they are.
    func appendQuoted(_ id: KeyID, to out: inout ByteBuffer) {
        guard flags[Int(id)] & KeyStack.needsEscape != 0 else {
            out.append(UInt8(ascii: "\""))
            out.appendBytes(self[id])
            out.append(UInt8(ascii: "\""))
            return
        }
        JSONWriter.appendQuoted(self[id], to: &out)
    }

    /// Appends key `id` escaped for the inside of a JSON string.
    func appendEscaped(_ id: KeyID, to out: inout ByteBuffer) {
        if flags[Int(id)] & KeyStack.needsEscape != 0 {
            JSONWriter.appendEscaped(self[id], to: &out)
        } else {
            out.appendBytes(self[id])
        }
    }
}

/// What the `declared` rows of one row set share: its name and role as JSON strings, and its path's pieces.
struct DeclaredFormat {
    /// `{"name":"…","role":"…","path":` as bytes.
    let head: [UInt8]
    /// Per segment of the pattern: literal bytes (escaped for JSON), or the index among a row's keys of a capture.
    let pieces: [(text: [UInt8], key: Int?)]
    /// Where a row's value is a key: its index.
    let valueKey: Int?

    init(_ set: RowSet) {
        head = Array(
            ("{\"name\":" + JSONWriter.quoted(set.name) + ",\"role\":" + JSONWriter.quoted(set.role.rawValue)
                + ",\"path\":").utf8)
        var captureIndex = 0
        pieces = set.pattern.segments.map { segment in
            switch segment {
            case .literal(let text): return (RowFormat.escaped(text), nil)
            case .capture(let name):
                defer { captureIndex += 1 }
                return (RowFormat.escaped("{\(name)}"), captureIndex)
            }
        }
        if case .key(let i)? = set.value { valueKey = i } else { valueKey = nil }
        a = set.a
        b = set.b
    }

    /// The indexes of the row's `a` and `b` keys.
    let a: Int?, b: Int?
}
