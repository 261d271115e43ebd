import FanoutCore
import FanoutImport
import FanoutJSON

/// Writes an export with a repair patch applied, in one streaming pass, never building the export's tree.
///
/// It follows the paths the patch touches and copies every other value byte for byte from the input. Applying
/// is what a Firebase multi-path update does: a set path replaces the value there (creating parents), `null`
/// deletes it, and an object left empty disappears, as Firebase stores no empty nodes. Objects the patch
/// changes are written compactly with their untouched members in their original order and new members after
/// them; an array the patch changes is written as the object Firebase keeps behind it (indexes as keys). A key
/// repeated in one object (which only hand-edited JSON has) is written once where the patch sets it.
///
/// When the export is indented (the console's "Export JSON" is), the objects the patch changes are indented
/// the same way, so that the repaired export differs from the original only on the lines the patch changes.
public enum PatchApplier {
    /// Applies `patch` to the export in `input` and passes the result to `write` in chunks of about `chunkSize`
    /// bytes (each chunk is valid only during the call).
    public static func apply(
        _ patch: RepairPatch, to input: UnsafeRawBufferPointer, chunkSize: Int = 1 << 20,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var stream = PatchStream(input: input, chunkSize: chunkSize)
        try stream.run(PatchTree(patch), write: write)
    }

    /// The export with `patch` applied, as bytes (for tests and small exports).
    public static func apply(_ patch: RepairPatch, to input: UnsafeRawBufferPointer) throws -> [UInt8] {
        var out: [UInt8] = []
        try apply(patch, to: input) { out.append(contentsOf: $0) }
        return out
    }
}

/// The state of one pass: the reader, the output buffer and the objects being rewritten.
private struct PatchStream {
    /// An object being rewritten. Its opening (the member key and `{`) is written only when its first member
    /// is, so that an object the patch empties leaves no trace.
    struct Level {
        /// `"key":`, or nothing for the root.
        var prefix: [UInt8]
        var opened = false
        var members = 0
    }

    let input: UnsafeRawBufferPointer
    let chunkSize: Int
    var reader: JSONReader
    var out: [UInt8] = []
    var levels: [Level] = []
    var sink: ((UnsafeRawBufferPointer) throws -> Void)?
    /// The input's indentation unit (`"  "`), or nil when it is compact.
    let indent: [UInt8]?

    init(input: UnsafeRawBufferPointer, chunkSize: Int) {
        self.input = input
        self.chunkSize = max(chunkSize, 1)
        reader = JSONReader(input)
        indent = Self.indentation(of: input)
        out.reserveCapacity(self.chunkSize + 4096)
    }

    /// The whitespace before the first key of the top-level object, after its last line break: the unit the
    /// export is indented by. Nil when the first key follows `{` on the same line (a compact export).
    static func indentation(of input: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let open = input.firstIndex(of: UInt8(ascii: "{")) else { return nil }
        var unit: [UInt8]? = nil
        for byte in input[(open + 1)...] {
            switch byte {
            case UInt8(ascii: "\n"): unit = []
            case UInt8(ascii: " "), UInt8(ascii: "\t"): unit?.append(byte)
            case UInt8(ascii: "\r"): continue
            default: return unit.flatMap { $0.isEmpty ? nil : $0 }
            }
        }
        return nil
    }

    /// In an indented export, a line break and the indentation of `depth`.
    mutating func newline(depth: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { out.append(contentsOf: indent) }
    }

    mutating func run(_ tree: PatchTree, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try withoutActuallyEscaping(write) { write in
            sink = write
            defer { sink = nil }
            let kind = try reader.peekKind()
            if case .children(let map) = tree, kind == .object || kind == .array {
                levels = [Level(prefix: [])]
                try openLevels()
                try rewrite(map)
                try close()
            } else {
                // Not an export tree (or a patch replacing the root): nothing to merge into.
                try copyValue()
            }
            try reader.finish()
            // The reader consumed trailing whitespace; keep a final line break if the export had one.
            if input.last == UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
            try flush(force: true)
        }
    }

    /// Rewrites the object or array at the reader with `changes`; its level is already pushed.
    mutating func rewrite(_ changes: [String: PatchTree]) throws {
        var touched = Set<String>()
        var members = try FirebaseMembers(&reader)!
        while let key = try members.next(&reader) {
            try member(String(decoding: key, as: UTF8.self), changes, &touched)
        }
        let added = changes.keys.filter { !touched.contains($0) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for key in added {
            if let value = changes[key]!.valueOverNothing { try writeMember(key, value) }
        }
    }

    /// Handles the member `key` whose value is at the reader.
    mutating func member(_ key: String, _ changes: [String: PatchTree], _ touched: inout Set<String>) throws {
        guard let change = changes[key] else {
            try writeMemberKey(key)
            try copyValue()
            return
        }
        let first = touched.insert(key).inserted
        switch change {
        case .set(let value):
            try reader.skipValue()
            if first, !value.isNull { try writeMember(key, value) }
        case .children(let children):
            let kind = try reader.peekKind()
            if kind == .object || kind == .array {
                levels.append(Level(prefix: Array((JSONWriter.quoted(key) + (indent == nil ? ":" : ": ")).utf8)))
                try rewrite(children)
                try close()
            } else {
                // A leaf where the patch writes below it: the leaf gives way to an object.
                try reader.skipValue()
                if let value = change.valueOverNothing { try writeMember(key, value) }
            }
        }
    }

    /// Writes the openings of the enclosing objects not written yet.
    mutating func openLevels() throws {
        for i in levels.indices where !levels[i].opened {
            if i > 0 {
                if levels[i - 1].members > 0 { out.append(UInt8(ascii: ",")) }
                levels[i - 1].members += 1
                newline(depth: i)
            }
            out.append(contentsOf: levels[i].prefix)
            out.append(UInt8(ascii: "{"))
            levels[i].opened = true
        }
    }

    /// Closes the innermost object, or drops it when nothing was written into it.
    mutating func close() throws {
        let level = levels.removeLast()
        if level.opened {
            if level.members > 0 { newline(depth: levels.count) }
            out.append(UInt8(ascii: "}"))
        }
        try flush(force: false)
    }

    mutating func writeMemberKey(_ key: String) throws {
        try openLevels()
        if levels[levels.count - 1].members > 0 { out.append(UInt8(ascii: ",")) }
        levels[levels.count - 1].members += 1
        newline(depth: levels.count)
        out.append(contentsOf: JSONWriter.quoted(key).utf8)
        out.append(UInt8(ascii: ":"))
        if indent != nil { out.append(UInt8(ascii: " ")) }
    }

    mutating func writeMember(_ key: String, _ value: JSONValue) throws {
        try writeMemberKey(key)
        JSONWriter(pretty: false, sortKeys: false).write(value, into: &out)
        try flush(force: false)
    }

    /// Copies the value at the reader byte for byte.
    mutating func copyValue() throws {
        _ = try reader.peekKind()
        let start = reader.offset
        try reader.skipValue()
        let end = reader.offset
        var position = start
        // Large values (a whole untouched relation) go out in chunks rather than through one huge buffer.
        while position < end {
            let next = min(end, position + chunkSize)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<next]))
            position = next
            try flush(force: false)
        }
    }

    mutating func flush(force: Bool) throws {
        guard force ? !out.isEmpty : out.count >= chunkSize, let sink else { return }
        try out.withUnsafeBytes { try sink($0) }
        out.removeAll(keepingCapacity: true)
    }
}
