import FanoutRender
import Foundation

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
    static func inject(into html: String, error: String?) -> String {
        var page = html
        if let error, let end = page.range(of: "</body>", options: .backwards) {
            page.insert(contentsOf: banner(error), at: end.lowerBound)
        }
        if let head = page.range(of: "</head>") {
            page.insert(contentsOf: script, at: head.lowerBound)
        } else {
            page.insert(contentsOf: script, at: page.startIndex)
        }
        return page
    }

    /// The failed reload's error, over the page, which is still the last good state's.
    static func banner(_ error: String) -> String {
        "<div id=\"fanout-serve-error\" role=\"alert\" style=\"position:fixed;left:0;right:0;bottom:0;z-index:9999;"
            + "margin:0;padding:1em;background:#fee;color:#600;border-top:3px solid #c00;font:14px/1.4 monospace;"
            + "white-space:pre-wrap;max-height:50vh;overflow:auto\"><strong>fanout serve: the last change did not load;"
            + " showing the last good state.</strong>\n" + HTMLText.escape(error) + "</div>"
    }
}
