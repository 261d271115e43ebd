import Testing

@testable import FanoutServe

/// The request paths `serve` answers and the ones it refuses (docs/serve.md).
@Suite struct ServePathTests {
    @Test func decodesPlainAndEncodedPaths() {
        #expect(ServePath.decode("/") == "/")
        #expect(ServePath.decode("/users/alice/index.html") == "/users/alice/index.html")
        #expect(ServePath.decode("/users/al%69ce/") == "/users/alice/")
        #expect(ServePath.decode("/posts/caf%C3%A9.html") == "/posts/café.html")
        #expect(ServePath.decode("/a..b/.c/..d") == "/a..b/.c/..d")
    }

    @Test(arguments: [
        "", "users", "*", "http://evil/../x", "/..", "/../etc/passwd", "/a/../../etc/passwd", "/./index.html",
        "/%2e%2e/x",
        "/%2E./x", "/.%2e/x", "/a%2Fb", "/a%2f..%2fb", "/a\\b", "/a%5cb", "/a%00b", "/a%0ab", "/a%7f", "/%", "/%4",
        "/%zz",
        "/%ff", "/%C3", "/a\u{01}b",
    ])
    func refuses(_ path: String) {
        #expect(ServePath.decode(path) == nil, "\(path)")
    }

    @Test func folderPathsNameTheirIndex() {
        #expect(ServePath.sitePath("/") == "index.html")
        #expect(ServePath.sitePath("/users/alice/") == "users/alice/index.html")
        #expect(ServePath.sitePath("/users/alice/page-2.html") == "users/alice/page-2.html")
    }

    @Test func theScriptGoesInTheHeadAndTheErrorBeforeTheBodyEnds() {
        let page = "<html><head><title>t</title></head><body><p>x</p></body></html>"
        #expect(
            LiveReload.inject(into: page, error: nil)
                == "<html><head><title>t</title>\(LiveReload.script)</head><body><p>x</p></body></html>")
        let failed = LiveReload.inject(into: page, error: "Templates/a.mustache:1: <bad>")
        #expect(failed.contains("Templates/a.mustache:1: &lt;bad&gt;</div></body>"))
        #expect(LiveReload.inject(into: "plain", error: nil) == LiveReload.script + "plain")
    }
}
