import FanoutCore
import FanoutJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an export in one pass, guided by the schema's patterns, and fills the domain core.
///
/// Nodes no pattern mentions are skipped by the reader without building anything. Recursion follows the
/// schema's patterns and field paths only, so its depth is bounded by the schema, not by the input.
/// A Firebase export is one tree (``run(_:)``); a Parse export is one file per class, each walked as the
/// subtree under its class name (``runClass(_:_:)``) into the same dataset.
struct TreeWalker {
    private var reader = JSONReader(UnsafeRawBufferPointer(start: nil, count: 0))
    private(set) var dataset: Dataset
    private let trie: PatternTrie
    /// Per trie node, the fields of the entities that end there (empty for nodes where nothing ends).
    private let fieldTries: [FieldTrie]
    /// Per value slot, whether the schema names a field for it (edges and keys read from rows).
    private let hasField: [Bool]
    /// The post fields `post-field` checks, worked out once instead of per post.
    private let postChecks: [(path: FieldPath, role: FieldRole, required: Bool, expected: String)]
    private var captures = Captures()
    /// Per value slot, whether its value names a key (see ``FieldRole/isKey``).
    private let keySlots: [Bool] = (0..<FieldRole.slotCount).map { FieldRole.role(ofSlot: $0).isKey }
    /// Called with the bytes read so far and the total, every few megabytes.
    var progress: ((Int, Int) -> Void)?
    /// Whether pages the reader has passed may be dropped (a read-only file mapping, never heap memory).
    var releasesConsumedPages = false
    private var buffer = UnsafeRawBufferPointer(start: nil, count: 0)
    private var nextCheckpoint = 0
    private var values = [FieldValue](repeating: .missing, count: FieldRole.slotCount)
    private(set) var matchedRootKeys = 0
    private(set) var rootKeys: [String] = []
    /// Whether the top level was an object.
    private(set) var rootWasObject = false
    /// Top-level keys to report when seen: other layouts' own keys, so detection can tell a mixed export.
    var watchedRootKeys: [String] = [] {
        didSet { watchedBytes = watchedRootKeys.map { Array($0.utf8) } }
    }
    private var watchedBytes: [[UInt8]] = []
    /// The watched keys the export has, in the order read.
    private(set) var seenWatchedKeys: [String] = []

    init(schema: Schema) throws(InputError) {
        dataset = Dataset(schema: schema)
        var trie = PatternTrie()
        for relation in RelationKind.allCases {
            guard let pattern = relation.pattern(in: schema) else { continue }
            let captures = relation.captures(in: schema)
            try trie.insert(pattern, relation, required: captures.required, optional: captures.optional)
        }
        if let posts = schema.posts, !posts.pattern.captureNames.contains("poster"), posts.owner == nil {
            throw InputError.schema("posts need an owner: capture {poster} in the pattern or name an owner field")
        }
        var fieldTries = [FieldTrie](repeating: FieldTrie(), count: trie.nodes.count)
        var hasField = [Bool](repeating: false, count: FieldRole.slotCount)
        for (index, node) in trie.nodes.enumerated() where !node.terminals.isEmpty {
            var fields = FieldTrie()
            for relation in node.terminals {
                for (path, role) in FieldRole.fields(of: relation, in: schema) {
                    let slot = FieldRole.slot(relation, role)
                    fields.insert(path, slot: slot)
                    hasField[slot] = true
                }
            }
            fieldTries[index] = fields
        }
        self.trie = trie
        self.fieldTries = fieldTries
        self.hasField = hasField
        let required = Set(schema.posts?.required ?? [])
        postChecks = FieldRole.fields(of: .posts, in: schema).map { path, role in
            let expected = role == .createdAt ? Timestamp.typeName(schema.posts?.createdAt?.unit) : role.expectedType
            return (path, role, required.contains(path), expected)
        }
    }

    /// The literal keys the schema expects at the top level.
    var rootLiterals: [String] { trie.rootLiterals }

