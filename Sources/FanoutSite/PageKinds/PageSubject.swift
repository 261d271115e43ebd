/// What a kind of page has its pages of: one list or file for the whole site, or one (or one list) per user, per
/// post, per `Content/` page or per asset. A job's ``PageJob/item`` is an item of its kind's subject, and the
/// subject's placeholder in the kind's ``PagePath`` is that item's file name.
enum PageSubject: Sendable, CaseIterable {
    /// The site as a whole (the index, the report): one item, 0; no placeholder.
    case site
    /// Each user with pages, by user index: `{user}`, the uid made safe (``SafeFileName``).
    case user
    /// Each post with a page, by post index: `{post}`, the key made safe.
    case post
    /// Each `Content/` page but `index.md`, by position among the pages: `{content}`, its name made safe.
    case content
    /// Each file of the templates that is not a template (`style.css`), by position among them sorted:
    /// `{asset}`, its file name.
    case asset

    /// The word of its placeholder in a path pattern.
    var placeholder: String? {
        switch self {
        case .site: nil
        case .user: "user"
        case .post: "post"
        case .content: "content"
        case .asset: "asset"
        }
    }
}
