import FanoutCore
import FanoutJSON

/// The JSON text of each table's rows, column by column in the order of ``Table/columns``. Each function
/// appends one row without its closing brace, which `TableRowSink.endRow` writes.
enum RowText {
    static func user(
        _ out: inout ByteBuffer, _ format: RowFormat, _ keys: KeyStack, _ path: PathKeys, _ position: Int, _ user: User
    ) {
        format.withWriter(keys) { w in
            w.column(0, &out); w.path(path, &out)
            w.column(1, &out); integer(position, &out)
            w.column(2, &out); w.keys.appendQuoted(user.key, to: &out)
            w.column(3, &out); string(user.username, &out)
            w.column(4, &out); string(user.name, &out)
        }
    }

    static func post(
        _ out: inout ByteBuffer, _ format: RowFormat, _ keys: KeyStack, _ path: PathKeys, _ position: Int, _ post: Post,
        _ problems: [FieldNote]
    ) {
        format.withWriter(keys) { w in
            w.column(0, &out); w.path(path, &out)
            w.column(1, &out); integer(position, &out)
            w.column(2, &out); w.keys.appendQuoted(post.key, to: &out)
            w.column(3, &out); key(post.owner, w.keys, &out)
            w.column(4, &out); double(post.createdAt, &out)
            w.column(5, &out); double(PushID.time(of: w.keys[post.key]), &out)
            w.column(6, &out); if let count = post.storedLikeCount { integer(Int(count), &out) } else { null(&out) }
            w.column(7, &out); key(post.posterCopyUID, w.keys, &out)
            w.column(8, &out); string(post.posterCopyUsername, &out)
            w.column(9, &out); out.append(UInt8(ascii: "["))
            for (index, problem) in problems.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += #"{"path":"#.utf8
                w.path(path, &out, field: problem.field)
                out += #","expected":"#.utf8; string(problem.expected, &out)
                out += #","actual":"#.utf8; string(problem.actual, &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// `a` and `b`: the post and the user of a like or a flag, the user and the target of a follow.
    static func edge(
        _ out: inout ByteBuffer, _ format: RowFormat, _ keys: KeyStack, _ path: PathKeys, _ position: Int,
        _ a: KeyID, _ b: KeyID, _ id: KeyID
    ) {
        format.withWriter(keys) { w in
            w.column(0, &out); w.path(path, &out)
            w.column(1, &out); integer(position, &out)
            w.column(2, &out); w.keys.appendQuoted(a, to: &out)
            w.column(3, &out); w.keys.appendQuoted(b, to: &out)
            w.column(4, &out); key(id, w.keys, &out)
        }
    }

    static func timelineEntry(
        _ out: inout ByteBuffer, _ format: RowFormat, _ keys: KeyStack, _ path: PathKeys, _ position: Int,
        _ entry: TimelineEntry
    ) {
        format.withWriter(keys) { w in
            w.column(0, &out); w.path(path, &out)
            w.column(1, &out); integer(position, &out)
            w.column(2, &out); key(entry.user, w.keys, &out)
            w.column(3, &out); key(entry.post, w.keys, &out)
            w.column(4, &out); key(entry.posterUID, w.keys, &out)
        }
    }

    static func comment(
        _ out: inout ByteBuffer, _ format: RowFormat, _ keys: KeyStack, _ path: PathKeys, _ position: Int,
        _ comment: Comment
    ) {
        format.withWriter(keys) { w in
            w.column(0, &out); w.path(path, &out)
            w.column(1, &out); integer(position, &out)
            w.column(2, &out); key(comment.id, w.keys, &out)
            w.column(3, &out); key(comment.post, w.keys, &out)
            w.column(4, &out); key(comment.user, w.keys, &out)
            w.column(5, &out); string(comment.text, &out)
            w.column(6, &out); double(comment.createdAt, &out)
        }
    }

    /// A row of a declared row set: its set's name and role, its path from its keys, its ends and its value as
    /// JSON text (`StoredValue.text`; a key's text as a JSON string).
    static func declared(
        _ out: inout ByteBuffer, _ format: RowFormat, _ set: DeclaredFormat, _ keys: KeyStack,
        _ rowKeys: UnsafeBufferPointer<KeyID>,
        _ position: Int, _ value: StoredValue
    ) {
        keys.withView { view in
            set.head.withUnsafeBufferPointer { out.appendBytes($0) }
            out.append(UInt8(ascii: "\""))
            for (index, piece) in set.pieces.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "/")) }
                if let k = piece.key, rowKeys[k] != noKey {
                    view.appendEscaped(rowKeys[k], to: &out)
                } else {
                    piece.text.withUnsafeBufferPointer { out.appendBytes($0) }
                }
            }
            out.append(UInt8(ascii: "\""))
            out += #","seq":"#.utf8; integer(position, &out)
            out += #","a":"#.utf8; key(set.a.map { rowKeys[$0] } ?? noKey, view, &out)
            out += #","b":"#.utf8; key(set.b.map { rowKeys[$0] } ?? noKey, view, &out)
            out += #","value":"#.utf8
            if let k = set.valueKey {
                if rowKeys[k] == noKey {
                    null(&out)
                } else {
                    string(JSONWriter.quoted(String(decoding: view[rowKeys[k]], as: UTF8.self)), &out)
                }
            } else {
                string(value.text, &out)
            }
        }
    }

    /// An invalid key captured by the piece at `through` of a fact of `table`, whose path is in `factFormat`.
    static func keyProblem(
        _ out: inout ByteBuffer, _ format: RowFormat, _ factFormat: RowFormat, _ keys: KeyStack, _ path: PathKeys,
        _ position: Int, through: Int, table: Table, rank: Int, key: String, problem: String
    ) {
        format.withWriter(keys) { w in
            w.column(0, &out); string("key", &out)
            w.column(1, &out); factFormat.withWriter(keys) { $0.path(path, &out, through: through) }
            w.column(2, &out); integer(position, &out)
            w.column(3, &out); string(table.name, &out)
            w.column(4, &out); integer(rank, &out)
            w.column(5, &out); string(key, &out)
            w.column(6, &out); string(problem, &out)
            w.column(7, &out); string(FirebaseKey.message(key: key, problem: problem), &out)
            w.column(8, &out); null(&out)
        }
    }

    /// A relation stored too deep (the schema's own `key-invalid` finding).
    static func depthProblem(_ out: inout ByteBuffer, _ format: RowFormat, _ problem: FirebaseKey.DepthProblem) {
        let table = Table(rawValue: problem.relation.replacingOccurrences(of: " ", with: "_"))
        format.withWriter(KeyStack()) { w in
            w.column(0, &out); string("depth", &out)
            w.column(1, &out); string(problem.path, &out)
            w.column(2, &out); integer(0, &out)
            w.column(3, &out); string(table?.name ?? problem.relation, &out)
            w.column(4, &out); if let rank = table?.keySearchRank { integer(rank, &out) } else { null(&out) }
            w.column(5, &out); null(&out)
            w.column(6, &out); null(&out)
            w.column(7, &out); string(problem.message, &out)
            w.column(8, &out); integer(problem.depth, &out)
        }
    }

    // MARK: values

    private static func key(_ id: KeyID, _ keys: KeyView, _ out: inout ByteBuffer) {
        if id == noKey { null(&out) } else { keys.appendQuoted(id, to: &out) }
    }

    private static func string(_ text: String?, _ out: inout ByteBuffer) {
        guard var text else { return null(&out) }
        text.withUTF8 { JSONWriter.appendQuoted(UnsafeRawBufferPointer($0), to: &out) }
    }

    private static func double(_ value: Double?, _ out: inout ByteBuffer) {
        guard let value, value.isFinite else { return null(&out) }
        JSONWriter.appendNumber(JSONNumber(value), to: &out)
    }

    private static func null(_ out: inout ByteBuffer) {
        for byte in [0x6E, 0x75, 0x6C, 0x6C] as [UInt8] { out.append(byte) }  // null
    }

    /// Decimal digits, without making a `String`.
    private static func integer(_ value: Int, _ out: inout ByteBuffer) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.appendBytes(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }
}

