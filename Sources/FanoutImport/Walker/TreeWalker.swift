import FanoutCore
import FanoutJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an export in one pass, guided by the schema's patterns, and hands the facts it finds to its sink:
/// the domain core (``DatasetSink``) or a streaming table writer (see ``FactSink``).
///
/// Nodes no pattern mentions are skipped by the reader without building anything. Recursion follows the
/// schema's patterns and field paths only, so its depth is bounded by the schema, not by the input.
/// A Firebase export is one tree (``run(_:)``); a Parse export is one file per class, each walked as the
/// subtree under its class name (``runClass(_:_:positionBase:)``) into the same sink.
struct TreeWalker<Sink: FactSink> {
    private var reader = JSONReader(UnsafeRawBufferPointer(start: nil, count: 0))
    private(set) var sink: Sink
    private let schema: Schema
    /// Added to reader offsets to give facts their position (a Parse class file's place among the files).
    private var positionBase = 0
    private let trie: PatternTrie
    /// `trie` and the fields of the entities that end at its nodes, frozen for lookups that retain nothing
    /// (see ``FlatTrie`` for what their lists hold).
    private let patterns: FlatTrie
    private let fields: FlatTrie
    /// Per value slot, whether the schema names a field for it (edges and keys read from rows).
    private let hasField: [Bool]
    /// Per declared row set (``RowSets``): the slots of its captures, of its key fields, and of its value.
    private let declared: [(captures: [CaptureSlot], keyFields: [Int], value: Int?)]
    /// The keys of the declared row being emitted.
    private let rowKeys: KeyBuffer
    /// The post fields `post-field` checks, worked out once instead of per post.
    private let postChecks: [(path: FieldPath, role: FieldRole, required: Bool, expected: String)]
    /// The readers of posts' and comments' date strings (``Timestamp/reader(_:)``).
    private let postDates: Timestamp.Reader?, commentDates: Timestamp.Reader?
    private var captures = Captures()
    /// Called with the bytes read so far and the total, every few megabytes.
    var progress: ((Int, Int) -> Void)?
    /// Whether pages the reader has passed may be dropped (a read-only file mapping, never heap memory).
    var releasesConsumedPages = false
    /// Whether the skim of a split read (``findSplit(in:near:)``) drops the pages it passed too, so that resident
    /// memory stays bounded while it runs ahead (a streaming sink's promise); the core's read leaves them for the
    /// first walker, which is about to read them.
    var releasesSkimmedPages = false
    private var buffer = UnsafeRawBufferPointer(start: nil, count: 0)
    private var nextCheckpoint = 0
    /// Where this walker started reading: 0, or the split point of the second walker of a split read.
    private var regionStart = 0
    /// The offset up to which consumed pages of the mapped export were given back.
    private var releasedUpTo = 0
    /// The other walker of a split read, when there is one (see `SplitRead.swift`).
    var handoff: SplitHandoff?
    /// The offset at which this walker next asks the handoff whether to stop (the first walker of a split
    /// read stops at the split point, where the second walker took over).
    private var stopCheck = Int.max
    private var split: SplitPoint?
    /// Where this walker stops when it reads one part of an export (`fanout tables --part`): the split point where
    /// the next part starts, found by the same skim (``findSplits(in:near:)``).
    var partEnd: SplitPoint?
    /// Whether the walker stopped at the split point, leaving the rest of the export to the second walker (or to
    /// the next part).
    private(set) var stoppedAtSplit = false
    private let values: SlotValues
    private(set) var matchedRootKeys = 0
    /// The first top-level keys read, for messages (see ``rootKeyCount`` for how many there are).
    private(set) var rootKeys: [String] = []
    /// How many top-level keys the export has.
    private(set) var rootKeyCount = 0
    /// Per relation (``RelationKind/rawValue``), how many nodes its pattern reached, so that a schema whose path
    /// matches nothing can be told from an export that has nothing of that kind.
    var matches: [Int] { matchCounts.array }
    private var matchCounts = RelationCounts()
    /// Per declared row set, how many nodes its pattern reached.
    private(set) var declaredMatches: [Int]
    /// Whether the top level was an object.
    private(set) var rootWasObject = false
    /// Top-level keys to report when seen: other layouts' own keys, so detection can tell a mixed export.
    var watchedRootKeys: [String] = [] {
        didSet { watchedBytes = watchedRootKeys.map { Array($0.utf8) } }
    }
    private var watchedBytes: [[UInt8]] = []
    /// The watched keys the export has, in the order read.
    private(set) var seenWatchedKeys: [String] = []

