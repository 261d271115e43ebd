/// Where comments live: rows under a post (`comments/{post}/{id}` with `author`, `text`, `timestamp`, as
/// FriendlyPix stores them) or anywhere with their ends in fields.
public struct CommentRelation: Sendable, Equatable {
    /// Captures the comment's key as `{id}`, and `{post}` (and `{user}`) unless a field names them.
    public var pattern: PathPattern
    /// The field holding the commented post's key, when the path does not capture `{post}`.
    public var post: FieldPath?
    /// The field holding the author's uid, when the path does not capture `{user}`.
    public var user: FieldPath?
    /// A field holding the comment's key, used instead of the key it is stored under.
    public var key: FieldPath?
    /// The comment's text (Markdown, shown as captions are).
    public var text: FieldPath?
    /// When it was written.
    public var createdAt: TimeField?
    /// Other fields, by the name copies use for them (`of = "comments.<name>"`).
    public var fields: [String: FieldPath]

    public init(
        pattern: PathPattern, post: FieldPath? = nil, user: FieldPath? = nil, key: FieldPath? = nil,
        text: FieldPath? = nil, createdAt: TimeField? = nil, fields: [String: FieldPath] = [:]
    ) {
        self.pattern = pattern
        self.post = post
        self.user = user
        self.key = key
        self.text = text
        self.createdAt = createdAt
        self.fields = fields
    }
}
