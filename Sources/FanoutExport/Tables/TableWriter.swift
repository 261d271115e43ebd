import FanoutCore
import FanoutImport
import FanoutJSON
import FanoutOutput

/// The sink of one walker of `fanout tables`: writes each fact as a row of newline-delimited JSON as it is read
/// (README "Exports bigger than one machine").
///
/// Nothing is kept across facts: keys live in a small stack that the walker unwinds level by level (see
/// ``FactSink``), rows go through a buffer of about a megabyte per table into the part files, so memory does
/// not grow with the export. `key-invalid` is decided here, per key, as facts are read.
package struct TableSink: FactSink {
    let writer: TableWriter

    init(_ writer: TableWriter) { self.writer = writer }

    package mutating func key(_ bytes: UnsafeRawBufferPointer) -> KeyID { writer.key(bytes) }
    package mutating func key(_ text: String) -> KeyID {
        var text = text
        return text.withUTF8 { writer.key(UnsafeRawBufferPointer($0)) }
    }
    package var keyMark: Int { writer.keyMark }
    package mutating func releaseKeys(to mark: Int) { writer.releaseKeys(to: mark) }
    package mutating func prepare(forBytes bytes: Int) {}
    package mutating func user(_ user: User, position: Int) { writer.user(user, position) }
    package mutating func fieldProblem(_ post: Post, field: FieldPath, expected: String, actual: String) {
        writer.problems.append((field, expected, actual))
    }
    package mutating func post(_ post: Post, position: Int) { writer.post(post, position) }
    package mutating func like(_ like: Like, position: Int) { writer.edge(.likes, like.post, like.user, like.id, position) }
    package mutating func mirroredLike(_ like: Like, position: Int) {
        writer.edge(.likeMirror, like.post, like.user, like.id, position)
    }
    package mutating func following(_ follow: Follow, position: Int) {
        writer.edge(.following, follow.user, follow.target, follow.id, position)
    }
    package mutating func follower(_ follow: Follow, position: Int) {
        writer.edge(.followers, follow.user, follow.target, follow.id, position)
    }
    package mutating func timelineEntry(_ entry: TimelineEntry, position: Int) { writer.timelineEntry(entry, position) }
    // The post ownership mirror (`user-posts`) feeds no rule and no derivation: it is not a table.
    package mutating func ownedPost(_ entry: OwnedPost, position: Int) {}
    package mutating func flag(_ flag: Flag, position: Int) { writer.edge(.flags, flag.post, flag.user, flag.id, position) }
    package var hasFailed: Bool { writer.failure != nil }
    package mutating func append(_ other: consuming TableSink) { writer.append(other.writer) }
}

/// The keys a fact's path captures, by capture name.
private struct PathKeys {
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

/// A segment of a relation's pattern, ready to be written into a JSON string.
private enum PathPiece {
    enum Capture: String { case user, post, poster, target, id }
    /// A literal key, escaped for JSON.
    case literal([UInt8])
    /// A capture; `placeholder` is what stands for it when the fact has no key there (`{id}`), escaped.
    case capture(Capture, placeholder: [UInt8])

    static func pieces(_ pattern: PathPattern?) -> [PathPiece] {
        (pattern?.segments ?? []).map { segment in
            switch segment {
            case .literal(let text): .literal(escaped(text))
            case .capture(let name): .capture(Capture(rawValue: name) ?? .id, placeholder: escaped("{\(name)}"))
            }
        }
    }

    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var text = text
        text.withUTF8 { JSONWriter.appendEscaped(UnsafeRawBufferPointer($0), to: &out) }
        return out
    }
}

/// The keys handed out, as views of their bytes, while a row is written.
private struct KeyView {
    let bytes: UnsafeRawBufferPointer
    let starts: UnsafeBufferPointer<Int>

    subscript(id: KeyID) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[starts[Int(id)]..<starts[Int(id) + 1]])
    }
}

