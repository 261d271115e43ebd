import FanoutCore

/// The layouts Fanout knows without a schema file.
public enum Presets {
    /// Makestagram on Firebase (seeds 000 and 003): `users`, `posts/{poster}/{post}`, `postLikes`,
    /// `following`/`followers`, `timeline/{user}/{post}: {poster_uid}`.
    public static let makestagram = Schema(
        name: "makestagram",
        users: UserRelation(pattern: PathPattern("users/{user}")!, username: FieldPath("username")),
        posts: PostRelation(
            pattern: PathPattern("posts/{poster}/{post}")!,
            createdAt: TimeField(FieldPath("created_at"), unit: .seconds),
            caption: FieldPath("caption"),
            imageURL: FieldPath("image_url"),
            imageHeight: FieldPath("image_height"),
            likeCount: FieldPath("like_count"),
            posterUID: FieldPath("poster/uid"),
            posterUsername: FieldPath("poster/username"),
            required: ["created_at", "image_url", "image_height", "like_count", "poster/uid", "poster/username"].map(FieldPath.init)
        ),
        likes: EdgeRelation(pattern: PathPattern("postLikes/{post}/{user}")!),
        following: EdgeRelation(pattern: PathPattern("following/{user}/{target}")!),
        followers: EdgeRelation(pattern: PathPattern("followers/{target}/{user}")!),
        timeline: TimelineRelation(pattern: PathPattern("timeline/{user}/{post}")!, posterUID: FieldPath("poster_uid"))
    )

    /// Every preset, by name.
    public static let all: [Schema] = [makestagram]

    /// The preset called `name`.
    public static func named(_ name: String) -> Schema? { all.first { $0.name == name } }
}
