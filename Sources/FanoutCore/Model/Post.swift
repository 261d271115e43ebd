/// A post as stored in the export, with its denormalized copies.
public struct Post: Sendable, Equatable {
    /// The post key (usually a push ID).
    public package(set) var key: KeyID
    /// The owner's uid as captured from the post's path (`posts/{poster}/{post}`), or ``noKey``.
    package var pathOwner: KeyID = noKey
    /// The owner's uid as stored in an owner field (`ownerUid`), or ``noKey``.
    package var ownerField: KeyID = noKey
    /// Seconds since 1970 from the timestamp field, if it had one of the right type.
    public package(set) var createdAt: Double?
    /// The Markdown caption.
    public package(set) var caption: String?
    /// The image URL, unsanitized.
    public package(set) var imageURL: String?
    /// The stored image height.
    public package(set) var imageHeight: Double?
    /// The stored like counter.
    public package(set) var storedLikeCount: Int64?
    /// The denormalized copy of the poster's uid, or ``noKey``.
    package var posterCopyUID: KeyID = noKey
    /// The denormalized copy of the poster's username.
    package var posterCopyUsername: String?
    /// The key the post's node is stored under, where the schema reads the post's key from a field and the two
    /// differ (`posts/{auto}` holding `postID: 4`); else ``noKey``. Paths name the node the export has.
    package var storedKey: KeyID = noKey

    /// A post with the given key; every other field starts empty.
    package init(key: KeyID) { self.key = key }

    /// The owner: the path's capture where the layout has one, else the owner field. A post with neither has
    /// no owner: ``Dataset/key(_:)`` gives an empty string for it and ``DerivedData/user(_:)`` nil.
    public var owner: KeyID { pathOwner != noKey ? pathOwner : ownerField }
}