    init(schema: Schema, sink: Sink) throws(InputError) {
        self.schema = schema
        self.sink = sink
        var trie = PatternTrie()
        for relation in RelationKind.allCases {
            guard let pattern = relation.pattern(in: schema) else { continue }
            let captures = relation.captures(in: schema)
            let slots = try PatternTrie.slots(of: pattern, required: captures.required, optional: captures.optional)
            trie.insert(pattern, relation: relation.rawValue, slots: slots)
        }
        // The declarations' row sets, numbered after the relations, their value slots after the relations' slots.
        let sets = RowSets(schema).sets
        let layout = try DeclaredRowLayout(sets)
        for (index, set) in sets.enumerated() {
            trie.insert(set.pattern, relation: RelationKind.declaredBase + index, slots: layout.sets[index].captures)
        }
        let slotCount = layout.slotCount
        let keySlots = (0..<FieldRole.slotCount).map { FieldRole.role(ofSlot: $0).isKey } + layout.keySlots
        declared = layout.sets
        declaredMatches = Array(repeating: 0, count: sets.count)
        values = SlotValues(count: slotCount)
        rowKeys = KeyBuffer(count: sets.map(\.keyCount).max() ?? 0)
        if let posts = schema.posts, !posts.pattern.captureNames.contains("poster"), posts.owner == nil {
            throw InputError.schema("posts need an owner: capture {poster} in the pattern or name an owner field")
        }
        // Every entity's fields in one flat trie: a root per pattern node where relations end.
        var fieldNodes: [FlatTrie.Input] = []
        var patternNodes: [FlatTrie.Input] = []
        var hasField = [Bool](repeating: false, count: slotCount)
        for node in trie.nodes {
            var flat = FlatTrie.Input(
                children: node.literals.map { ($0.key, $0.child) }, first: node.captureSlots.map(\.rawValue),
                second: node.terminals, extra: node.captureChild, link: -1)
            if !node.terminals.isEmpty {
                var fields = FieldTrie()
                for relation in node.terminals {
                    if let kind = RelationKind(rawValue: relation) {
                        for (path, role) in FieldRole.fields(of: kind, in: schema) {
                            let slot = FieldRole.slot(kind, role)
                            fields.insert(path, slot: slot)
                            hasField[slot] = true
                        }
                    } else {
                        for (path, slot) in layout.fields[relation - RelationKind.declaredBase] {
                            fields.insert(path, slot: slot)
                            hasField[slot] = true
                        }
                    }
                }
                let base = fieldNodes.count
                flat.link = base
                for (index, field) in fields.nodes.enumerated() {
                    fieldNodes.append(
                        FlatTrie.Input(
                            children: field.children.map { ($0.key, base + $0.child) }, first: field.slots,
                            second: index == 0 ? fields.allSlots : [],
                            extra: field.slots.allSatisfy { keySlots[$0] } ? 1 : 0))
                }
            }
            patternNodes.append(flat)
        }
        self.trie = trie
        self.patterns = FlatTrie(patternNodes)
        self.fields = FlatTrie(fieldNodes)
        self.hasField = hasField
        let required = Set(schema.posts?.required ?? [])
        postDates = Timestamp.reader(schema.posts?.createdAt)
        commentDates = Timestamp.reader(schema.comments?.createdAt)
        postChecks = FieldRole.fields(of: .posts, in: schema).map { path, role in
            let expected = role == .createdAt ? Timestamp.typeName(schema.posts?.createdAt?.unit) : role.expectedType
            return (path, role, required.contains(path), expected)
        }
    }

    /// The literal keys the schema expects at the top level.
    var rootLiterals: [String] { trie.rootLiterals }

