import FanoutJSON

/// What the index's search box searches (docs/site.md "Finding a user"): every user with pages, by username, as
/// `search.json`, a JSON array of `{"username": …, "uid": …, "url": …}` with `url` relative to the site's root.
///
/// The shape is the one `fanout serve` answers a search with, so `search.js` reads both alike. Keys stay whole
/// words rather than one letter: one object a line, 200,000 users make about 20 MB, which a host's gzip brings
/// to a fraction, and it is fetched only when someone starts typing. The array is in the index's order (by
/// username), so results come out in that order without sorting in the browser.
enum SearchData {
    /// One user as the search sees them.
    struct Entry {
        let username: String
        let uid: String
        /// The user's timeline, relative to the site's root.
        let url: String
    }

    /// The input key of `search.json` and `search-data.js`: what their entries are made from, each user's name and
    /// uid (``PageInputCache/person(_:)``, which many pages share) in the index's order; a user's `url` follows from
    /// the uid and the page patterns, which the renderer's identity covers. Making the text to hash it was a tenth of
    /// a rebuild's deciding which pages changed (docs/performance.md "Rebuilds").
    static func inputKey(_ r: PageRenderer, _ job: PageJob, path: String) -> UInt64 {
        var hasher = r.keyHasher(path, template: nil)
        hasher.combine(r.usersByName.count)
        for u in r.usersByName { hasher.combine(r.inputs.person(r.dataset.users[u].key)) }
        return hasher.finalize()
    }

    /// `search.json`: one object a line.
    static func json(_ entries: [Entry]) -> String {
        var out = "["
        for (i, entry) in entries.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out +=
                "{\"username\":\(JSONWriter.quoted(entry.username)),\"uid\":\(JSONWriter.quoted(entry.uid)),"
                + "\"url\":\(JSONWriter.quoted(entry.url))}"
        }
        return out + "\n]\n"
    }

    /// `search-data.js`: the same array assigned to `window.fanoutSearchData`. Browsers refuse `fetch` on a page
    /// opened from disk (`file:`) but run a script it names, so `search.js` loads this there. JSON is a valid
    /// JavaScript expression (U+2028 and U+2029 in strings too, since ES2019).
    static func script(_ entries: [Entry]) -> String {
        "window.fanoutSearchData = " + json(entries).dropLast() + ";\n"
    }
}