/// Writes the parts of rows of one ``RowFormat``, over the keys of the facts being read.
struct RowWriter {
    let text: UnsafeBufferPointer<UInt8>
    let columns: UnsafeBufferPointer<Int>
    let pieces: UnsafeBufferPointer<PathPiece>
    let keys: KeyView

    /// Appends `{"name":` (the first column) or `,"name":` of column `index`.
    func column(_ index: Int, _ out: inout ByteBuffer) {
        out.appendBytes(UnsafeBufferPointer(rebasing: text[columns[index]..<columns[index + 1]]))
    }

    /// Appends the relation's path for `path` as a JSON string: the whole path, the path up to the piece at
    /// `through`, or the path of a field below it.
    func path(_ path: PathKeys, _ out: inout ByteBuffer, through: Int? = nil, field: FieldPath? = nil) {
        out.append(UInt8(ascii: "\""))
        for (index, piece) in pieces.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "/")) }
            if let capture = piece.capture, path[capture] != noKey {
                keys.appendEscaped(path[capture], to: &out)
            } else {
                out.appendBytes(UnsafeBufferPointer(rebasing: text[piece.text]))
            }
            if index == through { break }
        }
        if let field {
            out.append(UInt8(ascii: "/"))
            RowFormat.escaped(field.description).withUnsafeBytes { out.appendBytes($0) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
