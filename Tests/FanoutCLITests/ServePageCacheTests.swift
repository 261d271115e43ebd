import FanoutServe
import Foundation
import Testing

/// `serve`'s page cache (docs/serve.md "The page cache"), through a running server: a page asked for again comes from
/// memory with the bytes a fresh render gives, a page whose inputs a reload changed is rendered again, one whose
/// inputs did not survives the reload, and the bound evicts by the clock.
@Suite(.serialized) struct ServePageCacheTests {
    /// Two posts of the generated export whose captions are plain sentences found once in the file, with their
    /// pages' paths on `server`.
    static func twoPosts(_ cli: CLI, _ server: ServeProcess) throws -> [(caption: String, path: String)] {
        let export = try cli.read("gen.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: Any])
        // Posts are kept under their owners' uids: every record with a caption, at any depth, by its key.
        var captions: [(key: String, caption: String)] = []
        func collect(_ records: [String: Any]) {
            for (key, value) in records {
                guard let record = value as? [String: Any] else { continue }
                if let caption = record["caption"] as? String {
                    captions.append((key, caption))
                } else {
                    collect(record)
                }
            }
        }
        collect(root)
        var found: [(caption: String, path: String)] = []
        for (key, caption) in captions.sorted(by: { $0.key < $1.key })
        where caption.count > 12 && caption.allSatisfy({ $0.isLetter || " .!".contains($0) })
            && export.components(separatedBy: "\"caption\":\"\(caption)\"").count == 2
        {
            let lookup = try server.request("/p/" + key)
            guard lookup.status == 302, let location = lookup.header("Location") else { continue }
            found.append((caption, location))
            if found.count == 2 { break }
        }
        return found
    }

    @Test func repeatsFromMemoryAndRendersAgainWhatAReloadChanged() throws {
        let cli = try ServeTests.project(users: 40)
        let server = try ServeProcess(cli, ServeTests.siteArguments, in: "proj")
        let posts = try Self.twoPosts(cli, server)
        try #require(posts.count == 2)
        let (edited, kept) = (posts[0], posts[1])
        func built(_ folder: String, _ path: String) throws -> Data { try Data(contentsOf: cli.url(folder + path)) }

        // Asked for twice: rendered, then the same bytes from memory, which are the built file's.
        let first = try server.request(edited.path)
        #expect(first.status == 200 && first.header("X-Fanout-Page-Cache") == "miss")
        #expect(ServeTests.withoutScript(first, path: edited.path) == (try built("built", edited.path)))
        let again = try server.request(edited.path)
        #expect(again.status == 200 && again.header("X-Fanout-Page-Cache") == "hit")
        #expect(again.body == first.body && again.header("ETag") == first.header("ETag"))
        let etag = try #require(first.header("ETag"))
        let unchanged = try server.request(edited.path, headers: ["If-None-Match: \(etag)"])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("ETag") == etag)
        #expect(try server.request(edited.path, method: "HEAD").header("Content-Length") == "\(first.body.count)")
        let keptFirst = try server.request(kept.path)
        #expect(keptFirst.header("X-Fanout-Page-Cache") == "miss")

        // One post's caption edited: its page is rendered again, as a fresh build writes it; the other post's page,
        // whose inputs are the same, is still answered from memory.
        let events = try server.connect()
        defer { close(events) }
        let get = "GET \(LiveReload.eventsPath) HTTP/1.1\r\nHost: x\r\n\r\n"
        _ = get.withCString { send(events, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        #expect(ServeProcess.read(events, until: ": connected", seconds: 10))
        let export = try cli.read("gen.json")
        let marker = "cache edit marker"
        try cli.write(
            export.replacingOccurrences(
                of: "\"caption\":\"\(edited.caption)\"", with: "\"caption\":\"\(edited.caption) \(marker)\""),
            to: "gen.json")
        #expect(ServeProcess.read(events, until: "event: reload", seconds: 20))
        let build = try cli.run(["build", "--out", "../rebuilt"] + ServeTests.siteArguments, in: "proj")
        #expect(build.code == 0, "\(build.stderr)")

        let after = try server.request(edited.path)
        #expect(after.header("X-Fanout-Page-Cache") == "miss" && after.text.contains(marker))
        #expect(ServeTests.withoutScript(after, path: edited.path) == (try built("rebuilt", edited.path)))
        #expect(after.header("ETag") != etag)
        #expect(try server.request(edited.path, headers: ["If-None-Match: \(etag)"]).status == 200)
        #expect(try server.request(edited.path).header("X-Fanout-Page-Cache") == "hit")
        let keptAfter = try server.request(kept.path)
        #expect(keptAfter.header("X-Fanout-Page-Cache") == "hit")
        #expect(keptAfter.body == keptFirst.body)
        #expect(ServeTests.withoutScript(keptAfter, path: kept.path) == (try built("rebuilt", kept.path)))

        let stop = server.stop()
        #expect(stop.reason == .exit && stop.status == 0, "\(stop)")
        #expect(stop.stderr.contains("rendered pages kept in memory up to 256 MB"), "\(stop.stderr)")
        #expect(stop.stderr.contains("page cache: "), "\(stop.stderr)")
    }

    /// With room for two of three pages, the one asked for again since it was kept stays and the other goes; with
    /// `--page-cache-size 0` nothing is kept.
    @Test func theBoundEvictsByTheClock() throws {
        let cli = try ServeTests.project(users: 40)
        let paths = cli.files(under: "built/posts").filter { $0.hasSuffix(".html") }.prefix(3).map { "/posts/" + $0 }
        try #require(paths.count == 3)
        // A body is the built file with the live-reload script.
        let sizes = try paths.map { path in
            try Data(contentsOf: cli.url("built" + path)).count + LiveReload.script.utf8.count
        }
        let capacity = max(sizes[0] + sizes[1], sizes[0] + sizes[2])
        let server = try ServeProcess(cli, ServeTests.siteArguments + ["--page-cache-size", "\(capacity)"], in: "proj")
        func cache(_ i: Int) throws -> String? { try server.request(paths[i]).header("X-Fanout-Page-Cache") }
        #expect(try cache(0) == "miss" && cache(1) == "miss" && cache(0) == "hit")
        // No room for the third: the hand passes the first, asked for since, and evicts the second.
        #expect(try cache(2) == "miss")
        #expect(try cache(0) == "hit" && cache(2) == "hit" && cache(1) == "miss")
        _ = server.stop()

        let uncached = try ServeProcess(cli, ServeTests.siteArguments + ["--page-cache-size", "0"], in: "proj")
        #expect(try uncached.request(paths[0]).header("X-Fanout-Page-Cache") == "miss")
        #expect(try uncached.request(paths[0]).header("X-Fanout-Page-Cache") == "miss")
        let stop = uncached.stop()
        #expect(stop.stderr.contains("no rendered page kept (--page-cache-size 0)"), "\(stop.stderr)")
        let bad = try cli.run("serve", "gen.json", "--page-cache-size", "lots")
        #expect(bad.code == 2 && bad.stderr.contains("expected a size such as 256MB"), "\(bad.stderr)")
    }
}
