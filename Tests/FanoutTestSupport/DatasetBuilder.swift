import FanoutCore

/// Builds small Makestagram-shaped datasets by name, for tests: keys are interned as they are named, so a test
/// says `user("u1")`, `post("-P1", by: "u1")`, `like("-P1", by: "u2")`.
public struct DatasetBuilder {
    public var dataset: Dataset

    /// An empty dataset laid out as `schema` (Makestagram unless told otherwise).
    public init(schema: Schema = TestSchema.makestagram) { dataset = Dataset(schema: schema) }

    public mutating func id(_ key: String) -> KeyID { dataset.keys.intern(key) }

    /// A user `uid` whose username is `username` (the uid when nil and `name` is nil too) and display name `name`.
    @discardableResult
    public mutating func user(_ uid: String, _ username: String? = nil, name: String? = nil) -> KeyID {
        let key = id(uid)
        dataset.users.append(User(key: key, username: username ?? (name == nil ? uid : nil), name: name))
        return key
    }

    public mutating func post(
        _ key: String, by owner: String, at time: Double? = nil, likeCount: Int64? = nil,
        posterCopy: String? = nil, posterUID: String? = nil, caption: String? = nil, imageURL: String? = nil,
        imageHeight: Double? = nil
    ) {
        var post = Post(key: id(key))
        post.pathOwner = id(owner)
        post.createdAt = time
        post.storedLikeCount = likeCount
        post.posterCopyUsername = posterCopy
        if let posterUID { post.posterCopyUID = id(posterUID) }
        post.caption = caption
        post.imageURL = imageURL
        post.imageHeight = imageHeight
        dataset.posts.append(post)
    }

    /// Stores the like in the like set, and in the mirror too when `mirrored` and the schema has one.
    public mutating func like(_ post: String, by user: String, mirrored: Bool = true, row: String? = nil) {
        let like = Like(post: id(post), user: id(user), id: row.map { id($0) } ?? noKey)
        dataset.likes.append(like)
        if mirrored && dataset.schema.likeMirror != nil { dataset.likeMirror.append(like) }
    }

    /// Stores a like in the mirror (`user-likes`) only.
    public mutating func mirrorLike(_ post: String, by user: String) {
        dataset.likeMirror.append(Like(post: id(post), user: id(user)))
    }

    /// Stores the follow in both directions unless told otherwise.
    public mutating func follow(_ user: String, _ target: String, following: Bool = true, followers: Bool = true) {
        let follow = Follow(user: id(user), target: id(target))
        if following { dataset.following.append(follow) }
        if followers { dataset.followers.append(follow) }
    }

    /// Stores comment `key` on `post` by `user`.
    public mutating func comment(
        _ key: String, on post: String, by user: String, at time: Double? = nil, text: String? = nil
    ) {
        dataset.comments.append(Comment(id: id(key), post: id(post), user: id(user), text: text, createdAt: time))
    }

    public mutating func timeline(_ user: String, _ post: String, poster: String? = nil) {
        dataset.timeline.append(
            TimelineEntry(user: id(user), post: id(post), posterUID: poster.map { id($0) } ?? noKey))
    }

    /// Writes the stored timeline every existing user should have (consistent fan-out).
    public mutating func fanOutTimelines() {
        let derived = DerivedData(dataset)
        dataset.timeline = []
        for (u, user) in dataset.users.enumerated() {
            for p in derived.timelines[u] {
                let post = dataset.posts[Int(p)]
                dataset.timeline.append(TimelineEntry(user: user.key, post: post.key, posterUID: post.owner))
            }
        }
    }

    public func audit(_ configuration: AuditConfiguration = AuditConfiguration()) -> AuditResult {
        Audit.run(CheckContext(dataset: dataset, derived: DerivedData(dataset)), configuration: configuration)
    }

    public func findings(_ rule: String) -> [Finding] { audit().findings.filter { $0.rule == rule } }
}

public enum TestSchema {
    /// The Makestagram layout, spelled out here so core tests do not depend on the import module.
    public static let makestagram = Schema(
        name: "makestagram",
        users: UserRelation(pattern: PathPattern("users/{user}")!, username: FieldPath("username")),
        posts: PostRelation(
            pattern: PathPattern("posts/{poster}/{post}")!,
            createdAt: TimeField(FieldPath("created_at"), unit: .seconds),
            likeCount: FieldPath("like_count"), posterUID: FieldPath("poster/uid"),
            posterUsername: FieldPath("poster/username")),
        likes: EdgeRelation(pattern: PathPattern("postLikes/{post}/{user}")!),
        following: EdgeRelation(pattern: PathPattern("following/{user}/{target}")!),
        followers: EdgeRelation(pattern: PathPattern("followers/{target}/{user}")!),
        timeline: TimelineRelation(pattern: PathPattern("timeline/{user}/{post}")!, posterUID: FieldPath("poster_uid"))
    )

    /// Makestagram with a mirror of the like set, as the Instagram clone keeps one.
    public static let withLikeMirror: Schema = {
        var schema = makestagram
        schema.likeMirror = EdgeRelation(pattern: PathPattern("user-likes/{user}/{post}")!)
        return schema
    }()

    /// Parse's row layout for likes: each like is a `Like/{id}` row naming both ends.
    public static let withLikeRows: Schema = {
        var schema = makestagram
        schema.likes = EdgeRelation(
            pattern: PathPattern("Like/{id}")!, user: FieldPath("fromUser"), post: FieldPath("toPost"))
        return schema
    }()
}
