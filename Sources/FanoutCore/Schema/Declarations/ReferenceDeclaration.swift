/// `[[references]]`: a field (or a capture) that must name an existing record (a pin's `boardid`).
public struct ReferenceDeclaration: Sendable, Equatable {
    /// What a reference points to.
    public enum Target: Sendable, Equatable {
        case users, posts, comments
        /// The records a pattern reaches, named by its last capture (`boards/{board}`).
        case pattern(PathPattern)
        /// The records of `[records.NAME]`, whose key end is `keyName` (`thread`).
        case records(name: String, keyName: String)
    }

    /// The rule id.
    public var name: String
    /// The pattern of the reference: a row and a field inside it, or a path whose capture named like the
    /// target's key (`{user}`, `{post}`, `{board}`) is the reference.
    public var at: PathPattern
    /// What it points to.
    public var to: Target
    /// Whether a row whose reference is broken may be deleted: the fix then deletes the row.
    public var deletable: Bool
    /// The severity unless configured otherwise; nil for the kind's default.
    public var severity: Severity?

    public init(name: String, at: PathPattern, to: Target, deletable: Bool = false, severity: Severity? = nil) {
        self.name = name
        self.at = at
        self.to = to
        self.deletable = deletable
        self.severity = severity
    }
}

extension ReferenceDeclaration.Target {
    /// The capture that names a record of the target (`user`, `post`, `id`, or the pattern's last).
    public var keyName: String {
        switch self {
        case .users: "user"
        case .posts: "post"
        case .comments: "id"
        case .pattern(let pattern): pattern.captureNames.last ?? ""
        case .records(_, let keyName): keyName
        }
    }

    /// What a record of the target is called in messages: `user`, `post`, `comment`, or the key's name (`board`).
    public var noun: String {
        switch self {
        case .users: "user"
        case .posts: "post"
        case .comments: "comment"
        case .pattern(let pattern): pattern.captureNames.last ?? "record"
        case .records(let name, _): DeclaredRelation.records(name).noun
        }
    }

    /// The target a schema file writes as `text`: `users`, `posts`, `comments`, a collection of `schema`'s
    /// `[records.NAME]`, or a pattern capturing a key; nil for anything else.
    public init?(written text: String, in schema: Schema) {
        switch text {
        case "users": self = .users
        case "posts": self = .posts
        case "comments": self = .comments
        default:
            if let record = schema.record(named: text) {
                self = .records(name: record.name, keyName: record.keyName)
                return
            }
            guard let pattern = PathPattern(text), !pattern.captureNames.isEmpty else { return nil }
            self = .pattern(pattern)
        }
    }

    /// As a schema file writes it.
    public var written: String {
        switch self {
        case .users: "users"
        case .posts: "posts"
        case .comments: "comments"
        case .pattern(let pattern): pattern.description
        case .records(let name, _): name
        }
    }
}
