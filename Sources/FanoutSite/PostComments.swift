import FanoutCore
import FanoutTemplates

/// A post's comments as its page shows them (docs/site.md): newest first (``DerivedData/comments(post:)``),
/// each by its author as lists of people show them, at its time as cards show times, with its text rendered as
/// captions are. Only where the layout has comments: the page of a post of another layout gets none of these
/// values, and its key none of their input, so it stays as it was.
struct PostComments {
    let views: SiteViews
    let post: Int

    /// The post page's values: `commentSection`, `commentsText` and `comments`; none when the layout has no comments.
    var values: [String: Any] {
        guard let count = views.commentCount(post) else { return [:] }
        let dataset = views.dataset
        let comments: [[String: Any]] = views.derived.comments(post: post).map { c in
            let comment = dataset.comments[c]
            var values = views.person(comment.user)
            values["key"] = dataset.key(comment.id)
            values["displayTime"] = comment.createdAt.map(DateText.display) ?? "undated"
            if let time = comment.createdAt { values["isoTime"] = DateText.iso(time) }
            if let text = comment.text, !text.isEmpty {
                values["text"] = text
                values["textHTML"] = Caption(text).html
            }
            return values
        }
        return [
            "commentSection": true, "comments": comments,
            "commentsText": count == 0 ? "No comments yet." : CountText.phrase(count, "comment", "comments"),
        ]
    }

    /// Everything ``values`` is made of, for the post page's input key (docs/site.md "Rebuilds, progress and timings"):
    /// keep the two side by side. A comment edited, added or removed, or its author renamed, changes the key.
    func hashInput(into hasher: inout StableHasher, inputs: PageInputCache) {
        guard views.commentCount(post) != nil else { return }
        let dataset = views.dataset
        let comments = views.derived.comments(post: post)
        hasher.combine(comments.count)
        for c in comments {
            let comment = dataset.comments[c]
            hasher.combine(dataset.key(comment.id))
            hasher.combine(inputs.person(comment.user))
            hasher.combine(comment.createdAt?.bitPattern)
            hasher.combine(optional: comment.text)
        }
    }
}
