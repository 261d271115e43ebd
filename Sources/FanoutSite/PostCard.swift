import FanoutTemplates

/// One post as the `post-card` templates show it (see ``SiteViews/postCard(_:root:)``).
///
/// Optional values are absent from the template's view when nil, as missing keys: Mustache treats an empty
/// string as true, so absent values are left out rather than empty.
struct PostCard: TemplateValues, InputHashable {
    static let names = [
        "root", "key", "postHref", "likesHref", "posterName", "likeCount", "likeCountText", "likersSummary",
        "profileHref", "flagged", "isoTime", "displayTime", "imageURL", "imageHeight", "captionHTML",
        "captionMarkdown", "captionText", "storedCountDiffers", "storedLikeCount", "commentCount", "commentCountText",
        "commentsHref",
    ]

    /// The way back to the site's root from the page showing the card.
    var root: String
    var key: String
    /// The post's page, for links to it; nil on that page itself, which must not link to itself.
    var postHref: String?
    /// Where the like count links to: the post's page and its list of likers; nil on that page and without likes.
    var likesHref: String?
    var posterName: String
    var likeCount: Int
    /// "no likes", "1 like", "1,024 likes".
    var likeCountText: String
    /// "alice, bob and 3 others"; nil without likes.
    var likersSummary: String?
    /// Nil when the post has no owner.
    var profileHref: String?
    /// Whether users flagged the post as inappropriate.
    var flagged = false
    var isoTime: String?
    var displayTime: String
    /// Only `http(s)` URLs (see ``SafeURL``).
    var imageURL: String?
    /// The photo's height in CSS pixels when shown ``SiteViews/photoWidth`` wide, which the card reserves before
    /// the photo loads; nil when the export has none that makes sense.
    var imageHeight: Int?
    /// The caption, as stored and rendered for templates: `captionText` (as stored), `captionHTML` (libcmark's HTML,
    /// soft breaks as `<br>`) and `captionMarkdown` (its Markdown without raw HTML or dangerous links, for Markdown
    /// pages); both renders are inserted unescaped. Nil without a caption.
    var caption: Caption?
    /// The stored like counter, when it disagrees with the likes counted.
    var storedLikeCount: Int64?
    /// The number of comments the post's page lists; nil when the layout has no comments, so that cards of such
    /// layouts show nothing of them.
    var commentCount: Int?
    /// The comments on the post's page; nil on that page itself and without comments.
    var commentsHref: String?

    func value(named name: String) -> TemplateValue? {
        switch name {
        case "root": .string(root)
        case "key": .string(key)
        case "postHref": postHref.map(TemplateValue.string)
        case "likesHref": likesHref.map(TemplateValue.string)
        case "posterName": .string(posterName)
        case "likeCount": .int(likeCount)
        case "likeCountText": .string(likeCountText)
        case "likersSummary": likersSummary.map(TemplateValue.string)
        case "profileHref": profileHref.map(TemplateValue.string)
        case "flagged": flagged ? .bool(true) : nil
        case "isoTime": isoTime.map(TemplateValue.string)
        case "displayTime": .string(displayTime)
        case "imageURL": imageURL.map(TemplateValue.string)
        case "imageHeight": imageHeight.map(TemplateValue.int)
        case "captionHTML": caption.map { .string($0.html) }
        case "captionMarkdown": caption?.markdown.map(TemplateValue.string)
        case "captionText": caption.map { .string($0.text) }
        case "storedCountDiffers": storedLikeCount != nil ? .bool(true) : nil
        case "storedLikeCount": storedLikeCount.map { .string(CountText.grouped(Int($0))) }
        case "commentCount": commentCount.map(TemplateValue.int)
        case "commentCountText":
            commentCount.map { .string($0 == 0 ? "no comments" : CountText.phrase($0, "comment", "comments")) }
        case "commentsHref": commentsHref.map(TemplateValue.string)
        default: nil
        }
    }
}

extension PostCard {
    /// The number of stored properties ``hashInput(into:)`` feeds; a test compares it with the type's own (by
    /// reflection), so that a property added without a place in the key fails the tests.
    static let hashedProperties = 18

    /// Every property, the caption by its text (its renders follow from it).
    func hashInput(into hasher: inout StableHasher) {
        hasher.combine(root)
        hasher.combine(key)
        hasher.combine(optional: postHref)
        hasher.combine(optional: likesHref)
        hasher.combine(posterName)
        hasher.combine(likeCount)
        hasher.combine(likeCountText)
        hasher.combine(optional: likersSummary)
        hasher.combine(optional: profileHref)
        hasher.combine(flagged)
        hasher.combine(optional: isoTime)
        hasher.combine(displayTime)
        hasher.combine(optional: imageURL)
        hasher.combine(optional: imageHeight)
        hasher.combine(optional: caption?.text)
        hasher.combine(optional: storedLikeCount.map { Int($0) })
        hasher.combine(optional: commentCount)
        hasher.combine(optional: commentsHref)
    }
}

/// A post's caption and its renders, each made when a template first shows it: a build of HTML pages alone never
/// renders a caption's Markdown, and the other way round. Used by one page's render at a time. A comment's text is
/// Markdown shown as captions are (docs/site.md), so comments use it too.
final class Caption {
    let text: String

    init(_ text: String) { self.text = text }

    private(set) lazy var html: String = CommonMark.html(text, hardBreaks: true)
    /// Nil when nothing is left of the caption (raw HTML only).
    private(set) lazy var markdown: String? = {
        let markdown = CommonMark.safeMarkdown(text)
        return markdown.isEmpty ? nil : markdown
    }()
}
