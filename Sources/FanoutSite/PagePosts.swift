import FanoutTemplates

/// What the posts on one timeline or profile page share: the build's card cache, and the `heart` template
/// rendered at most once per page for each state, since it depends only on the page's user, and only when a
/// template shows it (the Markdown timeline does not).
final class PagePosts {
    let cards: CardCache
    private let templates: TemplateSet
    private let viewer: String
    private var liked: String?
    private var notLiked: String?
    /// The hashes of cards' values, for ``PostItem``'s part of an input key.
    let inputs: PageInputCache
    /// What every post of the page adds to its input key besides its card and heart state: the viewer (whom the
    /// heart names) and the card and heart templates.
    let inputHash: UInt64

    /// Fails when there is no `heart` template, so that rendering cannot.
    init(cards: CardCache, inputs: PageInputCache, templates: TemplateSet, viewer: String) throws(RenderError) {
        guard templates.contains("heart") else {
            throw RenderError.template(file: "heart.mustache", message: "no such template")
        }
        self.cards = cards
        self.templates = templates
        self.viewer = viewer
        self.inputs = inputs
        var hasher = StableHasher()
        hasher.combine(viewer)
        hasher.combine(inputs.cardTemplates)
        inputHash = hasher.finalize()
    }

    /// The heart for a post the viewer liked, or did not.
    func heart(liked: Bool) -> String {
        if let text = liked ? self.liked : notLiked { return text }
        let text = (try? templates.render(["liked": liked, "viewerName": viewer], template: "heart")) ?? ""
        if liked { self.liked = text } else { notLiked = text }
        return text
    }
}
