/// One page to render: its kind, the item of the kind's subject it is of, and its number in the item's list.
struct PageJob: Sendable, Equatable {
    /// The kind: a position in ``PageDeclarations/all``.
    let kind: Int
    /// A user's or post's index in the dataset, a `Content/` page's position, an asset's position among the assets
    /// sorted; 0 for the site (``PageSubject``).
    let item: Int
    /// The page's number in the item's list, from 1; 1 for a kind with one page per item.
    let page: Int

    init(kind: Int, item: Int, page: Int = 1) {
        self.kind = kind
        self.item = item
        self.page = page
    }

    var declaration: PageDeclaration { PageDeclarations.all[kind] }
}