/// The work of a ``TableSink``, in a class so that its buffers are changed in place.
final class TableWriter {
    private let folder: TableFolder
    private let walker: Int
    let schema: Schema
    private var keyBytes: [UInt8] = []
    /// Key `i` is `keyBytes[keyStarts[i]..<keyStarts[i + 1]]`.
    private var keyStarts: [Int] = [0]
    private var outputs = Table.allCases.map { _ in TableOutput() }
    /// The field problems of the post being read, as (field, expected, actual).
    fileprivate var problems: [(FieldPath, String, String)] = []
    private(set) var failure: OutputError?
    /// Per table, per column: `{"name":` for the first column, `,"name":` for the others.
    private let prefixes: [[[UInt8]]]
    private let paths: [[PathPiece]]
    /// Whether keys are checked for `key-invalid`, which applies to Firebase trees only.
    private let checksKeys: Bool

    init(folder: TableFolder, walker: Int, schema: Schema) {
        self.folder = folder
        self.walker = walker
        self.schema = schema
        prefixes = Table.allCases.map { table in
            table.columns.enumerated().map { index, column in
                Array((index == 0 ? "{" : ",").utf8) + Array(JSONWriter.quoted(column.name).utf8) + [UInt8(ascii: ":")]
            }
        }
        paths = Table.allCases.map { table in
            switch table {
            case .users: PathPiece.pieces(schema.users?.pattern)
            case .posts: PathPiece.pieces(schema.posts?.pattern)
            case .likes: PathPiece.pieces(schema.likes?.pattern)
            case .likeMirror: PathPiece.pieces(schema.likeMirror?.pattern)
            case .following: PathPiece.pieces(schema.following?.pattern)
            case .followers: PathPiece.pieces(schema.followers?.pattern)
            case .timeline: PathPiece.pieces(schema.timeline?.pattern)
            case .flags: PathPiece.pieces(schema.flags?.pattern)
            case .keyProblems: []
            }
        }
        checksKeys = schema.format == .firebase
        if walker == 0, checksKeys {
            for problem in FirebaseKey.depthProblems(in: schema) { depthRow(problem) }
        }
    }

    // MARK: keys

    func key(_ bytes: UnsafeRawBufferPointer) -> KeyID {
        keyBytes.append(contentsOf: bytes)
        keyStarts.append(keyBytes.count)
        return KeyID(keyStarts.count - 2)
    }

    var keyMark: Int { keyStarts.count - 1 }

    func releaseKeys(to mark: Int) {
        guard mark < keyStarts.count - 1 else { return }
        keyBytes.removeSubrange(keyStarts[mark]...)
        keyStarts.removeSubrange((mark + 1)...)
    }

    // MARK: facts

    func user(_ user: User, _ position: Int) {
        let keys = PathKeys(user: user.key)
        row(.users) { out, view, p in
            out += p[0]; self.path(.users, keys, view, &out)
            out += p[1]; Self.integer(position, &out)
            out += p[2]; JSONWriter.appendQuoted(view[user.key], to: &out)
            out += p[3]; Self.string(user.username, &out)
        }
        checkKeys(.users, keys, position)
    }

