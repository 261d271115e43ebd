/// The presets' schema files, shipped inside the binary and parsed by the same code as a user's schema file.
///
/// `fanout schemas show NAME` prints them so that a user can copy one and edit it for their own app; the
/// docs/layouts.md documents every key. Keep each one valid: a test parses them all.
enum PresetFiles {
    /// Name and TOML text of every preset, in the order `fanout schemas` lists them.
    static let files: [(name: String, text: String)] = [
        ("makestagram", makestagram), ("instaclone", instaclone), ("friendlypix", friendlypix),
        ("instagram-flutter", instagramFlutter), ("parse", parse),
    ]

    static let makestagram = #"""
        # Makestagram on Firebase (seeds 000 and 003), the layout of the Makestagram tutorials.
        name = "makestagram"
        summary = "Makestagram on Firebase: users, posts/{poster}/{post}, postLikes, following/followers, timeline"

        [users]
        path = "users/{user}"
        username = "username"

        [posts]
        # The owner is the {poster} key above each post.
        path = "posts/{poster}/{post}"
        created_at = { field = "created_at", unit = "s" }
        caption = "caption"
        image_url = "image_url"
        image_height = "image_height"
        like_count = "like_count"
        # Denormalized copies of the poster, checked against the path and users/{uid}/username.
        poster_uid = "poster/uid"
        poster_username = "poster/username"
        # Post.init?(snapshot:) returns nil without these, so a post lacking one vanishes from every feed.
        required = ["created_at", "image_url", "image_height", "like_count", "poster/uid", "poster/username"]

        [likes]
        path = "postLikes/{post}/{user}"

        [follows]
        following = "following/{user}/{target}"
        followers = "followers/{target}/{user}"

        [timeline]
        path = "timeline/{user}/{post}"
        poster = "poster_uid"
        """#

    static let instaclone = #"""
        # The Firebase Instagram clone (seed 002). Edges are stored as 1 rather than true; both read as present,
        # and repairs write 1.
        name = "instaclone"
        summary = "Instagram clone on Firebase: posts/{post} with ownerUid, post-likes/user-likes, user-following/user-followers, user-feed"
        edge_value = 1

        [users]
        path = "users/{user}"
        username = "username"
        name = "name"
        profile_image_url = "profileImageUrl"

        [posts]
        path = "posts/{post}"
        # The owner is a field of the post, not a key above it.
        poster = "ownerUid"
        created_at = { field = "creationDate", unit = "s" }
        caption = "caption"
        image_url = "imageUrl"
        like_count = "likes"
        required = ["ownerUid", "creationDate", "imageUrl"]
        # Each user's list of their own posts: a copy of ownerUid, checked by post-mirror-missing.
        mirror = "user-posts/{user}/{post}"

        [likes]
        path = "post-likes/{post}/{user}"
        mirror = "user-likes/{user}/{post}"

        [follows]
        following = "user-following/{user}/{target}"
        followers = "user-followers/{target}/{user}"

        [timeline]
        path = "user-feed/{user}/{post}"
        """#

    static let friendlypix = #"""
        # FriendlyPix (googlearchive/friendlypix), as in its initial_db.json console export. GeoFire records
        # (push IDs at the top level) and .priority keys are not part of any relation and are skipped.
        #
        # Two feed locations exist: feed/{uid}/{post}, where the app's design (design.md: "feed/user_id/post_id")
        # fans posts out, and users/{uid}/feed/{post}, written by an early client (one entry in the export).
        # The first is the stored timeline; the second is not read.
        name = "friendlypix"
        summary = "FriendlyPix: people/{user}, posts/{post} with author and likes inside, users/{user}/following|followers|posts, feed"

        [users]
        # FriendlyPix has no usernames: the display name is what the app shows for a person.
        path = "people/{user}"
        username = "displayName"
        name = "displayName"
        profile_image_url = "photoUrl"

        [posts]
        path = "posts/{post}"
        poster = "author"
        created_at = { field = "timestamp", unit = "ms" }
        caption = "text"
        image_url = "url"
        required = ["author", "timestamp", "url"]
        mirror = "users/{user}/posts/{post}"

        [likes]
        # Likes live inside each post; users/{uid}/likes mirrors them.
        path = "posts/{post}/likes/{user}"
        mirror = "users/{user}/likes/{post}"

