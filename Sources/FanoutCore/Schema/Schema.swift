import FanoutJSON

/// Where each relation of the domain lives in an export's tree, and which fields hold what.
///
/// Every relation is optional: an app that has no stored timelines simply has no `timeline`. Rules that need a
/// missing relation are skipped and the report says so. Presets and schema files both produce this value.
public struct Schema: Sendable, Equatable {
    /// The preset or file this schema came from, e.g. `makestagram`.
    public var name: String
    /// One line saying which app this layout belongs to, as `fanout schemas` lists it.
    public var summary: String?
    /// How the export is stored: one JSON tree (Firebase) or one file per class (Parse).
    public var format: ExportFormat = .firebase
    /// `users/{user}`: one node per user.
    public var users: UserRelation?
    /// `posts/{poster}/{post}` or `posts/{post}` with an owner field.
    public var posts: PostRelation?
    /// `user-posts/{user}/{post}`: the optional mirror of post ownership (the owner field or path is the truth).
    public var postMirror: EdgeRelation?
    /// `postLikes/{post}/{user}`: the like set of each post (the source of truth for likes).
    public var likes: EdgeRelation?
    /// `user-likes/{user}/{post}`: the optional mirror of the like set.
    public var likeMirror: EdgeRelation?
    /// `following/{user}/{target}`: whom each user follows (the source of truth for follows).
    public var following: EdgeRelation?
    /// `followers/{target}/{user}`: the mirror of `following`.
    public var followers: EdgeRelation?
    /// `timeline/{user}/{post}`: the stored, fanned-out timelines.
    public var timeline: TimelineRelation?
    /// `FlaggedContent/{id}` with `fromUser`/`toPost`: posts users flagged as inappropriate (Parse).
    public var flags: EdgeRelation?
    /// `comments/{post}/{id}` with an author and a text.
    public var comments: CommentRelation?
    /// The app's other collections (`[records.threads]`), in the order the schema file names them.
    public var records: [RecordRelation] = []
    /// The counters, mirrors, copies and references the app keeps besides the relations above.
    public var declarations = Declarations()
    /// What the app stores at an edge's key (`postLikes/{post}/{user}`, a follow, a timeline entry without
    /// fields): Fanout reads any value there as present, and repairs write this one, so that the repaired
    /// database looks like one the app wrote.
    public var edgeValue: EdgeValue = .true

    /// A schema with the given relations.
    public init(
        name: String, users: UserRelation? = nil, posts: PostRelation? = nil, likes: EdgeRelation? = nil,
        likeMirror: EdgeRelation? = nil, following: EdgeRelation? = nil, followers: EdgeRelation? = nil,
        timeline: TimelineRelation? = nil, postMirror: EdgeRelation? = nil, flags: EdgeRelation? = nil,
        format: ExportFormat = .firebase, summary: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.format = format
        self.postMirror = postMirror
        self.flags = flags
        self.users = users
        self.posts = posts
        self.likes = likes
        self.likeMirror = likeMirror
        self.following = following
        self.followers = followers
        self.timeline = timeline
    }
}

/// Where users live and which of their fields Fanout reads.
public struct UserRelation: Sendable, Equatable {
    /// Must capture `{user}`.
    public var pattern: PathPattern
    /// A field holding the uid, for layouts that store users as rows (Parse's `objectId`); else the captured key.
    public var key: FieldPath?
    /// Field path of the username, relative to the user node.
    public var username: FieldPath?
    /// Field path of the display name.
    public var name: FieldPath?
    /// Field path of the profile image URL.
    public var profileImageURL: FieldPath?
    /// Other fields, by the name copies use for them (`of = "users.<name>"`).
    public var fields: [String: FieldPath] = [:]

    /// A user relation.
    public init(
        pattern: PathPattern, username: FieldPath? = nil, name: FieldPath? = nil, profileImageURL: FieldPath? = nil,
        key: FieldPath? = nil
    ) {
        self.pattern = pattern
        self.key = key
        self.username = username
        self.name = name
        self.profileImageURL = profileImageURL
    }
}

/// Where posts live and which of their fields Fanout reads.
public struct PostRelation: Sendable, Equatable {
    /// Must capture `{post}`; may capture `{poster}` (the owner's uid).
    public var pattern: PathPattern
    /// A field holding the post key, for layouts that store posts as rows (Parse's `objectId`).
    public var key: FieldPath?
    /// The owner's uid as a field, for layouts whose path has no `{poster}`.
    public var owner: FieldPath?
    /// The creation time.
    public var createdAt: TimeField?
    /// The Markdown caption.
    public var caption: FieldPath?
    /// The image URL.
    public var imageURL: FieldPath?
    /// The image height (Makestagram stores the aspect height).
    public var imageHeight: FieldPath?
    /// The stored like counter.
    public var likeCount: FieldPath?
    /// The denormalized copy of the poster's uid.
    public var posterUID: FieldPath?
    /// The denormalized copy of the poster's username.
    public var posterUsername: FieldPath?
    /// Fields that every post must have, checked by `post-field`.
    public var required: [FieldPath]
    /// Other fields, by the name copies use for them (`of = "posts.<name>"`).
    public var fields: [String: FieldPath] = [:]