    /// Reads a whole export tree from `buffer`, which must stay valid until this returns.
    /// With a ``handoff``, stops at the split point the second walker found (see ``stoppedAtSplit``).
    /// `positionBase` is added to the tree's offsets to give facts their ``FactSink`` position (a Firestore part's
    /// place among the parts).
    mutating func run(_ buffer: UnsafeRawBufferPointer, positionBase: Int = 0) throws(JSONSyntaxError) {
        self.positionBase = positionBase
        sink.prepare(reading: min(handoff?.target ?? buffer.count, buffer.count), of: buffer.count)
        reader = JSONReader(buffer)
        self.buffer = buffer
        nextCheckpoint = Self.checkpointInterval
        if let handoff { stopCheck = handoff.target }
        if let partEnd { stopCheck = partEnd.position.offset }
        guard try reader.peekKind() == .object else {
            try reader.skipValue()
            try reader.finish()
            return
        }
        rootWasObject = true
        try reader.beginObject()
        try readRootMembers()
        if stoppedAtSplit {
            sink.completeFacts()
            return
        }
        try reader.finish()
        sink.completeFacts()
    }

    /// Reads the export from `split` to its end: the rest of the split section's members, then the remaining
    /// top-level keys. The first walker reads everything before `split`.
    mutating func resume(_ buffer: UnsafeRawBufferPointer, at split: SplitPoint) throws(JSONSyntaxError) {
        sink.prepare(reading: buffer.count - split.position.offset, of: buffer.count)
        reader = JSONReader(buffer, resumingAt: split.position)
        self.buffer = buffer
        regionStart = split.position.offset
        nextCheckpoint = regionStart + Self.checkpointInterval
        rootWasObject = true
        if let partEnd { stopCheck = partEnd.position.offset }
        while let key = try reader.nextKey() {
            try dispatch(split.node, key)
            sink.settleKeys()
            if reader.offset >= stopCheck, try reachedStopCheck(split.node) { break }
        }
        if !stoppedAtSplit { try readRootMembers() }
        if !stoppedAtSplit { try reader.finish() }
        sink.completeFacts()
    }

    /// Reads top-level members up to the end of the root object (or up to the split point).
    private mutating func readRootMembers() throws(JSONSyntaxError) {
        let rootCaptures = trie.nodes[0].captureChild >= 0
        while let key = try reader.nextKey() {
            if rootKeys.count < 50 { rootKeys.append(String(decoding: key, as: UTF8.self)) }
            rootKeyCount += 1
            if trie.literal(0, key) != nil || (rootCaptures && key.first != UInt8(ascii: ".")) { matchedRootKeys += 1 }
            for watched in watchedBytes where watched.elementsEqual(key) {
                seenWatchedKeys.append(String(decoding: key, as: UTF8.self))
            }
            try dispatch(0, key)
            sink.settleKeys()
            if stoppedAtSplit { return }
        }
    }

    /// Takes over what the second walker of a split read found, after ``stoppedAtSplit``; its sink is left empty.
    mutating func append(_ second: inout TreeWalker) {
        rootKeys.append(contentsOf: second.rootKeys.prefix(max(0, 50 - rootKeys.count)))
        rootKeyCount += second.rootKeyCount
        for relation in RelationKind.allCases {
            matchCounts.add(second.matchCounts[relation.rawValue], to: relation.rawValue)
        }
        for i in declaredMatches.indices { declaredMatches[i] += second.declaredMatches[i] }
        matchedRootKeys += second.matchedRootKeys
        seenWatchedKeys += second.seenWatchedKeys
        sink.append(&second.sink)
    }

    /// Skims the export from the start (building nothing) for a place near `target` where a second walker can
    /// take over: just after a member of a top-level section the schema names literally, whose members are
    /// entities walked one by one. Returns nil when there is none or the skim fails (the first walker then reads
    /// the whole export and reports any error).
    ///
    /// Values are skimmed without validation (``JSONReader/skipValueUnchecked()``, several times faster), so on
    /// malformed JSON the place found may be no boundary at all. That is safe: the first walker, which validates
    /// everything before it, stops there only if it ends a member of the same section at exactly that offset,
    /// where the second walker's reader state (inside the root and the section, after a value) is then the true
    /// one; else it reads on alone (``reachedStopCheck(_:)``).
    func findSplit(in buffer: UnsafeRawBufferPointer, near target: Int) -> SplitPoint? {
        findSplits(in: buffer, near: [target])[0]
    }

