/// The domain core: everything Fanout read from one export, independent of its layout.
///
/// Facts keep the keys they were stored under, so the database path of any fact can be rendered from the
/// ``schema`` (see `Dataset+Paths.swift`). Derivation, checks, rendering and export work on this value only.
public struct Dataset: Sendable {
    /// Where each relation was read from.
    public package(set) var schema: Schema
    /// Every key seen.
    package var keys = KeyTable()
    /// Users in the order read.
    public package(set) var users: [User] = []
    /// Posts in the order read.
    public package(set) var posts: [Post] = []
    /// The like set, as stored in the `likes` relation.
    public package(set) var likes: [Like] = []
    /// The like set's mirror (`user-likes`), where the schema has one.
    package var likeMirror: [Like] = []
    /// Follows as stored under `following`.
    public package(set) var following: [Follow] = []
    /// Follows as stored under `followers`.
    public package(set) var followers: [Follow] = []
    /// Stored timeline entries.
    package var timeline: [TimelineEntry] = []
    /// The post ownership mirror (`user-posts`), where the schema has one.
    package var postMirror: [OwnedPost] = []
    /// Flags of inappropriate posts (Parse's `FlaggedContent`), where the schema has them.
    package var flags: [Flag] = []
    /// Comments, where the schema has them.
    public package(set) var comments: [Comment] = []
    /// What the schema's declarations read, and where.
    package let rowSets: RowSets
    /// The rows of each of ``rowSets``.
    package var declared: [DeclaredRows]
    /// Fields of the wrong type or missing, found while reading.
    package var fieldProblems: [FieldProblem] = []
    /// The keys users and posts are stored under where they differ from their keys (``User/storedKey``,
    /// ``Post/storedKey``), by key: filled when the read is complete (``indexStoredKeys()``).
    package var storedUserKeys: [KeyID: KeyID] = [:]
    package var storedPostKeys: [KeyID: KeyID] = [:]

    /// An empty dataset laid out as `schema`.
    package init(schema: Schema) {
        self.schema = schema
        rowSets = RowSets(schema)
        declared = rowSets.sets.map(DeclaredRows.init)
    }

    /// The text of a key; empty for ``noKey`` (a post whose owner field is missing or not a string), which
    /// pages and messages may still ask for.
    public func key(_ id: KeyID) -> String { id == noKey ? "" : keys.string(id) }

    /// The id of the key `text` (a uid or a post key), or nil when the export has no such key.
    public func keyID(_ text: String) -> KeyID? { keys.lookup(text) }
}
