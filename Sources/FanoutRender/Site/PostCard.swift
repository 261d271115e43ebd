/// One post as the `post-card` templates show it (see ``SiteViews/postCard(_:root:)``).
///
/// Optional values are absent from the template's view when nil, as missing keys: Mustache treats an empty
/// string as true, so absent values are left out rather than empty.
struct PostCard: TemplateValues {
    static let names = [
        "root", "key", "postHref", "posterName", "likeCount", "likeCountText", "likersSummary", "profileHref",
        "flagged", "isoTime", "displayTime", "imageURL", "captionHTML", "captionText", "storedCountDiffers",
        "storedLikeCount",
    ]

    /// The way back to the site's root from the page showing the card.
    var root: String
    var key: String
    var postHref: String
    var posterName: String
    var likeCount: Int
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
    var captionHTML: String?
    var captionText: String?
    /// The stored like counter, when it disagrees with the likes counted.
    var storedLikeCount: Int64?

    func child(named name: String) -> Any? {
        switch name {
        case "root": root
        case "key": key
        case "postHref": postHref
        case "posterName": posterName
        case "likeCount": likeCount
        case "likeCountText": likeCountText
        case "likersSummary": likersSummary
        case "profileHref": profileHref
        case "flagged": flagged ? true : nil
        case "isoTime": isoTime
        case "displayTime": displayTime
        case "imageURL": imageURL
        case "captionHTML": captionHTML
        case "captionText": captionText
        case "storedCountDiffers": storedLikeCount != nil ? true : nil
        case "storedLikeCount": storedLikeCount
        default: nil
        }
    }
}