    /// ``findSplit(in:near:)`` for several targets, in increasing order, in one skim: for each, the first place at
    /// or after it (two targets may get the same place), nil past the last place there is.
    func findSplits(in buffer: UnsafeRawBufferPointer, near targets: [Int]) -> [SplitPoint?] {
        var found = [SplitPoint?](repeating: nil, count: targets.count)
        var next = 0
        var skimmer = JSONReader(buffer)
        var released = 0
        do {
            guard try skimmer.peekKind() == .object else { return found }
            try skimmer.beginObject()
            while let key = try skimmer.nextKey() {
                guard let node = trie.literal(0, key), trie.nodes[node].terminals.isEmpty,
                    try skimmer.peekKind() == .object
                else {
                    try skimmer.skipValueUnchecked()
                    continue
                }
                try skimmer.beginObject()
                while try skimmer.nextKey() != nil {
                    try skimmer.skipValueUnchecked()
                    while next < targets.count, skimmer.offset >= targets[next] {
                        found[next] = SplitPoint(position: skimmer.position, node: node)
                        next += 1
                    }
                    if next == targets.count { return found }
                    if releasesSkimmedPages, skimmer.offset - released >= Self.checkpointInterval {
                        released = MappedPages.release(buffer, from: released, before: skimmer.offset)
                    }
                }
            }
        } catch {
            return found
        }
        return found
    }

    /// Called by the first walker of a split read at the end of a member at or past `stopCheck`: the first
    /// time, learns the split point (or that there is none); at the split point, stops.
    private mutating func reachedStopCheck(_ node: Int) throws(JSONSyntaxError) -> Bool {
        if let partEnd {
            // A part ends where the skim found the next part's start; a valid export has a member's end there.
            guard reader.offset == partEnd.position.offset, node == partEnd.node else {
                throw reader.error(
                    "the next part of the export starts inside this value by the skim's reckoning, so the export is not "
                        + "valid JSON before it; read it in one piece to find the error", at: reader.offset)
            }
            stoppedAtSplit = true
            return true
        }
        guard let handoff else { return false }
        if split == nil {
            split = handoff.splitForFirstWalker()
            guard let split else {
                stopCheck = Int.max
                return false
            }
            stopCheck = split.position.offset
            if reader.offset < stopCheck { return false }
        }
        guard let split, reader.offset == split.position.offset, node == split.node else {
            // Not where the skimmer said: read on alone (the second walker's facts are dropped).
            handoff.reject()
            stopCheck = Int.max
            return false
        }
        stoppedAtSplit = true
        return true
    }

    /// Reads one Parse class file from `buffer` as the subtree under the top-level key `className`.
    ///
    /// The file is `{"results": [...]}` (Parse's export) or a bare array of objects. Returns false, having
    /// read nothing, when it is neither.
    /// `positionBase` is added to the file's offsets to give facts their ``FactSink`` position: each class file
    /// gets its own range, in the order the files are read.
    mutating func runClass(_ className: String, _ buffer: UnsafeRawBufferPointer, positionBase: Int = 0)
        throws(JSONSyntaxError) -> Bool
    {
        reader = JSONReader(buffer)
        self.positionBase = positionBase
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
        sink.completeFacts()
        if recognized, node != nil { matchedRootKeys += 1 }
        return recognized
    }

    private mutating func walkChildren(of node: Int) throws(JSONSyntaxError) {
        guard var members = try FirebaseMembers(&reader) else {
            try reader.skipValue()
            return
        }
        while let key = try members.next(&reader) {
            try dispatch(node, key)
            // Between members of a level above every capture, the walker holds no key: the sink may settle them.
            if captures.isEmpty { sink.settleKeys() }
            if reader.offset >= stopCheck, try reachedStopCheck(node) { return }
        }
    }

    /// Follows `key` from `node`: a literal child, else the capture child, else the value is skipped.
    /// `key` points into the reader's buffers, so it is used before the next read.
    private mutating func dispatch(_ node: Int, _ key: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
        if let child = patterns.child(node, key) {
            try visit(child)
            return
        }
        let child = patterns.nodes[node].extra
        // Keys starting with "." are Firebase metadata (.priority, .value), never data keys.
        guard child >= 0, key.first != UInt8(ascii: ".") else {
            try reader.skipValue()
            return
        }
        let mark = sink.keyMark
        let id = sink.key(key)
        let slots = patterns.first(node)
        if slots.count == 1 {
            // One name captured here, as nearly always: only its slot is kept aside, not every slot.
            let slot = CaptureSlot(rawValue: slots[0])!
            let saved = captures[slot]
            captures[slot] = id
            try visit(child)
            captures[slot] = saved
        } else {
            let saved = captures
            for slot in slots { captures[CaptureSlot(rawValue: slot)!] = id }
            try visit(child)
            captures = saved
        }
        sink.releaseKeys(to: mark)
        if reader.offset >= nextCheckpoint { try checkpoint() }
    }

