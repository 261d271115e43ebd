import FanoutTemplates

/// The values of a post's page (docs/site.md): headed by its poster and time (what a reader knows a post by), its
/// key kept as a detail, every liker, and its comments where the layout has them.
enum PostValues {
    static func values(_ r: PageRenderer, _ job: PageJob, path: String) -> [String: Any] {
        let (dataset, derived, views, p) = (r.dataset, r.derived, r.views, job.item)
        let card = views.postCard(p, root: SiteLinks.root(of: path), onItsPage: true)
        let likers = derived.likers[p].count
        let heading = "\(card.posterName) · \(card.displayTime)"
        let values: [String: Any] = [
            "key": dataset.key(dataset.posts[p].key), "post": card, "heading": heading,
            "likeCountText": card.likeCountText,
            "likersHeading": likers == 0 ? "Likes" : "Liked by " + CountText.phrase(likers, "user", "users"),
            "likers": derived.likers[p].map { views.person(dataset.users[Int($0)].key) },
        ].merging(PostComments(views: views, post: p).values) { $1 }
        return views.page(path, title: heading, values)
    }

    /// Everything ``values(_:_:path:)`` reads: the post's card, every liker, the comments.
    static func inputKey(_ r: PageRenderer, _ job: PageJob, path: String) -> UInt64 {
        let (dataset, derived, p) = (r.dataset, r.derived, job.item)
        var hasher = r.keyHasher(path, template: job.declaration.template)
        hasher.combine(r.inputs.card(p))
        hasher.combine(derived.likers[p].count)
        for liker in derived.likers[p] { hasher.combine(r.inputs.person(dataset.users[Int(liker)].key)) }
        PostComments(views: r.views, post: p).hashInput(into: &hasher, inputs: r.inputs)
        return hasher.finalize()
    }

    static let variables: [TemplateVariable] = [
        .init("key", "the post's key"),
        .init("heading", "the poster and the time, the page's heading"),
        .init("likersHeading", "`Likes`, or `Liked by 4 users`"),
        .init(
            "post", "the post, with the values of a card (the links to its own page absent)",
            TemplateVariables.card.filter { !["postHref", "likesHref", "commentsHref"].contains($0.name) }),
        .init("likeCountText", "`no likes`, `1 like`, `3 likes`"),
        .init("likers", "everyone who likes the post, by username", TemplateVariables.person),
        .init("commentSection", "true when the layout has comments: the page lists them, or says there are none"),
        .init("commentsText", "`1 comment`, `3 comments`, `No comments yet.`; with `commentSection`"),
        .init(
            "comments", "the comments by existing users, newest first; with `commentSection`",
            [
                .init("key", "the comment's key"),
                .init("name", "its author's username (else display name, else uid)"),
                .init("href", "the author's profile page"),
                .init("isoTime", "when it was written, ISO 8601; absent when undated"),
                .init("displayTime", "when it was written, for people, or `undated`"),
                .init(
                    "textHTML",
                    "the text rendered from Markdown as captions are (insert unescaped); absent without text"),
                .init("text", "the text as stored"),
            ]),
    ]
}
