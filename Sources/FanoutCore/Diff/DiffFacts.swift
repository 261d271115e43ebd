import FanoutJSON

/// How `fanout diff` reads one relation of one export: each fact's identity (the keys its database path is made
/// of, so that equal identities are equal paths), the keys its value holds besides, its value as the diff reports
/// it, and its path (docs/diff-and-history.md, "What is compared"). The value is what the table of
/// `fanout tables` holds for the fact, so that `fanout sql --diff` compares the same.
struct DiffFacts {
    let relation: DiffRelation
    let dataset: Dataset
    /// The number of facts read (a path stored twice counts twice).
    let count: Int
    /// The facts' identity keys, a column per key, in the order the pattern captures them: made when asked for.
    private let identity: [() -> [KeyID]]
    /// The keys of the facts' values that their identity does not hold (the ends of a row read from its fields).
    private let valueKeys: [() -> [KeyID]]
    /// For a declaration's rows: its row set.
    private let rowSet: Int?

    init(_ relation: DiffRelation, of dataset: Dataset) {
        self.relation = relation
        self.dataset = dataset
        let schema = dataset.schema
        /// The captured ends of `pattern` among `ends` are the identity; the other ends (but a row's `id`) and
        /// `extra` are value keys.
        func split(_ pattern: PathPattern?, _ ends: [String: () -> [KeyID]], extra: [() -> [KeyID]] = [])
            -> (identity: [() -> [KeyID]], values: [() -> [KeyID]])
        {
            let captured = pattern?.captureNames ?? []
            let values = ends.filter { !captured.contains($0.key) && $0.key != "id" }.sorted { $0.key < $1.key }.map(
                \.value)
            return (captured.compactMap { ends[$0] }, values + extra)
        }
        var set: Int?
        let keys: (identity: [() -> [KeyID]], values: [() -> [KeyID]])
        switch relation {
        case .users:
            count = dataset.users.count
            keys = split(schema.users?.pattern, ["user": { dataset.users.map(\.key) }])
        case .posts:
            count = dataset.posts.count
            keys = split(
                schema.posts?.pattern,
                ["post": { dataset.posts.map(\.key) }, "poster": { dataset.posts.map(\.pathOwner) }],
                extra: [{ dataset.posts.map(\.owner) }, { dataset.posts.map(\.posterCopyUID) }])
        case .likes, .likeMirror, .flags:
            let edges: [Like] =
                relation == .flags
                ? dataset.flags.map { Like(post: $0.post, user: $0.user, id: $0.id) }
                : relation == .likes ? dataset.likes : dataset.likeMirror
            count = edges.count
            let pattern = relation == .likes ? schema.likes : relation == .flags ? schema.flags : schema.likeMirror
            keys = split(
                pattern?.pattern,
                ["post": { edges.map(\.post) }, "user": { edges.map(\.user) }, "id": { edges.map(\.id) }])
        case .following, .followers:
            let edges = relation == .following ? dataset.following : dataset.followers
            count = edges.count
            keys = split(
                (relation == .following ? schema.following : schema.followers)?.pattern,
                ["user": { edges.map(\.user) }, "target": { edges.map(\.target) }, "id": { edges.map(\.id) }])
        case .timeline:
            count = dataset.timeline.count
            let entries = dataset.timeline
            keys = split(
                schema.timeline?.pattern,
                [
                    "user": { entries.map(\.user) }, "post": { entries.map(\.post) },
                    // A row keyed by its post (`Dataset.path(ofTimeline:post:id:)`).
                    "id": { entries.map { $0.id != noKey ? $0.id : $0.post } },
                ], extra: [{ entries.map(\.posterUID) }])
        case .postMirror:
            count = dataset.postMirror.count
            let entries = dataset.postMirror
            keys = split(
                schema.postMirror?.pattern,
                ["user": { entries.map(\.user) }, "post": { entries.map(\.post) }, "id": { entries.map(\.id) }])
        case .comments:
            count = dataset.comments.count
            let comments = dataset.comments
            keys = split(
                schema.comments?.pattern,
                ["post": { comments.map(\.post) }, "user": { comments.map(\.user) }, "id": { comments.map(\.id) }])
        case .declared(let name):
            set = dataset.rowSets.rows(of: name)
            guard let s = set else {
                count = 0
                keys = ([], [])
                break
            }
            let rows = dataset.declared[s], rowSet = dataset.rowSets.sets[s]
            count = rows.count
            let captures = rowSet.pattern.captureNames.count
            let column = { (k: Int) in { (0..<rows.count).map { rows.key($0, k) } } }
            keys = ((0..<captures).map(column), [rowSet.a, rowSet.b].compactMap { $0 }.map(column))
        }
        identity = keys.identity
        valueKeys = keys.values
        rowSet = set
    }

    /// The facts' identity keys, a column per key, in `mapping`'s common key space (nil: the newer export's own ids).
    func identities(_ mapping: KeyMapping?) -> [[KeyID]] { identity.map { mapped($0(), mapping) } }

    /// The facts' value keys, a column per key, in the common key space.
    func values(_ mapping: KeyMapping?) -> [[KeyID]] { valueKeys.map { mapped($0(), mapping) } }

    private func mapped(_ column: [KeyID], _ mapping: KeyMapping?) -> [KeyID] {
        guard let mapping else { return column }
        return column.map { mapping($0) }
    }