    private mutating func visit(_ node: Int) throws(JSONSyntaxError) {
        if patterns.nodes[node].second.isEmpty {
            try walkChildren(of: node)
        } else {
            try readEntity(node)
        }
    }

    /// Reads the node where one or more relations end: its fields, and deeper relations inside it.
    private mutating func readEntity(_ node: Int) throws(JSONSyntaxError) {
        let root = patterns.nodes[node].link
        for slot in fields.second(root) { values[slot] = .missing }
        // A declared row may keep the node's own value (a counter stored as `postCounts/{poster}: 3`).
        let own = fields.first(root)
        var present = true, isNull = false
        switch try reader.peekKind() {
        case .object:
            for slot in own { values[slot] = .object }
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if let field = fields.child(root, key) {
                    // A Firestore document may have a subcollection named as one of its fields (`pseudonym: "ada"`
                    // beside `pseudonym/{name}`): its tree holds the key twice, the field first, so a second
                    // object under a key already read is the subcollection.
                    if fieldWasRead(field), patterns.child(node, key) != nil, try reader.peekKind() == .object {
                        try dispatch(node, key)
                    } else {
                        try readField(field)
                    }
                } else if !own.isEmpty, key.elementsEqual(".value".utf8) {
                    // A value with a priority (`{".value": 3, ".priority": 1}`), as a declared row keeps it.
                    let value = try readScalar(unwrap: false)
                    for slot in own { values[slot] = value }
                } else if key.elementsEqual(Self.absentKey) {
                    // A Firestore document that does not exist, above documents of its subcollections.
                    try reader.skipValue()
                    present = false
                    isNull = true
                } else if patterns.child(node, key) != nil || patterns.nodes[node].extra >= 0 {
                    try dispatch(node, key)
                } else {
                    try reader.skipValue()
                }
            }
        case .null:
            try reader.readNull()
            present = false
            isNull = true
        case .bool:
            // `false` is how some clients "remove" an edge; any other value (true, 1, an object) is present.
            present = try reader.readBool()
            for slot in own { values[slot] = .bool(present) }
        default:
            if own.isEmpty {
                try reader.skipValue()
            } else {
                let value = try readScalar()
                for slot in own { values[slot] = value }
            }
        }
        for relation in patterns.second(node) {
            if relation < RelationKind.declaredBase {
                matchCounts.add(1, to: relation)
                emit(RelationKind(rawValue: relation)!, present: present)
            } else if !isNull {
                // A declared row is any value but null: a counter or a copied flag may be `false`.
                emitDeclared(relation - RelationKind.declaredBase)
            }
        }
    }

    /// The key a Firestore export's tree holds in a document that does not exist (``DocumentJSON``): no
    /// Realtime Database key can start with ".", and the walker skips such keys everywhere else.
    static var absentKey: String.UTF8View { ".absent".utf8 }

    /// Whether the leaf field `node` of ``fields`` has a value already in the entity being read.
    private func fieldWasRead(_ node: Int) -> Bool {
        guard fields.nodes[node].childCount == 0 else { return false }
        return fields.first(node).contains { if case .missing = values[$0] { false } else { true } }
    }

    /// Reads the value of the field whose node is `node` in ``fields``.
    private mutating func readField(_ node: Int) throws(JSONSyntaxError) {
        let entry = fields.nodes[node]
        if entry.childCount == 0 {
            let value = try readScalar(asKey: entry.extra == 1)
            for slot in fields.first(node) { values[slot] = value }
            return
        }
        guard try reader.peekKind() == .object else {
            if entry.first.isEmpty {
                try reader.skipValue()
            } else {
                let value = try readScalar()
                for slot in fields.first(node) { values[slot] = value }
            }
            return
        }
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if let child = fields.child(node, key) {
                try readField(child)
            } else {
                try reader.skipValue()
            }
        }
    }

    /// Reads a leaf value. A `{".value": v, ".priority": p}` wrapper (a value with a priority) reads as `v`.
    private mutating func readScalar(unwrap: Bool = true, asKey: Bool = false) throws(JSONSyntaxError) -> FieldValue {
        switch try reader.peekKind() {
        case .string:
            if asKey { return .key(sink.key(try reader.readStringBytes())) }
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
    /// The second walker of a split read also publishes its progress here, and stops early once the first
    /// walker failed (its error is the one to report).
    private mutating func checkpoint() throws(JSONSyntaxError) {
        nextCheckpoint = reader.offset + Self.checkpointInterval
        if let handoff, regionStart > 0 {
            handoff.secondWalkerRead(reader.offset - regionStart)
            if handoff.isCancelled { throw reader.error("reading stopped", at: reader.offset) }
        } else {
            progress?(reader.offset + (handoff?.bytesReadBySecondWalker ?? 0), buffer.count)
        }
        if sink.hasFailed { throw reader.error("reading stopped: an output failed", at: reader.offset) }
        guard releasesConsumedPages else { return }
        releasedUpTo = MappedPages.release(buffer, from: max(releasedUpTo, regionStart), before: reader.offset)
    }

    /// Bytes between checkpoints. Each walker of a split read keeps up to this much of the mapped export
    /// resident, so it is small next to the export (8 MB of a 110 MB export) while making madvise calls rare.
    private static var checkpointInterval: Int { 8 << 20 }

    private func value(_ relation: RelationKind, _ role: FieldRole) -> FieldValue {
        values[FieldRole.slot(relation, role)]
    }

    /// The key of `relation`'s entity: its key field where the schema names one and the row has it (Parse's
    /// `objectId`), else the key captured as `slot`.
    private mutating func entityKey(_ relation: RelationKind, _ slot: CaptureSlot) -> KeyID {
        if hasField[FieldRole.slot(relation, .key)], let key = value(relation, .key).key(in: &sink) {
            return key
        }
        return capture(slot)
    }

    /// The key captured as `slot` where an entity's key `key` came from a field and differs from it, so that its
    /// paths name the node it is stored under; else ``noKey``. A Parse row's capture is its place in the class
    /// file's array, never a path: Parse rows are named by their `objectId`.
    private func storedKey(_ key: KeyID, _ slot: CaptureSlot) -> KeyID {
        let stored = capture(slot)
        return schema.format == .firebase && stored != key ? stored : noKey
    }

    /// One end of an edge: the row's field where the schema names one (a Parse pointer), else the capture.
    private mutating func end(_ relation: RelationKind, _ slot: CaptureSlot) -> KeyID {
        guard hasField[FieldRole.slot(relation, slot.role)] else { return capture(slot) }
        return value(relation, slot.role).key(in: &sink) ?? noKey
    }

    private mutating func emit(_ relation: RelationKind, present: Bool) {
        guard present else { return }
        let position = positionBase + reader.offset
        switch relation {
        case .users:
            let key = entityKey(.users, .user)
            guard key != noKey else { return }
            var user = User(
                key: key, username: value(.users, .username).string, name: value(.users, .name).string,
                profileImageURL: value(.users, .profileImageURL).string)
            user.storedKey = storedKey(key, .user)
            sink.user(user, position: position)
        case .posts:
            emitPost(position: position)
        case .timeline:
            let user = end(.timeline, .user), post = end(.timeline, .post)
            guard user != noKey, post != noKey else { return }
            let poster = value(.timeline, .timelinePoster).key(in: &sink) ?? noKey
            sink.timelineEntry(
                TimelineEntry(user: user, post: post, posterUID: poster, id: capture(.id)), position: position)
        case .comments:
            let post = end(.comments, .post), id = entityKey(.comments, .id)
            guard post != noKey, id != noKey else { return }
            var comment = Comment(id: id, post: post, user: end(.comments, .user), text: value(.comments, .text).string)
            comment.storedID = storedKey(id, .id)
            if let time = schema.comments?.createdAt {
                comment.createdAt = Timestamp.seconds(
                    value(.comments, .createdAt), unit: time.unit, reader: commentDates)
            }
            sink.comment(comment, position: position)
        case .likes, .likeMirror, .following, .followers, .postMirror, .flags:
            guard let ends = relation.ends else { return }
            let a = end(relation, ends.first), b = end(relation, ends.second)
            // A row without one of its ends (a Parse pointer that is null) names no pair; there is nothing to keep.
            guard a != noKey, b != noKey else { return }
            let id = entityKey(relation, .id)
            switch relation {
            case .likes: sink.like(Like(post: a, user: b, id: id), position: position)
            case .likeMirror: sink.mirroredLike(Like(post: a, user: b, id: id), position: position)
            case .flags: sink.flag(Flag(post: a, user: b, id: id), position: position)
            case .postMirror: sink.ownedPost(OwnedPost(user: a, post: b, id: id), position: position)
            case .following: sink.following(Follow(user: a, target: b, id: id), position: position)
            default: sink.follower(Follow(user: a, target: b, id: id), position: position)
            }
        }
    }

    /// Hands over a row of declared row set `set`: its captured keys, its key fields, its value.
    private mutating func emitDeclared(_ set: Int) {
        let spec = declared[set]
        var i = 0
        for slot in spec.captures {
            rowKeys[i] = captures[slot]
            i += 1
        }
        for slot in spec.keyFields {
            rowKeys[i] = values[slot].key(in: &sink) ?? noKey
            i += 1
        }
        let value = spec.value.map { values[$0].stored } ?? .missing
        // Matched: a row holding what the declaration reads (its value, or every key it names).
        if spec.value != nil ? value.isPresent : !rowKeys.prefix(i).contains(noKey) { declaredMatches[set] += 1 }
        sink.declaredRow(set, keys: rowKeys.prefix(i), value: value, position: positionBase + reader.offset)
    }

    private mutating func emitPost(position: Int) {
        guard let relation = schema.posts else { return }
        let key = entityKey(.posts, .post)
        guard key != noKey else { return }
        var post = Post(key: key)
        post.storedKey = storedKey(key, .post)
        post.pathOwner = capture(.poster)
        func value(_ role: FieldRole) -> FieldValue { values[FieldRole.slot(.posts, role)] }
        if let owner = value(.owner).key(in: &sink) { post.ownerField = owner }
        if let time = relation.createdAt {
            post.createdAt = Timestamp.seconds(value(.createdAt), unit: time.unit, reader: postDates)
        }
        post.caption = value(.caption).string
        post.imageURL = value(.imageURL).string
        post.imageHeight = value(.imageHeight).double
        post.storedLikeCount = value(.likeCount).int64
        if let uid = value(.posterUID).key(in: &sink) { post.posterCopyUID = uid }
        post.posterCopyUsername = value(.posterUsername).string

        for check in postChecks {
            let found = value(check.role)
            let wrongType: Bool
            switch found {
            case .missing, .null: wrongType = check.required
            default:
                let typeFits = check.role.isKey ? found.namesKey : found.typeName == check.expected
                wrongType =
                    !typeFits
                    || (check.role == .likeCount && found.int64 == nil)
                    || (check.role == .createdAt && post.createdAt == nil)
            }
            if wrongType {
                var expected = check.expected
                var actual = found.typeName == check.expected ? "malformed \(check.expected)" : found.typeName
                // A date that does not read is named with its value and the form it should have.
                if check.role == .createdAt, let value = found.quoted {
                    expected = Timestamp.described(schema.posts?.createdAt)
                    actual = "\(found.typeName) \(value)"
                }
                sink.fieldProblem(post, field: check.path, expected: expected, actual: actual)
            }
        }
        sink.post(post, position: position)
    }
}

/// The keys captured on the way down the tree, one per ``CaptureSlot``: a plain value, so saving and
/// restoring it around each level costs no allocation.
struct Captures {
    private var user = noKey, post = noKey, poster = noKey, target = noKey, id = noKey
    private var others: (KeyID, KeyID, KeyID, KeyID) = (noKey, noKey, noKey, noKey)

    /// Whether no key is captured (the walker is above every capturing level).
    var isEmpty: Bool {
        user == noKey && post == noKey && poster == noKey && target == noKey && id == noKey
            && others == (noKey, noKey, noKey, noKey)
    }

    subscript(slot: CaptureSlot) -> KeyID {
        get {
            switch slot {
            case .user: user
            case .post: post
            case .poster: poster
            case .target: target
            case .id: id
            case .other0: others.0
            case .other1: others.1
            case .other2: others.2
            case .other3: others.3
            }
        }
        set {
            switch slot {
            case .user: user = newValue
            case .post: post = newValue
            case .poster: poster = newValue
            case .target: target = newValue
            case .id: id = newValue
            case .other0: others.0 = newValue
            case .other1: others.1 = newValue
            case .other2: others.2 = newValue
            case .other3: others.3 = newValue
            }
        }
    }
}
