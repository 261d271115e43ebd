/// A post on a user's timeline or profile page: its key, its cached cards, whether the page's user liked it, and
/// the heart saying so.
///
/// Cards and hearts are looked up, and rendered if need be, only when a template shows them: the Markdown
/// timeline shows no heart and the HTML one no Markdown card.
struct PostItem: TemplateValues {
    static let names = ["key", "card", "cardMarkdown", "liked", "heart"]

    // At most three words, so that swift-mustache's `Any` holds an item inline rather than in a heap box: a page
    // can show thousands of posts.
    let cards: CardCache
    let hearts: Hearts
    let post: Int32
    let liked: Bool

    init(post: Int, liked: Bool, cards: CardCache, hearts: Hearts) {
        self.cards = cards
        self.hearts = hearts
        self.post = Int32(post)
        self.liked = liked
    }

    func child(named name: String) -> Any? {
        switch name {
        case "key": cards.key(Int(post))
        case "card": cards.card(Int(post), markdown: false)
        case "cardMarkdown": cards.card(Int(post), markdown: true)
        case "liked": liked
        case "heart": hearts.text(liked: liked)
        default: nil
        }
    }
}
