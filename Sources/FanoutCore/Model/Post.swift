/// A post as stored in the export, with its denormalized copies.
public struct Post: Sendable, Equatable {
    /// The post key (usually a push ID).
    public var key: KeyID
    /// The owner's uid as captured from the post's path (`posts/{poster}/{post}`), or ``noKey``.
    public var pathOwner: KeyID = noKey
    /// The owner's uid as stored in an owner field (`ownerUid`), or ``noKey``.
    public var ownerField: KeyID = noKey
    /// Seconds since 1970 from the timestamp field, if it had one of the right type.
    public var createdAt: Double?
    /// The Markdown caption.
    public var caption: String?
    /// The image URL, unsanitized.
    public var imageURL: String?
    /// The stored image height.
    public var imageHeight: Double?
    /// The stored like counter.
    public var storedLikeCount: Int64?
    /// The denormalized copy of the poster's uid, or ``noKey``.
    public var posterCopyUID: KeyID = noKey
    /// The denormalized copy of the poster's username.
    public var posterCopyUsername: String?

    /// A post with the given key; every other field starts empty.
    public init(key: KeyID) { self.key = key }

    /// The owner: the path's capture where the layout has one, else the owner field.
    public var owner: KeyID { pathOwner != noKey ? pathOwner : ownerField }
}