        [follows]
        following = "users/{user}/following/{target}"
        followers = "users/{target}/followers/{user}"

        [timeline]
        path = "feed/{user}/{post}"

        [comments]
        # Each post's comments, keyed by push ID, with the author's uid, the text and when it was written.
        path = "comments/{post}/{id}"
        user = "author"
        text = "text"
        created_at = { field = "timestamp", unit = "ms" }
        """#

    static let instagramFlutter = #"""
        # The Flutter Instagram clone on Cloud Firestore (the instagram_clone_flutter tutorial, and the many public
        # apps built from it): users/{uid} holding followers and following as arrays of uids, posts/{postId} holding
        # its likes as an array of uids and copies of the poster's username and photo, comments under each post.
        # Told apart from the other layouts by its posts' fields (uid, datePublished, postUrl), as its collections
        # are only users and posts.
        name = "instagram-flutter"
        summary = "Flutter Instagram clone (Firestore): users with followers/following arrays, posts with a likes array and the poster's name and photo, posts/{post}/comments"

        [users]
        path = "users/{user}"
        username = "username"
        profile_image_url = "photoUrl"

        [posts]
        path = "posts/{post}"
        poster = "uid"
        created_at = { field = "datePublished", unit = "iso8601" }
        caption = "description"
        image_url = "postUrl"
        poster_username = "username"
        required = ["uid", "datePublished", "postUrl"]

        [likes]
        path = "posts/{post}/likes/{id}"
        user = "."

        [follows]
        # followUser writes both arrays: the follower's following is the truth, the followed user's followers its mirror.
        following = { path = "users/{user}/following/{id}", target = "." }
        followers = { path = "users/{target}/followers/{id}", user = "." }

        [comments]
        path = "posts/{post}/comments/{id}"
        user = "uid"
        text = "text"
        created_at = { field = "datePublished", unit = "iso8601" }

        # Each document keeps its own ID in a field, and posts and comments keep the author's name and photo.
        [[copies]]
        name = "user-uid"
        at = "users/{user}/uid"
        of = "users.key"
        via = "{user}"

        [[copies]]
        name = "post-id"
        at = "posts/{post}/postId"
        of = "posts.key"
        via = "{post}"

        [[copies]]
        name = "post-poster-photo"
        at = "posts/{post}/profImage"
        of = "users.profile_image_url"
        via = "uid"

        [[copies]]
        name = "comment-id"
        at = "posts/{post}/comments/{id}/commentId"
        of = "comments.key"
        via = "{id}"

        [[copies]]
        name = "comment-author-name"
        at = "posts/{post}/comments/{id}/name"
        of = "users.username"
        via = "uid"

        [[copies]]
        name = "comment-author-photo"
        at = "posts/{post}/comments/{id}/profilePic"
        of = "users.profile_image_url"
        via = "uid"
        """#

    static let parse = #"""
        # Makestagram on Parse (seeds 001 and 004): a folder or .zip of one file per class, _User.json, Post.json,
        # Like.json, Follow.json and FlaggedContent.json, each {"results": [...]} or a bare array of objects.
        # Paths start with the class name; {…} is the row, and key = "objectId" names it (Post/<objectId>).
        # Pointers are objects, {"__type": "Pointer", "className": "_User", "objectId": "…"}: their objectId is
        # the key they point to. Parse stores no counters and no timelines: timelines are derived.
        name = "parse"
        format = "parse"
        summary = "Makestagram on Parse: a folder or zip of _User, Post, Like, Follow and FlaggedContent class files"

        [users]
        path = "_User/{user}"
        key = "objectId"
        username = "username"

        [posts]
        path = "Post/{post}"
        key = "objectId"
        poster = "user/objectId"
        created_at = { field = "createdAt", unit = "iso8601" }
        caption = "caption"
        image_url = "imageFile/url"
        required = ["user/objectId", "createdAt"]

        [likes]
        # One row per like; a user may have several rows for one post (counted once, reported by like-duplicate).
        path = "Like/{id}"
        key = "objectId"
        user = "fromUser/objectId"
        post = "toPost/objectId"

        [follows]
        following = { path = "Follow/{id}", key = "objectId", user = "fromUser/objectId", target = "toUser/objectId" }

        [flags]
        path = "FlaggedContent/{id}"
        key = "objectId"
        user = "fromUser/objectId"
        post = "toPost/objectId"
        """#
}
