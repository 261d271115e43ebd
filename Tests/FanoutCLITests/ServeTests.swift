import FanoutServe
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fanout serve` (docs/serve.md), driven as a user drives it: the built binary started in a site
/// project, fetched over HTTP, edited under it and stopped with a signal.
@Suite(.serialized) struct ServeTests {
    /// A site project made by `fanout init` in `proj`, around a generated export when `users` is given (else the
    /// demo), and the site `build` writes from it (with pagination and a sitemap) in `built`.
    static func project(users: Int?) throws -> CLI {
        let cli = try CLI()
        if let users {
            #expect(
                try cli.run("generate", "--users", "\(users)", "--seed", "11", "--defects", "6", "--out", "gen.json")
                    .code == 0)
            #expect(try cli.run("init", "proj", "--export", "gen.json").code == 0)
        } else {
            #expect(try cli.run("init", "proj").code == 0)
        }
        let build = try cli.run(["build", "--out", "../built"] + siteArguments, in: "proj")
        #expect(build.code == 0, "\(build.stderr)")
        return cli
    }

    /// The site options both commands get.
    static let siteArguments = ["--per-page", "3", "--base-url", "https://feeds.example.com/"]

    /// A page `serve` answered with, without what it adds to HTML pages (``LiveReload``): the script, which must
    /// be there exactly once, in the head.
    static func withoutScript(_ response: ServeProcess.Response, path: String) -> Data {
        guard response.header("Content-Type")?.hasPrefix("text/html") == true else { return response.body }
        let text = response.text
        let parts = text.components(separatedBy: LiveReload.script)
        #expect(parts.count == 2, "\(path): the live-reload script \(parts.count - 1) times")
        #expect(
            parts.first?.contains("<head>") == true && parts.last?.hasPrefix("</head>") == true,
            "\(path): script not at the end of the head")
        return Data(parts.joined().utf8)
    }

    /// Every file `build` wrote in `built` (but its own dot-files), fetched from `server` at its path.
    static func compareEveryFile(_ cli: CLI, _ server: ServeProcess) throws -> Int {
        let files = cli.files(under: "built").filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
        #expect(files.count > 20)
        for file in files {
            let response = try server.request("/" + file)
            #expect(response.status == 200, "/\(file): \(response.status)")
            let built = try Data(contentsOf: cli.url("built/" + file))
            #expect(withoutScript(response, path: file) == built, "/\(file) differs from the built file")
        }
        return files.count
    }

    @Test(arguments: [nil, 40] as [Int?])
    func servesTheBytesBuildWrites(users: Int?) throws {
        let cli = try Self.project(users: users)
        let server = try ServeProcess(cli, Self.siteArguments, in: "proj")
        let count = try Self.compareEveryFile(cli, server)
        #expect(count > (users == nil ? 30 : 150))
        // Folders answer with their index.html, as a static server's do.
        #expect(
            Self.withoutScript(try server.request("/"), path: "/")
                == (try Data(contentsOf: cli.url("built/index.html"))))
        let user = try #require(cli.files(under: "built/users").first { $0.hasSuffix("/index.html") })
        let folder = "/users/" + user.dropLast("index.html".count)
        #expect(
            Self.withoutScript(try server.request(folder), path: folder)
                == (try Data(contentsOf: cli.url("built/users/" + user))))
        // Types a browser and a feed reader go by.
        #expect(try server.request("/style.css").header("Content-Type") == "text/css; charset=utf-8")
        #expect(try server.request("/report.json").header("Content-Type") == "application/json; charset=utf-8")
        #expect(
            try server.request("/" + folder.dropFirst() + "feed.xml").header("Content-Type")
                == "application/atom+xml; charset=utf-8")
        let stop = server.stop()
        #expect(stop.reason == .exit && stop.status == 0 && stop.rest.isEmpty, "\(stop)")
    }

    /// The pages of the posts a user liked (docs/site.md), fetched as a browser does (URLSession, the links
    /// resolved from the profile's): each is the file `build` writes, as HTML or Markdown; page 1 under page N's
    /// name, a number written otherwise and a page past the last are none.
    @Test func servesLikedPagesByPath() throws {
        let cli = try Self.project(users: 40)
        let server = try ServeProcess(cli, Self.siteArguments, in: "proj")
        // A user with several pages of liked posts (3 a page).
        let second = try #require(cli.files(under: "built/users").first { $0.hasSuffix("/liked-2.html") })
        let folder = "users/" + second.dropLast("liked-2.html".count)
        let profile = try #require(URL(string: folder + "profile.html", relativeTo: URL(string: server.url)))
        let (profilePage, _) = try synchronousFetch(profile)
        #expect(String(decoding: profilePage, as: UTF8.self).contains("<a href=\"liked.html\">liked posts</a>"))
        let liked = cli.files(under: "built/" + folder).filter { $0.hasPrefix("liked") }
        #expect(liked.count >= 4 && liked.contains("liked.md"), "\(liked)")
        for file in liked {
            let (data, response) = try synchronousFetch(try #require(URL(string: file, relativeTo: profile)))
            let http = try #require(response as? HTTPURLResponse)
            let page = ServeProcess.Response(
                status: http.statusCode, headers: http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }, body: data)
            #expect(http.statusCode == 200, "\(file)")
            #expect(
                page.header("Content-Type")
                    == (file.hasSuffix(".md") ? "text/markdown; charset=utf-8" : "text/html; charset=utf-8"))
            #expect(
                Self.withoutScript(page, path: file) == (try Data(contentsOf: cli.url("built/" + folder + file))),
                "\(file)")
        }
        let pages = liked.count { $0.hasSuffix(".html") }
        for missing in ["liked-1.html", "liked-02.html", "liked-\(pages + 1).html", "liked-\(pages + 1).md"] {
            let (_, response) = try synchronousFetch(try #require(URL(string: missing, relativeTo: profile)))
            #expect((response as? HTTPURLResponse)?.statusCode == 404, "\(missing)")
        }
        let stop = server.stop()
        #expect(stop.reason == .exit && stop.status == 0 && stop.rest.isEmpty, "\(stop)")
    }

    /// FriendlyPix's export, whose post pages list comments and whose cards count them: every post page, and
    /// every page linking to a post's comments, served, is the file `build` writes.
    @Test func servesThePagesWithCommentsBuildWrites() throws {
        let cli = try CLI()
        let export = CommentPagesTests.friendlypix
        #expect(try cli.run(["build", export, "--out", "built"] + Self.siteArguments).code == 0)
        let server = try ServeProcess(cli, [export] + Self.siteArguments)
        let files = try cli.files(under: "built").filter { file in
            try file.hasPrefix("posts/")
                || (file.hasSuffix(".html") && cli.read("built/" + file).contains(".html#comments\""))
        }
        #expect(files.count > 270)
        var comments = 0
        for file in files {
            let response = try server.request("/" + file)
            let built = try Data(contentsOf: cli.url("built/" + file))
            #expect(
                response.status == 200 && Self.withoutScript(response, path: file) == built,
                "/\(file) differs from the built file")
            comments += response.text.components(separatedBy: "<li class=\"comment\"").count - 1
        }
        #expect(comments == 14, "every comment of the export, served")
        let stop = server.stop()
        #expect(stop.reason == .exit && stop.status == 0 && stop.rest.isEmpty, "\(stop)")
    }

    /// What `serve` must do: index, a user found by the search endpoint, their timeline by `/u/<uid>`, a post by
    /// `/p/<key>`, the report, each equal to `build`'s file; a template edited (the page changes, open pages are
    /// told to reload), broken (its error on the page, the last good state still served) and mended; stopped.
    @Test func searchLookupAndLiveReload() throws {
        let cli = try Self.project(users: 120)
        #expect(try cli.run("export", "gen.json", "--out", "snap").code == 0)
        let snapshot = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("snap/snapshot.json"))) as? [String: Any])
        let users = try #require(snapshot["users"] as? [String: [String: Any]])
        let (uid, user) = try #require(users.sorted { $0.key < $1.key }.first { ($0.value["posts"] as? Int ?? 0) > 0 })
        let username = try #require(user["username"] as? String)
        let postKey = try #require(
            (snapshot["posts"] as? [String: [String: Any]])?.first { $0.value["owner"] as? String == uid }?.key)

        let server = try ServeProcess(cli, Self.siteArguments, in: "proj")
        let base = try #require(URL(string: server.url))
        func fetch(_ path: String) throws -> (Data, HTTPURLResponse) {
            let (data, response) = try synchronousFetch(URL(string: path, relativeTo: base)!)
            return (data, try #require(response as? HTTPURLResponse))
        }
        func built(_ path: String) throws -> Data { try Data(contentsOf: cli.url("built/" + path)) }
        func page(_ data: Data, _ response: HTTPURLResponse) -> ServeProcess.Response {
            ServeProcess.Response(
                status: response.statusCode, headers: response.allHeaderFields.map { ("\($0.key)", "\($0.value)") },
                body: data)
        }

        let (index, indexResponse) = try fetch("/")
        #expect(Self.withoutScript(page(index, indexResponse), path: "/") == (try built("index.html")))

        // The search: a username prefix in other case, answered with the user's uid and timeline.
        let (found, _) = try fetch("/_fanout/search?q=" + username.prefix(3).uppercased())
        let hits = try #require(try JSONSerialization.jsonObject(with: found) as? [[String: String]])
        let hit = try #require(hits.first { $0["uid"] == uid }, "\(username) not among \(hits)")
        #expect(hit["username"] == username && hits.count <= 20)
        #expect(hits.allSatisfy { $0["username"]!.lowercased().hasPrefix(username.prefix(3).lowercased()) })
        let (byUID, _) = try fetch("/_fanout/search?q=" + uid.prefix(uid.count - 1))
        #expect(
            (try JSONSerialization.jsonObject(with: byUID) as? [[String: String]])?.contains { $0["uid"] == uid }
                == true)
        // As the built site's search (search.js over search.json) matches: username or uid, in any case, and
        // how many match in all in X-Total-Count, the first 20 listed.
        let entries = try #require(try JSONSerialization.jsonObject(with: built("search.json")) as? [[String: String]])
        for query in [
            "a", "0", String(uid.prefix(2)).uppercased(), String(uid.prefix(2)).lowercased(),
            String(username.prefix(1)),
        ] {
            let q = query.lowercased()
            let matching = entries.filter {
                $0["username"]!.lowercased().hasPrefix(q) || $0["uid"]!.lowercased().hasPrefix(q)
            }
            let answer = try server.request(
                "/_fanout/search?q=" + query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            let listed = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [[String: String]])
            #expect(answer.header("X-Total-Count") == "\(matching.count)", "\(query)")
            #expect(listed.count == min(20, matching.count), "\(query)")
            #expect(Set(listed.map { $0["uid"]! }).isSubset(of: matching.map { $0["uid"]! }), "\(query)")
        }

        // The lookups redirect (302) to the pages `build` writes.
        let redirect = try server.request("/u/" + uid)
        #expect(redirect.status == 302 && redirect.header("Location") == hit["url"])
        let (timeline, timelineResponse) = try fetch("/u/" + uid)
        #expect(timelineResponse.url?.path == hit["url"])
        let timelinePath = String(try #require(hit["url"]).dropFirst())
        #expect(Self.withoutScript(page(timeline, timelineResponse), path: timelinePath) == (try built(timelinePath)))
        let (post, postResponse) = try fetch("/p/" + postKey)
        let postPath = String(try #require(postResponse.url?.path).dropFirst())
        let builtPost = try built(postPath)
        #expect(
            postPath.hasPrefix("posts/") && Self.withoutScript(page(post, postResponse), path: postPath) == builtPost)
        #expect(try server.request("/u/no-such-user").status == 404)
        let (report, reportResponse) = try fetch("/report.html")
        #expect(Self.withoutScript(page(report, reportResponse), path: "report.html") == (try built("report.html")))

        // An open page's event stream is told to reload when a template changes, and the page changes.
        let events = try server.connect()
        defer { close(events) }
        let get = "GET \(LiveReload.eventsPath) HTTP/1.1\r\nHost: x\r\n\r\n"
        _ = get.withCString { send(events, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        #expect(ServeProcess.read(events, until: ": connected", seconds: 10))
        let template = cli.url("proj/Templates/timeline.mustache")
        let original = try String(contentsOf: template, encoding: .utf8)
        try (original + "<p>served-edit-marker</p>\n").write(to: template, atomically: true, encoding: .utf8)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        let edited = try server.request("/" + timelinePath).text
        #expect(edited.contains("served-edit-marker") && !edited.contains("fanout-serve-error"))

        // A broken template: the error on the page, over the last good state.
        try (original + "{{#posts}}\n").write(to: template, atomically: true, encoding: .utf8)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        let broken = try server.request("/" + timelinePath).text
        #expect(
            broken.contains("id=\"fanout-serve-error\"") && broken.contains("timeline.mustache"),
            "\(broken.suffix(600))")
        #expect(broken.contains("served-edit-marker"))
        try original.write(to: template, atomically: true, encoding: .utf8)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        #expect(
            Self.withoutScript(try server.request("/" + timelinePath), path: timelinePath) == (try built(timelinePath)))

        // A broken export: its error on the page, and still there after a template edit meanwhile (the reload
        // reads the export again rather than reusing the last one that loaded), until the export is mended.
        let exportFile = cli.url("gen.json")
        let export = try Data(contentsOf: exportFile)
        try export.prefix(export.count / 2).write(to: exportFile)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        #expect(try server.request("/" + timelinePath).text.contains("id=\"fanout-serve-error\""))
        try (original + "<p>edited-while-broken</p>\n").write(to: template, atomically: true, encoding: .utf8)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        let stillBroken = try server.request("/" + timelinePath).text
        #expect(
            stillBroken.contains("id=\"fanout-serve-error\"") && stillBroken.contains("gen.json"),
            "\(stillBroken.suffix(600))")
        try original.write(to: template, atomically: true, encoding: .utf8)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        try export.write(to: exportFile)
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 15))
        #expect(
            Self.withoutScript(try server.request("/" + timelinePath), path: timelinePath) == (try built(timelinePath)))

        let stop = server.stop(SIGTERM)
        #expect(stop.reason == .exit && stop.status == 0 && stop.rest.isEmpty, "\(stop)")
        #expect(stop.stderr.contains("reload failed") && stop.stderr.contains("timeline.mustache"))
    }

    /// Hostile requests get a 4xx and never a file from outside the site; the server keeps answering, on both
    /// cores, and stops cleanly afterwards.
    @Test func hostileRequests() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        let server = try ServeProcess(cli, [demo])
        for target in [
            "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/.%2E/.%2e/etc/passwd",
            "/users/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            "/users%2F..%2F..%2Fetc%2Fpasswd", "/..%5c..%5cetc%5cpasswd", "/style.css%00.html", "/%zz", "/%ff%fe",
            "http://evil.example/../../etc/passwd", "*",
        ] {
            let response = try server.request(target)
            #expect(response.status == 400, "\(target): \(response.status)")
            #expect(!response.text.contains("root:"), "\(target)")
        }
        for target in [
            "/etc/passwd", "/users/", "/posts/nope.html", "/u/", "/p/", "/.fanout-manifest",
            "/users/x/../../etc/passwd/",
        ] {
            let response = try server.request(target)
            #expect(response.status == 404 || response.status == 400, "\(target): \(response.status)")
            #expect(!response.text.contains("root:"), "\(target)")
        }
        let missing = try server.request("/no-such-page.html")
        #expect(
            missing.status == 404 && missing.header("Content-Type") == "text/html; charset=utf-8"
                && missing.text.contains("Not found"))
        // A folder's path without its slash is sent to the folder, as a static server does; other paths are not.
        let timeline = try #require(try server.request("/u/uidAlice0000000000000000000").header("Location"))
        let folder = String(timeline.dropLast("/index.html".count))
        let toFolder = try server.request(folder)
        #expect(toFolder.status == 301 && toFolder.header("Location") == folder + "/", "\(folder): \(toFolder.status)")
        #expect(try server.request(folder + "/").status == 200)
        #expect(try server.request("/users/nobody").status == 404)
        #expect(try server.request(folder + "/index").status == 404)

        #expect(try server.request("/" + String(repeating: "a", count: 64 * 1024)).status == 414)
        let headers = (0..<20).map { "X-Filler-\($0): " + String(repeating: "h", count: 1024) }
        #expect(try server.request("/", headers: headers).status == 431)
        // Past the HTTP decoder's limits: 400 and the connection closed.
        #expect(
            try server.request("/", headers: ["X-Huge: " + String(repeating: "h", count: 200 * 1024)]).status == 400)

        let get = try server.request("/report.html")
        let head = try server.request("/report.html", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(get.body.count))
        for method in ["OPTIONS", "POST", "PUT", "DELETE", "TRACE", "PATCH"] {
            let response = try server.request(
                "/", method: method, headers: method == "POST" ? ["Content-Length: 5"] : [])
            #expect(response.status == 405 && response.header("Allow") == "GET, HEAD", "\(method): \(response.status)")
        }
        #expect(try server.raw(Data("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)).status == 405)
        #expect(try server.raw(Data("garbage\r\n\r\n".utf8)).status == 400)

        // Clients that leave midway: in the request line, in the headers, before reading, after a few bytes.
        for i in 0..<60 {
            let socket = try server.connect()
            let partial = [
                "GET /rep", "GET /report.html HTTP/1.1\r\nHost: x\r\nX-A: b",
                "GET /report.html HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /report.html HTTP/1.1\r\nHost: x\r\n\r\n",
            ][i % 4]
            _ = partial.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            if i % 4 == 3 {
                var few = [UInt8](repeating: 0, count: 10)
                _ = recv(socket, &few, few.count, 0)
            }
            if i % 8 == 7 {  // an abortive close (RST)
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            }
            close(socket)
        }
        // Many clients at once, every answer whole.
        let timelines = try server.request("/").text.components(separatedBy: "href=\"users/")
            .dropFirst().compactMap { $0.split(separator: "\"").first.map { "/users/" + $0 } }
        #expect(timelines.count >= 6)
        let failures = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for n in 0..<15 {
                let path = timelines[(worker + n) % timelines.count]
                let response = try? server.request(path)
                if response?.status != 200 || response?.text.contains("</html>") != true {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try server.request("/").status == 200)
        let stop = server.stop()
        #expect(stop.reason == .exit && stop.status == 0, "\(stop)")
    }

    @Test func portInUseAndPortZero() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        let server = try ServeProcess(cli, [demo])
        #expect(server.port > 0 && server.url == "http://127.0.0.1:\(server.port)/")
        let second = try cli.run("serve", demo, "--port", "\(server.port)")
        #expect(second.code == 2 && second.stdout.isEmpty)
        #expect(
            second.stderr
                == "Error: 127.0.0.1:\(server.port): the port is in use; give another with --port N (--port 0 picks a free one)\n"
        )
        #expect(try cli.run("serve", demo, "--port", "70000").code == 2)
        // An address that is no address, or not this machine's: one message, exit 2, before the export is read.
        let noAddress = try cli.run("serve", demo, "--port", "0", "--bind", "999.1.1.1")
        #expect(noAddress.code == 2 && noAddress.stdout.isEmpty)
        #expect(noAddress.stderr == "Error: --bind 999.1.1.1: neither an IP address nor a host name that resolves\n")
        let notOurs = try cli.run("serve", demo, "--port", "0", "--bind", "192.0.2.1")
        #expect(
            notOurs.code == 2 && notOurs.stderr.hasPrefix("Error: 192.0.2.1:0: cannot listen: "), "\(notOurs.stderr)")
        #expect(try cli.run("serve", "missing.json").code == 2)
        _ = server.stop()
    }
}

/// Fetches `url` with URLSession (following redirects, as a browser does), waiting for the answer.
func synchronousFetch(_ url: URL) throws -> (Data, URLResponse) {
    let box = LockedBox<Result<(Data, URLResponse), any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    URLSession.shared.dataTask(with: url) { data, response, error in
        box.withLock { $0 = error.map { .failure($0) } ?? .success((data ?? Data(), response!)) }
        done.signal()
    }.resume()
    done.wait()
    return try box.withLock { $0! }.get()
}

/// A value shared between threads, behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
