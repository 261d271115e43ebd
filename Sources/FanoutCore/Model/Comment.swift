/// A comment: `user` wrote `text` under `post`.
public struct Comment: Sendable, Equatable {
    /// The comment's key (its row's key, or its key field).
    public package(set) var id: KeyID
    /// The commented post's key.
    public package(set) var post: KeyID
    /// The author's uid.
    public package(set) var user: KeyID
    /// The Markdown text.
    public package(set) var text: String?
    /// The key the comment's row is stored under, where its key comes from a field and the two differ; else
    /// ``noKey``.
    package var storedID: KeyID = noKey
    /// Seconds since 1970, when the comment has a timestamp of the right type.
    public package(set) var createdAt: Double?

    package init(id: KeyID, post: KeyID, user: KeyID, text: String? = nil, createdAt: Double? = nil) {
        self.id = id
        self.post = post
        self.user = user
        self.text = text
        self.createdAt = createdAt
    }
}
