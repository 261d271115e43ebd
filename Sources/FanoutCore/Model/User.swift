/// A user as stored in the export.
public struct User: Sendable, Equatable {
    /// The uid, the key of the user's node.
    public package(set) var key: KeyID
    /// The username, the source of truth for every denormalized copy.
    public package(set) var username: String?
    /// The display name, where the app stores one.
    public package(set) var name: String?
    /// The profile image URL, where the app stores one.
    public package(set) var profileImageURL: String?
    /// The key the user's node is stored under, where the schema reads the uid from a field and the two differ
    /// (`users/{random}` holding `uid`); else ``noKey``. Paths name the node the export has.
    package var storedKey: KeyID = noKey

    /// What pages and messages call the user: the username, else the display name (a schema may name only
    /// `name`); nil when the export stores neither, and the uid is shown instead.
    public var shownName: String? { username ?? name }

    /// A user with the given fields.
    package init(key: KeyID, username: String? = nil, name: String? = nil, profileImageURL: String? = nil) {
        self.key = key
        self.username = username
        self.name = name
        self.profileImageURL = profileImageURL
    }
}