    /// Reads a whole export tree from `buffer`, which must stay valid until this returns.
    mutating func run(_ buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
        reader = JSONReader(buffer)
        self.buffer = buffer
        nextCheckpoint = Self.checkpointInterval
        guard try reader.peekKind() == .object else {
            try reader.skipValue()
            try reader.finish()
            return
        }
        rootWasObject = true
        let rootCaptures = trie.nodes[0].captureChild >= 0
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if rootKeys.count < 50 { rootKeys.append(String(decoding: key, as: UTF8.self)) }
            if trie.literal(0, key) != nil || (rootCaptures && key.first != UInt8(ascii: ".")) { matchedRootKeys += 1 }
            for watched in watchedBytes where watched.elementsEqual(key) {
                seenWatchedKeys.append(String(decoding: key, as: UTF8.self))
            }
            try dispatch(0, key)
        }
        try reader.finish()
    }

    /// Reads one Parse class file from `buffer` as the subtree under the top-level key `className`.
    ///
    /// The file is `{"results": [...]}` (Parse's export) or a bare array of objects. Returns false, having
    /// read nothing, when it is neither.
    mutating func runClass(_ className: String, _ buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> Bool {
        reader = JSONReader(buffer)
        let name = Array(className.utf8)
        let node = name.withUnsafeBytes { trie.literal(0, $0) }
        var recognized = false
        switch try reader.peekKind() {
        case .object:
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if let node, key.elementsEqual("results".utf8), try reader.peekKind() == .array {
                    recognized = true
                    try walkChildren(of: node)
                } else {
                    try reader.skipValue()
                }
            }
        case .array:
            recognized = true
            if let node { try walkChildren(of: node) } else { try reader.skipValue() }
        default:
            try reader.skipValue()
        }
        try reader.finish()
        if recognized, node != nil { matchedRootKeys += 1 }
        return recognized
    }

    private mutating func walkChildren(of node: Int) throws(JSONSyntaxError) {
        switch try reader.peekKind() {
        case .object:
            try reader.beginObject()
            while let key = try reader.nextKey() { try dispatch(node, key) }
        case .array:
            // Firebase turns objects whose keys are small integers into arrays; the index is the key.
            try reader.beginArray()
            var index = 0
            while try reader.nextElement() {
                if try reader.peekKind() == .null {
                    try reader.readNull()
                } else {
                    let key = Array(String(index).utf8)
                    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: key.count, alignment: 1)
                    defer { buffer.deallocate() }
                    buffer.copyBytes(from: key)
                    try dispatch(node, UnsafeRawBufferPointer(buffer))
                }
                index += 1
            }
        default:
            try reader.skipValue()
        }
    }

    /// Follows `key` from `node`: a literal child, else the capture child, else the value is skipped.
    /// `key` points into the reader's buffers, so it is used before the next read.
    private mutating func dispatch(_ node: Int, _ key: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
        if let child = trie.literal(node, key) {
            try visit(child)
            return
        }
        let child = trie.nodes[node].captureChild
        // Keys starting with "." are Firebase metadata (.priority, .value), never data keys.
        guard child >= 0, key.first != UInt8(ascii: ".") else {
            try reader.skipValue()
            return
        }
        let id = dataset.keys.intern(key)
        let saved = captures
        for slot in trie.nodes[node].captureSlots { captures[slot] = id }
        try visit(child)
        captures = saved
        if reader.offset >= nextCheckpoint { checkpoint() }
    }

    private mutating func visit(_ node: Int) throws(JSONSyntaxError) {
        if trie.nodes[node].terminals.isEmpty {
            try walkChildren(of: node)
        } else {
            try readEntity(node)
        }
    }

    /// Reads the node where one or more relations end: its fields, and deeper relations inside it.
    private mutating func readEntity(_ node: Int) throws(JSONSyntaxError) {
        let fields = fieldTries[node]
        for slot in fields.allSlots { values[slot] = .missing }
        var present = true
        switch try reader.peekKind() {
        case .object:
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if let field = fields.child(0, key) {
                    try readField(fields, field)
                } else if trie.literal(node, key) != nil || trie.nodes[node].captureChild >= 0 {
                    try dispatch(node, key)
                } else {
                    try reader.skipValue()
                }
            }
        case .null:
            try reader.readNull()
            present = false
        case .bool:
            // `false` is how some clients "remove" an edge; any other value (true, 1, an object) is present.
            present = try reader.readBool()
        default:
            try reader.skipValue()
        }
        for relation in trie.nodes[node].terminals {
            emit(relation, present: present)
        }
    }

    private mutating func readField(_ fields: FieldTrie, _ node: Int) throws(JSONSyntaxError) {
        let entry = fields.nodes[node]
        if entry.children.isEmpty {
            let value = try readScalar(asKey: entry.slots.allSatisfy { keySlots[$0] })
            for slot in entry.slots { values[slot] = value }
            return
        }
        guard try reader.peekKind() == .object else {
            if entry.slots.isEmpty {
                try reader.skipValue()
            } else {
                let value = try readScalar()
                for slot in entry.slots { values[slot] = value }
            }
            return
        }
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if let child = fields.child(node, key) {
                try readField(fields, child)
            } else {
                try reader.skipValue()
            }
        }
    }

    /// Reads a leaf value. A `{".value": v, ".priority": p}` wrapper (a value with a priority) reads as `v`.
    private mutating func readScalar(unwrap: Bool = true, asKey: Bool = false) throws(JSONSyntaxError) -> FieldValue {
        switch try reader.peekKind() {
        case .string:
            if asKey { return .key(dataset.keys.intern(try reader.readStringBytes())) }
            return .string(try reader.readString())
        case .number: return .number(try reader.readNumber())
        case .bool: return .bool(try reader.readBool())
        case .null:
            try reader.readNull()
            return .null
        case .array:
            try reader.skipValue()
            return .array
        case .object:
            guard unwrap else {
                try reader.skipValue()
                return .object
            }
            var value = FieldValue.object
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if key.elementsEqual(".value".utf8) {
                    value = try readScalar(unwrap: false, asKey: asKey)
                } else {
                    try reader.skipValue()
                }
            }
            return value
        }
    }

    private func capture(_ slot: CaptureSlot) -> KeyID { captures[slot] }

    /// Every few megabytes: report progress, and drop the mapped pages already read, so that resident memory
    /// holds the core, not the export (the reader never looks back except to locate an error, and a dropped
    /// page of a file mapping is simply read again then).
    private mutating func checkpoint() {
        nextCheckpoint = reader.offset + Self.checkpointInterval
        progress?(reader.offset, buffer.count)
        guard releasesConsumedPages, let base = buffer.baseAddress else { return }
        let page = 1 << 16
        let end = (reader.offset - page) & ~(page - 1)
        if end > 0 { _ = madvise(UnsafeMutableRawPointer(mutating: base), end, MADV_DONTNEED) }
    }

    private static let checkpointInterval = 32 << 20

    private func value(_ relation: RelationKind, _ role: FieldRole) -> FieldValue {
        values[FieldRole.slot(relation, role)]
    }

    /// The key of `relation`'s entity: its key field where the schema names one and the row has it (Parse's
    /// `objectId`), else the key captured as `slot`.
    private mutating func entityKey(_ relation: RelationKind, _ slot: CaptureSlot) -> KeyID {
        if hasField[FieldRole.slot(relation, .key)], let key = value(relation, .key).key(in: &dataset.keys) {
            return key
        }
        return capture(slot)
    }

    /// One end of an edge: the row's field where the schema names one (a Parse pointer), else the capture.
    private mutating func end(_ relation: RelationKind, _ slot: CaptureSlot) -> KeyID {
        guard hasField[FieldRole.slot(relation, slot.role)] else { return capture(slot) }
        return value(relation, slot.role).key(in: &dataset.keys) ?? noKey
    }

    private mutating func emit(_ relation: RelationKind, present: Bool) {
        guard present else { return }
        switch relation {
        case .users:
            let key = entityKey(.users, .user)
            guard key != noKey else { return }
            dataset.users.append(User(
                key: key, username: value(.users, .username).string, name: value(.users, .name).string,
                profileImageURL: value(.users, .profileImageURL).string
            ))
        case .posts:
            emitPost()
        case .timeline:
            let poster = value(.timeline, .timelinePoster).key(in: &dataset.keys) ?? noKey
            dataset.timeline.append(TimelineEntry(user: capture(.user), post: capture(.post), posterUID: poster))
        case .likes, .likeMirror, .following, .followers, .postMirror, .flags:
            guard let ends = relation.ends else { return }
            let a = end(relation, ends.first), b = end(relation, ends.second)
            // A row without one of its ends (a Parse pointer that is null) names no pair; there is nothing to keep.
            guard a != noKey, b != noKey else { return }
            let id = entityKey(relation, .id)
            switch relation {
            case .likes: dataset.likes.append(Like(post: a, user: b, id: id))
            case .likeMirror: dataset.likeMirror.append(Like(post: a, user: b, id: id))
            case .flags: dataset.flags.append(Flag(post: a, user: b, id: id))
            case .postMirror: dataset.postMirror.append(OwnedPost(user: a, post: b))
            case .following: dataset.following.append(Follow(user: a, target: b, id: id))
            default: dataset.followers.append(Follow(user: a, target: b, id: id))
            }
        }
    }

    private mutating func emitPost() {
        guard let relation = dataset.schema.posts else { return }
        let key = entityKey(.posts, .post)
        guard key != noKey else { return }
        var post = Post(key: key)
        post.pathOwner = capture(.poster)
        func value(_ role: FieldRole) -> FieldValue { values[FieldRole.slot(.posts, role)] }
        if let owner = value(.owner).key(in: &dataset.keys) { post.ownerField = owner }
        if let time = relation.createdAt { post.createdAt = Timestamp.seconds(value(.createdAt), unit: time.unit) }
        post.caption = value(.caption).string
        post.imageURL = value(.imageURL).string
        post.imageHeight = value(.imageHeight).double
        post.storedLikeCount = value(.likeCount).int64
        if let uid = value(.posterUID).key(in: &dataset.keys) { post.posterCopyUID = uid }
        post.posterCopyUsername = value(.posterUsername).string

        for check in postChecks {
            let found = value(check.role)
            let wrongType: Bool
            switch found {
            case .missing, .null: wrongType = check.required
            default:
                wrongType = found.typeName != check.expected
                    || (check.role == .likeCount && found.int64 == nil)
                    || (check.role == .createdAt && post.createdAt == nil)
            }
            if wrongType {
                let actual = found.typeName == check.expected ? "malformed \(check.expected)" : found.typeName
                dataset.fieldProblems.append(FieldProblem(
                    path: dataset.path(of: post, field: check.path), expected: check.expected, actual: actual))
            }
        }
        dataset.posts.append(post)
    }
}

/// The keys captured on the way down the tree, one per ``CaptureSlot``: a plain value, so saving and
/// restoring it around each level costs no allocation.
struct Captures {
    private var user = noKey, post = noKey, poster = noKey, target = noKey, id = noKey

    subscript(slot: CaptureSlot) -> KeyID {
        get {
            switch slot {
            case .user: user
            case .post: post
            case .poster: poster
            case .target: target
            case .id: id
            }
        }
        set {
            switch slot {
            case .user: user = newValue
            case .post: post = newValue
            case .poster: poster = newValue
            case .target: target = newValue
            case .id: id = newValue
            }
        }
    }
}
