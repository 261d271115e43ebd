import FanoutExport
import FanoutImport

extension Feed {
    /// The Flutter Instagram clone's Firestore documents (the `instagram-flutter` preset), as its app writes them:
    /// `users/{uid}` with `followers`/`following` arrays, `posts/{postId}` with a `likes` array, a `Timestamp`
    /// `datePublished` and copies of the poster's username and photo, one comment under the first post. A like is
    /// an element of its post, so the like of a deleted post has no place here; a follow of a deleted user is in
    /// the follower's `following` alone, as no document of that user holds `followers`.
    var instagramFlutterDocuments: [FirestoreDocument] {
        func photo(_ uid: String) -> FirestoreValue { .string("https://img.example/\(uid).png") }
        var documents = users.map { user -> FirestoreDocument in
            let following = follows.filter { $0.user == user.uid }.map { FirestoreValue.string($0.target) }
            let followers = follows.filter { $0.target == user.uid }.map { FirestoreValue.string($0.user) }
            return FirestoreDocument(
                segments: ["users", user.uid],
                fields: [
                    FirestoreField(name: "bio", value: .string("")),
                    FirestoreField(name: "email", value: .string("\(user.username)@example.com")),
                    FirestoreField(name: "followers", value: .array(followers)),
                    FirestoreField(name: "following", value: .array(following)),
                    FirestoreField(name: "photoUrl", value: photo(user.uid)),
                    FirestoreField(name: "uid", value: .string(user.uid)),
                    FirestoreField(name: "username", value: .string(user.username)),
                ])
        }
        for post in posts {
            let likers = likes.filter { $0.post == post.key }.map { FirestoreValue.string($0.user) }
            documents.append(
                FirestoreDocument(
                    segments: ["posts", post.key],
                    fields: [
                        FirestoreField(
                            name: "datePublished", value: .timestamp(microseconds: Int64(post.seconds) * 1_000_000)),
                        FirestoreField(name: "description", value: .string(post.caption)),
                        FirestoreField(name: "likes", value: .array(likers)),
                        FirestoreField(name: "postId", value: .string(post.key)),
                        FirestoreField(name: "postUrl", value: .string("https://img.example/\(post.key).jpg")),
                        FirestoreField(name: "profImage", value: photo(post.owner)),
                        FirestoreField(name: "uid", value: .string(post.owner)),
                        FirestoreField(name: "username", value: .string(username(post.owner)!)),
                    ]))
        }
        let first = posts[0], commenter = users[1]
        documents.append(
            FirestoreDocument(
                segments: ["posts", first.key, "comments", "c1"],
                fields: [
                    FirestoreField(name: "commentId", value: .string("c1")),
                    FirestoreField(
                        name: "datePublished", value: .timestamp(microseconds: Int64(first.seconds + 60) * 1_000_000)),
                    FirestoreField(name: "name", value: .string(commenter.username)),
                    FirestoreField(name: "profilePic", value: photo(commenter.uid)),
                    FirestoreField(name: "text", value: .string("nice")),
                    FirestoreField(name: "uid", value: .string(commenter.uid)),
                ]))
        return documents
    }
}