    /// A post relation.
    public init(
        pattern: PathPattern, owner: FieldPath? = nil, createdAt: TimeField? = nil, caption: FieldPath? = nil,
        imageURL: FieldPath? = nil, imageHeight: FieldPath? = nil, likeCount: FieldPath? = nil,
        posterUID: FieldPath? = nil, posterUsername: FieldPath? = nil, required: [FieldPath] = [],
        key: FieldPath? = nil
    ) {
        self.pattern = pattern
        self.key = key
        self.owner = owner
        self.createdAt = createdAt
        self.caption = caption
        self.imageURL = imageURL
        self.imageHeight = imageHeight
        self.likeCount = likeCount
        self.posterUID = posterUID
        self.posterUsername = posterUsername
        self.required = required
    }
}

/// A set of pairs stored as `parent/{a}/{b}: true`, such as likes and follows, or as rows naming both ends.
///
/// Firebase layouts capture both ends in the path (`postLikes/{post}/{user}`). Parse stores each pair as an
/// object (`Like/{id}` with `fromUser` and `toPost` pointers): there the ends come from fields of the row,
/// and the row's own key is captured as `{id}` so findings can name it.
public struct EdgeRelation: Sendable, Equatable {
    /// Captures the relation's ends, e.g. `{post}` and `{user}` for likes, or the row key `{id}`.
    public var pattern: PathPattern
    /// The field holding the user end (the liker, the follower), when the path does not capture `{user}`.
    public var user: FieldPath?
    /// The field holding the post end of likes and flags, when the path does not capture `{post}`.
    public var post: FieldPath?
    /// The field holding the followed user, when the path does not capture `{target}`.
    public var target: FieldPath?
    /// A field holding the row's key (Parse's `objectId`), used instead of the key it is stored under.
    public var key: FieldPath?

    /// An edge relation; ends not captured by `pattern` come from the given fields.
    public init(
        pattern: PathPattern, user: FieldPath? = nil, post: FieldPath? = nil, target: FieldPath? = nil,
        key: FieldPath? = nil
    ) {
        self.pattern = pattern
        self.user = user
        self.post = post
        self.target = target
        self.key = key
    }
}

/// Stored timeline entries and the field that names each entry's poster.
///
/// Entries are keyed by their post (`timeline/{user}/{post}`), or stored as rows keyed by an ID whose post is a
/// field (`timeline/{user}/{id}` with `post = "tweetKey"`).
public struct TimelineRelation: Sendable, Equatable {
    /// Captures `{user}` and `{post}`, or `{id}` where fields name them.
    public var pattern: PathPattern
    /// The field holding the poster's uid, relative to the entry (Makestagram: `poster_uid`).
    public var posterUID: FieldPath?
    /// The field holding the post's key, for rows keyed by an ID.
    public var post: FieldPath?
    /// The field holding the reader's uid, for rows whose path does not capture `{user}`.
    public var user: FieldPath?

    /// A timeline relation.
    public init(pattern: PathPattern, posterUID: FieldPath? = nil, post: FieldPath? = nil, user: FieldPath? = nil) {
        self.pattern = pattern
        self.posterUID = posterUID
        self.post = post
        self.user = user
    }

    /// Whether entries are rows keyed by an ID (`{id}`) rather than by their post.
    public var isRows: Bool { post != nil }
}

/// A path relative to an entity's node, such as `poster/username`.
public struct FieldPath: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The keys from the entity node down.
    public let keys: [String]

    /// Parses `a/b/c`; `.` is the node's own value (an array's element: `likes: ["uid1", "uid2"]`).
    public init(_ text: String) { keys = text == "." ? [] : text.split(separator: "/").map(String.init) }

    /// The path as written.
    public var description: String { keys.isEmpty ? "." : keys.joined(separator: "/") }
}

/// A timestamp field and its unit.
public struct TimeField: Sendable, Equatable {
    /// How a timestamp is written.
    public enum Unit: String, Sendable, Equatable {
        /// Seconds since 1970 (Makestagram's `created_at`).
        case seconds = "s"
        /// Milliseconds since 1970 (Firebase's `ServerValue.timestamp`).
        case milliseconds = "ms"
        /// Microseconds since 1970.
        case microseconds = "us"
        /// An ISO 8601 string (Parse's `createdAt`).
        case iso8601 = "iso8601"
        /// A string in the field's ``TimeField/format``.
        case formatted = "format"
    }
    /// Where the timestamp is.
    public var field: FieldPath
    /// Its unit.
    public var unit: Unit
    /// The `strftime` format of a ``Unit/formatted`` date (`%Y/%m/%d %H:%M:%S`).
    public var format: String?
    /// The zone of a date string that names none (`UTC`, `+02:00`); nil for UTC.
    public var zone: String?

    /// A timestamp field.
    public init(_ field: FieldPath, unit: Unit, format: String? = nil, zone: String? = nil) {
        self.field = field
        self.unit = unit
        self.format = format
        self.zone = zone
    }
}

/// The value an app stores at an edge's key: Makestagram writes `true`, the Firebase Instagram clone `1`.
public enum EdgeValue: String, Sendable, Equatable, CaseIterable {
    case `true`
    case one = "1"

    /// The value as JSON, for repair entries.
    package var json: JSONValue {
        switch self {
        case .true: .bool(true)
        case .one: .number(JSONNumber(1))
        }
    }
}
