/// How much one render of Fanout's engine may do before it is stopped (docs/site.md "Template nesting"): sections
/// over lists nested inside each other multiply, so a legal template of a few lines (eight `{{#posts}}` inside each
/// other) would render for hours or outgrow memory; past the budget the page is not written and the error names the
/// sections open when it ran out.
///
/// The budget grows with what the page lists: a page may render each item of its lists a bounded number of times
/// (a post's page lists every liker), and only nesting that renders items over and over runs out.
struct RenderBudget: Sendable {
    /// The lists of nodes a render may render: a template, a partial, a section's body once per item.
    var renders: Int
    /// The bytes a render may write.
    var bytes: Int

    /// For a page whose values' lists hold `items` in all: 10 million renders and 256 MiB, and 16 renders and 1 KiB
    /// more an item, far above what the built-in templates render for one (a timeline's post card is a few).
    static func page(listing items: Int = 0) -> RenderBudget {
        let items = min(items, 1 << 32)
        return RenderBudget(renders: 10_000_000 + 16 * items, bytes: (256 << 20) + 1024 * items)
    }

    static let standard = page()
}
