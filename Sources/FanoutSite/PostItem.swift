import FanoutTemplates

/// A post on a user's timeline or profile page: its key, its cached cards, whether the page's user liked it, and
/// the heart saying so.
///
/// Cards and hearts are looked up, and rendered if need be, only when a template shows them: the Markdown
/// timeline shows no heart and the HTML one no Markdown card.
struct PostItem: TemplateValues, InputHashable {
    static let names = ["key", "card", "cardMarkdown", "liked", "heart"]

    // Two words with one reference: swift-mustache's `Any` holds an item inline rather than in a heap box, and
    // copies it, retaining its references, several times per name it looks up; a page can show thousands of posts.
    let page: PagePosts
    let post: Int32
    let liked: Bool

    init(post: Int, liked: Bool, page: PagePosts) {
        self.page = page
        self.post = Int32(post)
        self.liked = liked
    }

    func value(named name: String) -> TemplateValue? {
        switch name {
        case "key": .bytes(page.cards.keyBytes(Int(post)))
        case "card": .bytes(page.cards.cardBytes(Int(post), markdown: false))
        case "cardMarkdown": .bytes(page.cards.cardBytes(Int(post), markdown: true))
        case "liked": .bool(liked)
        case "heart": .string(page.heart(liked: liked))
        default: nil
        }
    }

    /// The card's values (not its text), whether the viewer liked the post, and the page's viewer and templates.
    func hashInput(into hasher: inout StableHasher) {
        hasher.combine(page.inputHash)
        hasher.combine(page.inputs.card(Int(post)))
        hasher.combine(liked)
    }
}
