/// `[records.threads]`: a collection the app keeps besides users, posts and comments (a forum's threads, a board
/// app's boards, chats, groups, events). The site does not show them; declarations count, mirror, copy from and
/// reference them as they do the built-in relations (docs/layouts.md "Records of any collection").
public struct RecordRelation: Sendable, Equatable {
    /// The collection's name in the schema file (`threads`), which declarations use: `counts = "threads"`,
    /// `of = "threads.title"`, `to = "threads"`.
    public var name: String
    /// Where the records live; its last capture is the record's key (`threads/{thread}`), other captures are ends
    /// a counter may group by (`forums/{forum}/threads/{thread}`).
    public var pattern: PathPattern
    /// A field holding the key, used instead of the key the record is stored under.
    public var key: FieldPath?
    /// The record's fields by the names declarations use (`forum = "forumId"`, `title = "title"`).
    public var fields: [String: FieldPath]

    public init(name: String, pattern: PathPattern, key: FieldPath? = nil, fields: [String: FieldPath] = [:]) {
        self.name = name
        self.pattern = pattern
        self.key = key
        self.fields = fields
    }

    /// The name of the record's key end: the pattern's last capture (`thread`).
    public var keyName: String { pattern.captureNames.last ?? "id" }

    /// The names a counter may group the records by, or a mirror pair with their key: the other captures of the
    /// path, then the fields, sorted.
    public var groupNames: [String] {
        pattern.captureNames.filter { $0 != keyName } + fields.keys.sorted().filter { $0 != keyName }
    }
}

extension Schema {
    /// The record collection called `name`.
    public func record(named name: String) -> RecordRelation? { records.first { $0.name == name } }
}
