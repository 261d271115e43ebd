import FanoutCore
import FanoutJSON

/// The JSON text of each table's rows, column by column in the order of ``Table/columns`` (`p[i]` is the
/// `,"name":` of column `i`). Each function appends one row without its closing brace, which
/// `TableRowSink.endRow` writes.
enum RowText {
    static func user(
        _ out: inout [UInt8], _ p: [[UInt8]], _ pieces: [PathPiece], _ keys: KeyStack,
        _ path: PathKeys, _ position: Int, _ user: User
    ) {
        keys.withView { view in
            out += p[0]; write(pieces, path, view, &out)
            out += p[1]; integer(position, &out)
            out += p[2]; view.appendQuoted(user.key, to: &out)
            out += p[3]; string(user.username, &out)
        }
    }

    static func post(
        _ out: inout [UInt8], _ p: [[UInt8]], _ pieces: [PathPiece], _ keys: KeyStack,
        _ path: PathKeys, _ position: Int, _ post: Post, _ problems: [FieldNote]
    ) {
        keys.withView { view in
            out += p[0]; write(pieces, path, view, &out)
            out += p[1]; integer(position, &out)
            out += p[2]; view.appendQuoted(post.key, to: &out)
            out += p[3]; key(post.owner, view, &out)
            out += p[4]; double(post.createdAt, &out)
            out += p[5]; double(PushID.time(of: view[post.key]), &out)
            out += p[6]; if let count = post.storedLikeCount { integer(Int(count), &out) } else { null(&out) }
            out += p[7]; key(post.posterCopyUID, view, &out)
            out += p[8]; string(post.posterCopyUsername, &out)
            out += p[9]; out.append(UInt8(ascii: "["))
            for (index, problem) in problems.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += #"{"path":"#.utf8
                write(pieces, path, view, &out, field: problem.field)
                out += #","expected":"#.utf8; string(problem.expected, &out)
                out += #","actual":"#.utf8; string(problem.actual, &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// `a` and `b`: the post and the user of a like or a flag, the user and the target of a follow.
    static func edge(
        _ out: inout [UInt8], _ p: [[UInt8]], _ pieces: [PathPiece], _ keys: KeyStack,
        _ path: PathKeys, _ position: Int, _ a: KeyID, _ b: KeyID, _ id: KeyID
    ) {
        keys.withView { view in
            out += p[0]; write(pieces, path, view, &out)
            out += p[1]; integer(position, &out)
            out += p[2]; view.appendQuoted(a, to: &out)
            out += p[3]; view.appendQuoted(b, to: &out)
            out += p[4]; key(id, view, &out)
        }
    }

    static func timelineEntry(
        _ out: inout [UInt8], _ p: [[UInt8]], _ pieces: [PathPiece], _ keys: KeyStack,
        _ path: PathKeys, _ position: Int, _ entry: TimelineEntry
    ) {
        keys.withView { view in
            out += p[0]; write(pieces, path, view, &out)
            out += p[1]; integer(position, &out)
            out += p[2]; key(entry.user, view, &out)
            out += p[3]; key(entry.post, view, &out)
            out += p[4]; key(entry.posterUID, view, &out)
        }
    }

    /// An invalid key captured by the piece at `through` of a fact of `table`.
    static func keyProblem(
        _ out: inout [UInt8], _ p: [[UInt8]], _ pieces: [PathPiece], _ keys: KeyStack,
        _ path: PathKeys, _ position: Int, through: Int, table: Table, rank: Int, key: String, problem: String
    ) {
        keys.withView { view in
            out += p[0]; string("key", &out)
            out += p[1]; write(pieces, path, view, &out, through: through)
            out += p[2]; integer(position, &out)
            out += p[3]; string(table.name, &out)
            out += p[4]; integer(rank, &out)
            out += p[5]; string(key, &out)
            out += p[6]; string(problem, &out)
            out += p[7]; string(FirebaseKey.message(key: key, problem: problem), &out)
            out += p[8]; null(&out)
        }
    }

    /// A relation stored too deep (the schema's own `key-invalid` finding).
    static func depthProblem(_ out: inout [UInt8], _ p: [[UInt8]], _ problem: FirebaseKey.DepthProblem) {
        let table = Table(rawValue: problem.relation.replacingOccurrences(of: " ", with: "_"))
        out += p[0]; string("depth", &out)
        out += p[1]; string(problem.path, &out)
        out += p[2]; integer(0, &out)
        out += p[3]; string(table?.name ?? problem.relation, &out)
        out += p[4]; if let rank = table?.keySearchRank { integer(rank, &out) } else { null(&out) }
        out += p[5]; null(&out)
        out += p[6]; null(&out)
        out += p[7]; string(problem.message, &out)
        out += p[8]; integer(problem.depth, &out)
    }

    // MARK: values

    /// The relation's path for `keys` as a JSON string: the whole path, the path up to the piece at `through`,
    /// or the path of a field below it.
    private static func write(
        _ pieces: [PathPiece], _ path: PathKeys, _ view: KeyView, _ out: inout [UInt8], through: Int? = nil,
        field: FieldPath? = nil
    ) {
        out.append(UInt8(ascii: "\""))
        for (index, piece) in pieces.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "/")) }
            switch piece {
            case .literal(let bytes): out += bytes
            case .capture(let capture, let placeholder):
                let id = path[capture]
                if id == noKey { out += placeholder } else { view.appendEscaped(id, to: &out) }
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
        if id == noKey { null(&out) } else { view.appendQuoted(id, to: &out) }
    }

    private static func string(_ text: String?, _ out: inout [UInt8]) {
        guard var text else { return null(&out) }
        text.withUTF8 { JSONWriter.appendQuoted(UnsafeRawBufferPointer($0), to: &out) }
    }

    private static func double(_ value: Double?, _ out: inout [UInt8]) {
        guard let value, value.isFinite else { return null(&out) }
        JSONWriter.appendNumber(JSONNumber(value), to: &out)
    }

    private static func null(_ out: inout [UInt8]) { out += "null".utf8 }

    /// Decimal digits, without making a `String`.
    private static func integer(_ value: Int, _ out: inout [UInt8]) {
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
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }
}
