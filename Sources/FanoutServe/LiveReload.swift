import FanoutTemplates

/// What `serve` adds to the HTML pages it answers with, and nothing else does (docs/serve.md): one
/// `<script>`, right before the page's first `</head>`, that tells the index's search where to ask
/// (`window.fanoutSearchURL`) and reloads the page when the server says the site changed; and, only while the
/// last reload has failed, a banner with its error right before the page's last `</body>`. In the head, so the
/// search URL is set before any script of the page runs. A page without `</head>` gets the script at its start.
/// With these taken out, a page is byte for byte the file `build` writes.
public enum LiveReload {
    /// The path of the server-sent event stream that announces reloads.
    public static let eventsPath = "/_fanout/events"
    /// The path of the search endpoint (`?q=prefix`).
    public static let searchPath = "/_fanout/search"

    /// The script, exactly as it is inserted.
    public static let script =
        "<script>window.fanoutSearchURL=\"\(searchPath)\";"
        + "new EventSource(\"\(eventsPath)\").addEventListener(\"reload\",function(){location.reload()});</script>"

    /// `html` with the script inserted, and the banner when `error` is given.
    package static func inject(into html: String, error: String?) -> String {
        let page = Array(html.utf8)
        var bytes: [UInt8] = []
        splice(page, insertions(in: page, error: error), bytes: { bytes += $0 }, text: { bytes += $0.utf8 })
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Hands over the page's bytes in order, with `insertions` (``insertions(in:error:)``) between them: `bytes`
    /// gets each run of the page, `text` each insertion. The one place a page and its insertions are put together,
    /// into a `String` here or the buffer the server sends from.
    package static func splice(
        _ page: [UInt8], _ insertions: [(at: Int, text: String)], bytes: (ArraySlice<UInt8>) -> Void,
        text: (String) -> Void
    ) {
        var done = 0
        for insertion in insertions {
            bytes(page[done..<insertion.at])
            text(insertion.text)
            done = insertion.at
        }
        bytes(page[done...])
    }

    /// Where the script, and the banner when `error` is given, go in an HTML page's UTF-8 bytes, in order: the
    /// server copies the page once, with them, into the buffer its response is sent from. `</head>` is looked for
    /// from the start, where it is a few hundred bytes in, and `</body>` from the end.
    package static func insertions(in page: [UInt8], error: String?) -> [(at: Int, text: String)] {
        var insertions = [(at: offset(of: "</head>", in: page, fromEnd: false) ?? 0, text: script)]
        if let banner = error.map(banner), let end = offset(of: "</body>", in: page, fromEnd: true) {
            insertions.append((end, banner))
            insertions.sort { $0.at < $1.at }
        }
        return insertions
    }

    private static func offset(of needle: StaticString, in bytes: [UInt8], fromEnd: Bool) -> Int? {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first, bytes.count >= needle.count else { return nil }
            let starts = 0...(bytes.count - needle.count)
            func matches(_ i: Int) -> Bool { bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) }
            return fromEnd ? starts.reversed().first(where: matches) : starts.first(where: matches)
        }
    }

    /// The failed reload's error, over the page, which is still the last good state's.
    static func banner(_ error: String) -> String {
        "<div id=\"fanout-serve-error\" role=\"alert\" style=\"position:fixed;left:0;right:0;bottom:0;z-index:9999;"
            + "margin:0;padding:1em;background:#fee;color:#600;border-top:3px solid #c00;font:14px/1.4 monospace;"
            + "white-space:pre-wrap;max-height:50vh;overflow:auto\"><strong>fanout serve: the last change did not load;"
            + " showing the last good state.</strong>\n" + HTMLText.escape(error) + "</div>"
    }
}
