import FanoutJSON

/// A timeline as a JSON Feed 1.1 (jsonfeed.org/version/1.1), beside its Atom feed and with the same posts, ids and
/// links (``AtomFeed``), for the readers that take JSON Feed.
///
/// The feed is written as one line for its head and one for each item, so that each post's item is the same bytes
/// in every feed that lists it and a build makes it once (``CardCache/appendJSONFeedItem(_:to:_:)``). A post
/// without a time has no `date_published` (JSON Feed's dates are optional, and Atom's epoch would be a claim);
/// an item's `content_text` is its caption's text, or Atom's fallback title when it has none, since an item must
/// have content. Control characters in names are spelled `\u{…}`, as the Atom feed and the captions spell them, so
/// that a reader shows the two feeds alike.
enum JSONFeed {
    /// The version URL JSON Feed 1.1 requires as `version`.
    static let version = "https://jsonfeed.org/version/1.1"
    /// The feed's file beside `feed.xml`.
    static let fileName = "feed.json"

    /// The feed's text before its items: `feed` gives the title, author, folder and base URL.
    static func head(_ feed: AtomFeed) -> String {
        let toRoot = AtomFeed.toRoot(feed.folder)
        var members: [(String, JSONValue)] = [
            ("version", .string(version)),
            ("title", .string(spelled(feed.title))),
            ("home_page_url", .string((feed.baseURL ?? toRoot) + "\(feed.folder)/index.html")),
        ]
        // A feed's own URL only where it is absolute: a reader stores it to fetch the feed again.
        if let baseURL = feed.baseURL { members.append(("feed_url", .string(baseURL + "\(feed.folder)/\(fileName)"))) }
        members.append(("authors", .array([object([("name", .string(spelled(feed.author)))])])))
        let text = JSONWriter(pretty: false, sortKeys: false).write(object(members))
        return text.dropLast() + ",\"items\":["
    }

    /// The feed's text after its items.
    static let tail = "\n]}\n"

    /// `entry`'s item, in a feed whose way back to the root is `toRoot`, starting on a line of its own (the comma
    /// between two items is the feed's, so that the item is the same text wherever it stands).
    static func itemText(_ entry: AtomFeed.Entry, toRoot: String, baseURL: String?) -> String {
        let link = (baseURL ?? toRoot) + entry.path
        let id = baseURL.map { $0 + entry.path } ?? AtomFeed.tagPrefix + "post/" + SafeFileName.forKey(entry.key)
        let caption = entry.caption.map(CommonMark.plainText).flatMap { $0.isEmpty ? nil : $0 }
        var members: [(String, JSONValue)] = [("id", .string(id)), ("url", .string(link))]
        if let caption { members.append(("title", .string(AtomFeed.firstLine(caption)))) }
        members.append(("content_text", .string(caption ?? "Post \(entry.key)")))
        if let time = entry.time { members.append(("date_published", .string(DateText.iso(time)))) }
        members.append(("authors", .array([object([("name", .string(spelled(entry.author)))])])))
        return "\n" + JSONWriter(pretty: false, sortKeys: false).write(object(members))
    }

    /// `text` with the characters XML cannot hold spelled as ``XMLText`` spells them (and nothing else escaped).
    static func spelled(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsSpelling) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsSpelling(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsSpelling(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) })
    }
}