    func post(_ post: Post, _ position: Int) {
        let keys = PathKeys(post: post.key, poster: post.pathOwner)
        let problems = self.problems
        self.problems.removeAll(keepingCapacity: true)
        row(.posts) { out, view, p in
            out += p[0]; self.path(.posts, keys, view, &out)
            out += p[1]; Self.integer(position, &out)
            out += p[2]; JSONWriter.appendQuoted(view[post.key], to: &out)
            out += p[3]; Self.key(post.owner, view, &out)
            out += p[4]; Self.double(post.createdAt, &out)
            out += p[5]; Self.double(PushID.time(of: view[post.key]), &out)
            out += p[6]; if let count = post.storedLikeCount { Self.integer(Int(count), &out) } else { Self.null(&out) }
            out += p[7]; Self.key(post.posterCopyUID, view, &out)
            out += p[8]; Self.string(post.posterCopyUsername, &out)
            out += p[9]; out.append(UInt8(ascii: "["))
            for (index, (field, expected, actual)) in problems.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += Array(#"{"path":"#.utf8)
                self.path(.posts, keys, view, &out, field: field)
                out += Array(#","expected":"#.utf8); Self.string(expected, &out)
                out += Array(#","actual":"#.utf8); Self.string(actual, &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        checkKeys(.posts, keys, position)
    }

    /// A like, a mirrored like or a flag (`a` the post, `b` the user), or a follow (`a` the user, `b` the target).
    func edge(_ table: Table, _ a: KeyID, _ b: KeyID, _ id: KeyID, _ position: Int) {
        let isFollow = table == .following || table == .followers
        let keys = isFollow ? PathKeys(user: a, target: b, id: id) : PathKeys(user: b, post: a, id: id)
        row(table) { out, view, p in
            out += p[0]; self.path(table, keys, view, &out)
            out += p[1]; Self.integer(position, &out)
            out += p[2]; JSONWriter.appendQuoted(view[a], to: &out)
            out += p[3]; JSONWriter.appendQuoted(view[b], to: &out)
            out += p[4]; Self.key(id, view, &out)
        }
        checkKeys(table, keys, position)
    }

    func timelineEntry(_ entry: TimelineEntry, _ position: Int) {
        let keys = PathKeys(user: entry.user, post: entry.post)
        row(.timeline) { out, view, p in
            out += p[0]; self.path(.timeline, keys, view, &out)
            out += p[1]; Self.integer(position, &out)
            out += p[2]; Self.key(entry.user, view, &out)
            out += p[3]; Self.key(entry.post, view, &out)
            out += p[4]; Self.key(entry.posterUID, view, &out)
        }
        checkKeys(.timeline, keys, position)
    }

    // MARK: key-invalid

    /// Writes a `key_problems` row for each invalid key the fact's path captures, the first capture of a key
    /// only, with the path up to it: what `key-invalid` reports for the key's first fact in its search order.
    private func checkKeys(_ table: Table, _ keys: PathKeys, _ position: Int) {
        guard checksKeys, let rank = table.keySearchRank else { return }
        var checked: [KeyID] = []
        for (index, piece) in paths[table.rawIndex].enumerated() {
            guard case .capture(let capture, _) = piece else { continue }
            let id = keys[capture]
            guard id != noKey else { continue }
            let (problem, repeated) = withKeys { view in
                (FirebaseKey.problem(view[id]), checked.contains { view[$0].elementsEqual(view[id]) })
            }
            checked.append(id)
            guard let problem, !repeated else { continue }
            let key = withKeys { String(decoding: $0[id], as: UTF8.self) }
            row(.keyProblems) { out, view, p in
                out += p[0]; Self.string("key", &out)
                out += p[1]; self.path(table, keys, view, &out, through: index)
                out += p[2]; Self.integer(position, &out)
                out += p[3]; Self.string(table.name, &out)
                out += p[4]; Self.integer(rank, &out)
                out += p[5]; Self.string(key, &out)
                out += p[6]; Self.string(problem, &out)
                out += p[7]; Self.string(FirebaseKey.message(key: key, problem: problem), &out)
                out += p[8]; Self.null(&out)
            }
        }
    }

    /// A relation the schema stores too deep: a `key-invalid` finding of the schema's, written once.
    private func depthRow(_ problem: FirebaseKey.DepthProblem) {
        let table = problem.relation.replacingOccurrences(of: " ", with: "_")
        row(.keyProblems) { out, _, p in
            out += p[0]; Self.string("depth", &out)
            out += p[1]; Self.string(problem.path, &out)
            out += p[2]; Self.integer(0, &out)
            out += p[3]; Self.string(table, &out)
            out += p[4]; if let rank = Table(rawValue: table)?.keySearchRank { Self.integer(rank, &out) } else { Self.null(&out) }
            out += p[5]; Self.null(&out)
            out += p[6]; Self.null(&out)
            out += p[7]; Self.string(problem.message, &out)
            out += p[8]; Self.integer(problem.depth, &out)
        }
    }

    // MARK: rows

    private func withKeys<T>(_ body: (KeyView) -> T) -> T {
        keyBytes.withUnsafeBytes { bytes in keyStarts.withUnsafeBufferPointer { body(KeyView(bytes: bytes, starts: $0)) } }
    }

    /// Writes one row of `table`: `body` appends its columns, given the keys and the column prefixes.
    private func row(_ table: Table, _ body: (inout [UInt8], KeyView, [[UInt8]]) -> Void) {
        guard failure == nil else { return }
        let t = table.rawIndex
        if let limit = folder.rowsPerFile, outputs[t].rowsInPart == limit { closePart(table) }
        let prefixes = self.prefixes[t]
        withKeys { view in body(&outputs[t].bytes, view, prefixes) }
        outputs[t].bytes.append(UInt8(ascii: "}"))
        outputs[t].bytes.append(UInt8(ascii: "\n"))
        outputs[t].rows += 1
        outputs[t].rowsInPart += 1
        if outputs[t].bytes.count >= TableOutput.flushBytes { flush(table) }
    }

    /// Writes the relation's path for `keys` as a JSON string: the whole path, the path up to the piece at
    /// `through`, or the path of a field below it.
    private func path(_ table: Table, _ keys: PathKeys, _ view: KeyView, _ out: inout [UInt8], through: Int? = nil, field: FieldPath? = nil) {
        out.append(UInt8(ascii: "\""))
        for (index, piece) in paths[table.rawIndex].enumerated() {
            if index > 0 { out.append(UInt8(ascii: "/")) }
            switch piece {
            case .literal(let bytes): out += bytes
            case .capture(let capture, let placeholder):
                let id = keys[capture]
                if id == noKey { out += placeholder } else { JSONWriter.appendEscaped(view[id], to: &out) }
            }
            if index == through { break }
        }
        if let field {
            out.append(UInt8(ascii: "/"))
            out += PathPiece.escaped(field.description)
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func key(_ id: KeyID, _ view: KeyView, _ out: inout [UInt8]) {
        if id == noKey { null(&out) } else { JSONWriter.appendQuoted(view[id], to: &out) }
    }

    private static func string(_ text: String?, _ out: inout [UInt8]) {
        guard var text else { return null(&out) }
        text.withUTF8 { JSONWriter.appendQuoted(UnsafeRawBufferPointer($0), to: &out) }
    }

    private static func double(_ value: Double?, _ out: inout [UInt8]) {
        guard let value, value.isFinite else { return null(&out) }
        JSONWriter.appendNumber(JSONNumber(value), to: &out)
    }

    private static func null(_ out: inout [UInt8]) { out += [0x6E, 0x75, 0x6C, 0x6C] }

    /// Decimal digits, without making a `String`.
    private static func integer(_ value: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    // MARK: parts

    /// Hands the buffered rows of `table` to its part file, starting one when needed.
    private func flush(_ table: Table) {
        let t = table.rawIndex
        guard failure == nil, !outputs[t].bytes.isEmpty else { return }
        do throws(OutputError) {
            if outputs[t].part == nil {
                let name = "\(table.name)/.w\(walker)-\(outputs[t].parts.count)\(folder.partExtension)"
                outputs[t].part = try TablePart(folder.stream(to: name), gzip: folder.gzip)
                outputs[t].parts.append(name)
            }
            let part = outputs[t].part!
            var failed: OutputError?
            outputs[t].bytes.withUnsafeBytes { bytes in
                do throws(OutputError) { try part.append(bytes) } catch { failed = error }
            }
            if let failed { throw failed }
            outputs[t].bytes.removeAll(keepingCapacity: true)
        } catch {
            failure = error
            folder.record(error)
        }
    }

    /// Ends the current part of `table`: the next row starts a new one.
    private func closePart(_ table: Table) {
        flush(table)
        let t = table.rawIndex
        outputs[t].rowsInPart = 0
        guard let part = outputs[t].part else { return }
        outputs[t].part = nil
        do throws(OutputError) {
            try part.finish()
        } catch {
            if failure == nil { failure = error }
            folder.record(error)
        }
    }

    /// Writes what is buffered and closes every part.
    func finish() {
        for table in Table.allCases { closePart(table) }
    }

    /// Takes over the parts of `other`, which read the part of the export after this writer's.
    func append(_ other: TableWriter) {
        finish()
        other.finish()
        for t in outputs.indices {
            outputs[t].rows += other.outputs[t].rows
            outputs[t].parts += other.outputs[t].parts
        }
        failure = failure ?? other.failure
    }

    /// Per table, the rows written and the parts, in order.
    var written: [(rows: Int, parts: [String])] { outputs.map { ($0.rows, $0.parts) } }
}

extension Table {
    /// The table's index among ``allCases``.
    var rawIndex: Int {
        switch self {
        case .users: 0
        case .posts: 1
        case .likes: 2
        case .likeMirror: 3
        case .following: 4
        case .followers: 5
        case .timeline: 6
        case .flags: 7
        case .keyProblems: 8
        }
    }
}
