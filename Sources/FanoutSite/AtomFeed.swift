import FanoutReports
import FanoutTemplates

/// A timeline as an Atom 1.0 feed (RFC 4287): its newest posts, each linking to the post's page.
///
/// The feed's `updated` is the newest post's time, never the build's, so two builds of one export write the
/// same bytes. With a base URL, ids and links are absolute URLs; without one, links are relative to the
/// feed (`../../posts/<key>.html`, which RFC 4287 resolves against the feed's own location) and ids are
/// `tag:` URIs built from the uid and post key, which are stable and unique without knowing the host.
struct AtomFeed: InputHashable {
    /// One post in the feed.
    struct Entry: InputHashable {
        let key: String
        /// The post page's path from the site's root.
        let path: String
        let time: Double?
        let author: String
        /// The caption as stored: Markdown.
        let caption: String?

        func hashInput(into hasher: inout StableHasher) {
            hasher.combine(key)
            hasher.combine(path)
            hasher.combine(optional: time.map { Int(bitPattern: UInt($0.bitPattern)) })
            hasher.combine(author)
            hasher.combine(optional: caption)
        }
    }

    /// At most this many entries, the newest, as feed readers only want what is new.
    static let entryLimit = 50
    /// The authority and date of `tag:` ids (RFC 4151) when the site has no base URL.
    static let tagPrefix = "tag:fanout.invalid,2017:"
    /// The time of a feed or entry without any dated post: the epoch, so output stays deterministic.
    static let undated = "1970-01-01T00:00:00Z"

    let uid: String
    /// The timeline's folder from the site's root (`users/<safe uid>`).
    let folder: String
    let title: String
    let author: String
    let entries: [Entry]
    let baseURL: String?

    /// The stored properties ``hashInput(into:)`` feeds, the feed's and an entry's; a test compares them with the
    /// types' own (by reflection).
    static let hashedProperties = (feed: 6, entry: 5)

    /// Every property: what the feed shows follows from them.
    func hashInput(into hasher: inout StableHasher) {
        hasher.combine(uid)
        hasher.combine(folder)
        hasher.combine(title)
        hasher.combine(author)
        hasher.combine(optional: baseURL)
        hasher.combine(entries.count)
        for entry in entries { entry.hashInput(into: &hasher) }
    }

    func render() -> String {
        let toRoot = Self.toRoot(folder)
        var out = head(newest: entries.compactMap(\.time).max())
        for entry in entries { out += Self.entryText(entry, toRoot: toRoot, baseURL: baseURL) }
        return out + Self.tail
    }

    /// The way back to the site's root from the feed of the timeline in `folder`.
    static func toRoot(_ folder: String) -> String { SiteLinks.root(of: "\(folder)/feed.xml") }

    /// The feed's text before its entries; `newest`: its newest entry's time.
    func head(newest: Double?) -> String {
        let timelineLink = baseURL.map { $0 + "\(folder)/index.html" } ?? Self.toRoot(folder) + "\(folder)/index.html"
        let feedID =
            baseURL.map { $0 + "\(folder)/feed.xml" } ?? Self.tagPrefix + "timeline/" + SafeFileName.forKey(uid)
        var out = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <id>\(XMLText.escape(feedID))</id>
            <title>\(XMLText.escape(title))</title>
            <updated>\(newest.map(DateText.iso) ?? Self.undated)</updated>
            <author><name>\(XMLText.escape(author))</name></author>
            <link rel="alternate" type="text/html" href="\(XMLText.escape(timelineLink))"/>

            """
        if let baseURL { out += "<link rel=\"self\" href=\"\(XMLText.escape(baseURL + folder + "/feed.xml"))\"/>\n" }
        return out
    }

    /// The feed's text after its entries.
    static let tail = "</feed>\n"

    /// `entry`'s text, in a feed whose way back to the root is `toRoot`: the same in every feed that lists the
    /// post, so that a build makes it once (``CardCache/appendFeedEntry(_:to:_:)``).
    static func entryText(_ entry: Entry, toRoot: String, baseURL: String?) -> String {
        func link(_ path: String) -> String { baseURL.map { $0 + path } ?? toRoot + path }
        let entryID = baseURL.map { $0 + entry.path } ?? Self.tagPrefix + "post/" + SafeFileName.forKey(entry.key)
        // Feed readers show a text title and summary as written: the caption's text, not its Markdown.
        let caption = entry.caption.map(CommonMark.plainText).flatMap { $0.isEmpty ? nil : $0 }
        var out = """
            <entry>
            <id>\(XMLText.escape(entryID))</id>
            <title>\(XMLText.escape(caption.map { Self.firstLine($0) } ?? "Post \(entry.key)"))</title>
            <updated>\(entry.time.map(DateText.iso) ?? Self.undated)</updated>
            <author><name>\(XMLText.escape(entry.author))</name></author>
            <link rel="alternate" type="text/html" href="\(XMLText.escape(link(entry.path)))"/>

            """
        if let caption { out += "<summary type=\"text\">\(XMLText.escape(caption))</summary>\n" }
        return out + "</entry>\n"
    }

    /// A caption's first line, shortened, as an entry title.
    static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }
}
