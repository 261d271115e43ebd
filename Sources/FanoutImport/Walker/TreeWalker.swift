import FanoutCore
import FanoutJSON

/// Reads an export in one pass, guided by the schema's patterns, and fills the domain core.
///
/// Nodes no pattern mentions are skipped by the reader without building anything. Recursion follows the
/// schema's patterns and field paths only, so its depth is bounded by the schema, not by the input.
struct TreeWalker {
    private var reader: JSONReader
    private(set) var dataset: Dataset
    private let trie: PatternTrie
    /// Per trie node, the fields of the entities that end there.
    private let fieldTries: [Int: FieldTrie]
    private var captures = [KeyID](repeating: noKey, count: CaptureSlot.allCases.count)
    private var values = [FieldValue](repeating: .missing, count: FieldSlot.allCases.count)
    private(set) var matchedRootKeys = 0
    private(set) var rootKeys: [String] = []

    init(buffer: UnsafeRawBufferPointer, schema: Schema) throws(InputError) {
        reader = JSONReader(buffer)
        dataset = Dataset(schema: schema)
        var trie = PatternTrie()
        if let users = schema.users { try trie.insert(users.pattern, .users, required: [.user]) }
        if let posts = schema.posts { try trie.insert(posts.pattern, .posts, required: [.post], optional: [.poster]) }
        if let likes = schema.likes { try trie.insert(likes.pattern, .likes, required: [.post, .user]) }
        if let mirror = schema.likeMirror { try trie.insert(mirror.pattern, .likeMirror, required: [.post, .user]) }
        if let following = schema.following { try trie.insert(following.pattern, .following, required: [.user, .target]) }
        if let followers = schema.followers { try trie.insert(followers.pattern, .followers, required: [.user, .target]) }
        if let timeline = schema.timeline { try trie.insert(timeline.pattern, .timeline, required: [.user, .post]) }
        if schema.posts?.pattern.captureNames.contains("poster") != true && schema.posts != nil && schema.posts?.owner == nil {
            throw InputError.schema("posts need an owner: capture {poster} in the pattern or name an owner field")
        }
        var fieldTries: [Int: FieldTrie] = [:]
        for (index, node) in trie.nodes.enumerated() where !node.terminals.isEmpty {
            var fields = FieldTrie()
            for relation in node.terminals {
                for (path, slot) in FieldSlot.fields(of: relation, in: schema) { fields.insert(path, slot: slot.rawValue) }
            }
            fieldTries[index] = fields
        }
        self.trie = trie
        self.fieldTries = fieldTries
    }

    /// Reads the whole export.
    mutating func run() throws(JSONSyntaxError) {
        guard try reader.peekKind() == .object else {
            try reader.skipValue()
            try reader.finish()
            return
        }
        rootWasObject = true
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if rootKeys.count < 50 { rootKeys.append(String(decoding: key, as: UTF8.self)) }
            if trie.literal(0, key) != nil { matchedRootKeys += 1 }
            try dispatch(0, key)
        }
        try reader.finish()
    }

    /// Whether the top level was an object.
    private(set) var rootWasObject = false

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
        for slot in trie.nodes[node].captureSlots { captures[slot.rawValue] = id }
        try visit(child)
        captures = saved
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
        let fields = fieldTries[node] ?? FieldTrie()
        for slot in fields.nodes.map(\.slot) where slot >= 0 { values[slot] = .missing }
        let start = reader.offset
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
            present = try reader.readBool()
        default:
            try reader.skipValue()
        }
        for relation in trie.nodes[node].terminals {
            emit(relation, present: present, offset: start)
        }
    }

    private mutating func readField(_ fields: FieldTrie, _ node: Int) throws(JSONSyntaxError) {
        let entry = fields.nodes[node]
        if entry.children.isEmpty {
            values[entry.slot] = try readScalar()
            return
        }
        guard try reader.peekKind() == .object else {
            if entry.slot >= 0 { values[entry.slot] = try readScalar() } else { try reader.skipValue() }
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
    private mutating func readScalar(unwrap: Bool = true) throws(JSONSyntaxError) -> FieldValue {
        switch try reader.peekKind() {
        case .string: return .string(try reader.readString())
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
                    value = try readScalar(unwrap: false)
                } else {
                    try reader.skipValue()
                }
            }
            return value
        }
    }

    private func capture(_ slot: CaptureSlot) -> KeyID { captures[slot.rawValue] }

    private mutating func emit(_ relation: RelationKind, present: Bool, offset: Int) {
        switch relation {
        case .users:
            guard present else { return }
            dataset.users.append(User(
                key: capture(.user), username: values[FieldSlot.username.rawValue].string,
                name: values[FieldSlot.name.rawValue].string,
                profileImageURL: values[FieldSlot.profileImageURL.rawValue].string
            ))
        case .posts:
            guard present else { return }
            emitPost()
        case .likes:
            if present { dataset.likes.append(Like(post: capture(.post), user: capture(.user))) }
        case .likeMirror:
            if present { dataset.likeMirror.append(Like(post: capture(.post), user: capture(.user))) }
        case .following:
            if present { dataset.following.append(Follow(user: capture(.user), target: capture(.target))) }
        case .followers:
            if present { dataset.followers.append(Follow(user: capture(.user), target: capture(.target))) }
        case .timeline:
            guard present else { return }
            let poster = values[FieldSlot.timelinePoster.rawValue].string.map { dataset.keys.intern($0) } ?? noKey
            dataset.timeline.append(TimelineEntry(user: capture(.user), post: capture(.post), posterUID: poster))
        }
    }

    private mutating func emitPost() {
        guard let relation = dataset.schema.posts else { return }
        var post = Post(key: capture(.post))
        post.pathOwner = capture(.poster)
        func value(_ slot: FieldSlot) -> FieldValue { values[slot.rawValue] }
        if let owner = value(.owner).string { post.ownerField = dataset.keys.intern(owner) }
        if let time = relation.createdAt { post.createdAt = Timestamp.seconds(value(.createdAt), unit: time.unit) }
        post.caption = value(.caption).string
        post.imageURL = value(.imageURL).string
        post.imageHeight = value(.imageHeight).double
        post.storedLikeCount = value(.likeCount).int64
        if let uid = value(.posterUID).string { post.posterCopyUID = dataset.keys.intern(uid) }
        post.posterCopyUsername = value(.posterUsername).string

        for (path, slot) in FieldSlot.fields(of: .posts, in: dataset.schema) {
            let found = value(slot)
            let expected = slot == .createdAt ? Timestamp.typeName(relation.createdAt?.unit) : slot.expectedType
            let wrongType: Bool
            switch found {
            case .missing: wrongType = relation.required.contains(path)
            case .null: wrongType = relation.required.contains(path)
            default:
                wrongType = found.typeName != expected
                    || (slot == .likeCount && found.int64 == nil)
                    || (slot == .createdAt && post.createdAt == nil)
            }
            if wrongType {
                let actual = found.typeName == expected ? "malformed \(expected)" : found.typeName
                dataset.fieldProblems.append(FieldProblem(
                    path: dataset.path(of: post, field: path), expected: expected, actual: actual))
            }
        }
        dataset.posts.append(post)
    }
}