    /// Whether the values of the older export's fact `i` and the newer one's fact `j` agree besides their keys
    /// (names, texts, times, counters), as the tables' columns would: strings by their bytes, declared values by
    /// their JSON text. Made once per relation, so that comparing millions of facts copies no dataset.
    static func scalarsAgree(_ old: DiffFacts, _ new: DiffFacts) -> (Int, Int) -> Bool {
        switch old.relation {
        case .users:
            let a = old.dataset.users, b = new.dataset.users
            return { i, j in sameText(a[i].username, b[j].username) && sameText(a[i].name, b[j].name) }
        case .posts:
            let a = old.dataset.posts, b = new.dataset.posts
            return { i, j in
                a[i].createdAt == b[j].createdAt && a[i].storedLikeCount == b[j].storedLikeCount
                    && sameText(a[i].posterCopyUsername, b[j].posterCopyUsername)
            }
        case .comments:
            let a = old.dataset.comments, b = new.dataset.comments
            return { i, j in sameText(a[i].text, b[j].text) && a[i].createdAt == b[j].createdAt }
        case .declared:
            guard let s = old.rowSet, old.dataset.declared[s].keepsValues else { return { _, _ in true } }
            let a = old.dataset.declared[s].values, b = new.dataset.declared[s].values
            return { i, j in sameText(a[i].text ?? "null", b[j].text ?? "null") }
        case .likes, .likeMirror, .following, .followers, .timeline, .flags, .postMirror:
            return { _, _ in true }
        }
    }

    private static func sameText(_ x: String?, _ y: String?) -> Bool {
        switch (x, y) {
        case (nil, nil): true
        case (let x?, let y?): x.utf8.elementsEqual(y.utf8)
        default: false
        }
    }

    /// The database path of fact `fact`.
    func path(_ fact: Int) -> String {
        let d = dataset
        switch relation {
        case .users: return d.path(ofUser: d.users[fact].key)
        case .posts: return d.path(of: d.posts[fact])
        case .likes: return d.path(ofLike: d.likes[fact]) ?? ""
        case .likeMirror: return d.path(ofMirroredLike: d.likeMirror[fact]) ?? ""
        case .flags: return d.path(ofFlag: d.flags[fact]) ?? ""
        case .following: return d.path(ofFollowing: d.following[fact]) ?? ""
        case .followers: return d.path(ofFollower: d.followers[fact]) ?? ""
        case .timeline: return d.path(of: d.timeline[fact]) ?? ""
        case .postMirror: return d.path(ofOwnedPost: d.postMirror[fact]) ?? ""
        case .comments: return d.path(of: d.comments[fact]) ?? ""
        case .declared:
            // A counter's or copy's field, as findings name it (the `declared` table's node and the field).
            guard let s = rowSet else { return "" }
            return d.path(ofRow: fact, in: s, field: d.rowSets.sets[s].fieldPart)
        }
    }

    /// The value of fact `fact` as the diff reports it: the members ``DiffRelation/fields(in:)`` names.
    func value(_ fact: Int) -> JSONValue {
        let d = dataset
        func key(_ id: KeyID) -> JSONValue { id == noKey ? .null : .string(d.key(id)) }
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        let members: [(String, JSONValue)]
        switch relation {
        case .users:
            let user = d.users[fact]
            members = [("name", text(user.name)), ("username", text(user.username))]
        case .posts:
            let post = d.posts[fact]
            members = [
                ("created_at", post.createdAt?.jsonValue ?? .null),
                ("like_count", post.storedLikeCount?.jsonValue ?? .null),
                ("owner", key(post.owner)), ("poster_uid", key(post.posterCopyUID)),
                ("poster_username", text(post.posterCopyUsername)),
            ]
        case .likes, .likeMirror:
            let like = relation == .likes ? d.likes[fact] : d.likeMirror[fact]
            members = [("post", key(like.post)), ("user", key(like.user))]
        case .flags: members = [("post", key(d.flags[fact].post)), ("user", key(d.flags[fact].user))]
        case .following, .followers:
            let follow = relation == .following ? d.following[fact] : d.followers[fact]
            members = [("target", key(follow.target)), ("user", key(follow.user))]
        case .timeline:
            let entry = d.timeline[fact]
            members = [("post", key(entry.post)), ("poster", key(entry.posterUID)), ("user", key(entry.user))]
        case .postMirror: members = [("post", key(d.postMirror[fact].post)), ("user", key(d.postMirror[fact].user))]
        case .comments:
            let comment = d.comments[fact]
            members = [
                ("created_at", comment.createdAt?.jsonValue ?? .null), ("post", key(comment.post)),
                ("text", text(comment.text)), ("user", key(comment.user)),
            ]
        case .declared:
            guard let s = rowSet else { return .object([]) }
            let rows = d.declared[s], set = d.rowSets.sets[s]
            var list: [(String, JSONValue)] = []
            if let a = set.a { list.append(("a", key(rows.key(fact, a)))) }
            if let b = set.b { list.append(("b", key(rows.key(fact, b)))) }
            // Objects and arrays are kept only as what they are (`{…}`), as the `declared` table holds them.
            if rows.keepsValues {
                list.append(("value", rows.values[fact].json ?? rows.values[fact].text.map(JSONValue.string) ?? .null))
            }
            members = list
        }
        return .object(members.map { (key: $0.0, value: $0.1) })
    }
}
