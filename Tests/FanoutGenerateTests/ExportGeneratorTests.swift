import FanoutGenerate
import FanoutTestSupport
import Foundation
import Testing

@Suite("ExportGenerator")
struct ExportGeneratorTests {
    // MARK: determinism

    @Test func sameOptionsGiveIdenticalBytes() {
        let options = ExportGenerator.Options(users: 400, seed: 7, defects: 12)
        let a = generate(options)
        let b = generate(options)
        #expect(a.bytes.count > 100_000)
        #expect(a.bytes == b.bytes)
        #expect(a.defects == b.defects)
    }

    @Test func differentSeedGivesDifferentBytes() {
        let a = generate(.init(users: 400, seed: 7))
        let b = generate(.init(users: 400, seed: 8))
        #expect(a.bytes != b.bytes)
        // Same size class, though.
        #expect(Double(b.bytes.count) / Double(a.bytes.count) > 0.5)
        #expect(Double(b.bytes.count) / Double(a.bytes.count) < 2.0)
    }

    @Test func defectsDoNotDisturbTheRestOfTheStream() {
        // Defects only edit a handful of entries: the size barely moves.
        let clean = generate(.init(users: 300, seed: 3))
        let dirty = generate(.init(users: 300, seed: 3, defects: 10))
        #expect(clean.bytes != dirty.bytes)
        #expect(abs(clean.bytes.count - dirty.bytes.count) < 2_000)
    }

    /// Pins the exact bytes so any platform or refactoring difference shows up.
    /// Update deliberately when `Tuning` or the output format changes.
    @Test func goldenOutput() {
        let out = generate(.init(users: 50, seed: 1, defects: 10))
        #expect(out.bytes.count == 180_253)
        #expect(fnv1a(out.bytes) == 0xD22F_50FB_6555_B2CA)
        #expect(out.defects.count == 10)
    }

    @Test func streamsInChunksAndFileMatchesStream() throws {
        let options = ExportGenerator.Options(users: 2_000, seed: 5, defects: 10)
        let streamed = generate(options)
        #expect(streamed.chunks.count > 5)
        #expect(streamed.chunks.allSatisfy { $0 > 0 && $0 <= (1 << 20) + (1 << 20) })
        #expect(streamed.chunks.dropLast().allSatisfy { $0 >= 1 << 20 })

        let folder = try TemporaryFolder("generate")
        let path = folder.path("export.json")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: path))  // replaced atomically
        let defects = try ExportGenerator(options).write(toFile: path)
        #expect(defects == streamed.defects)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect([UInt8](written) == streamed.bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["export.json"])
    }

    /// The file goes through Fanout's one atomic writer, which makes missing folders as every output does; a path
    /// under a regular file throws and leaves nothing behind.
    @Test func writeUnderAFileThrowsAndLeavesNothing() throws {
        let folder = try TemporaryFolder("generate")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder.path("file")))
        #expect(throws: (any Error).self) {
            _ = try ExportGenerator(.init(users: 5)).write(toFile: folder.path("file/x.json"))
        }
        _ = try ExportGenerator(.init(users: 5)).write(toFile: folder.path("new/x.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["file", "new"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("new")) == ["x.json"])
    }

    @Test func sinkErrorsPropagate() {
        struct Stop: Error {}
        var calls = 0
        #expect(throws: Stop.self) {
            _ = try ExportGenerator(.init(users: 2_000)).write { _ in
                calls += 1
                if calls == 2 { throw Stop() }
            }
        }
        #expect(calls == 2)
    }

    // MARK: consistency

    @Test func consistentExportSatisfiesEveryRule() throws {
        let out = generate(.init(users: 300, seed: 1))
        #expect(out.defects.isEmpty)
        let objects = try StrictJSON.validate(out.bytes)
        #expect(objects > 1_000)
        #expect(String(validating: out.bytes, as: UTF8.self) != nil)
        #expect(out.bytes.starts(with: Array(#"{"followers":{"#.utf8)))

        let root = try parse(out.bytes)
        let found = violations(root)
        #expect(found.isEmpty, "\(found.sorted().prefix(10))")

        let users = try #require(object(root["users"]))
        #expect(users.count == 300)
        let posts = try #require(object(root["posts"]))
        let timeline = try #require(object(root["timeline"]))
        #expect(posts.count > 100)
        #expect(timeline.count > 200)

        // created_at spans about two years ending at the fixed date.
        var minMs = Int64.max
        var maxMs = Int64.min
        for (_, v) in posts {
            for (k, _) in object(v) ?? [:] {
                let ms = try #require(pushMillis(k))
                minMs = min(minMs, ms)
                maxMs = max(maxMs, ms)
            }
        }
        #expect(maxMs < endMillis && maxMs > endMillis - 60 * dayMillis)
        #expect(minMs >= endMillis - 731 * dayMillis && minMs < endMillis - 500 * dayMillis)
    }

    @Test(arguments: [0, 1, 2, 3])
    func tinyPopulationsStayValid(users: Int) throws {
        let out = generate(.init(users: users, seed: 9, defects: 25))
        _ = try StrictJSON.validate(out.bytes)
        let root = try parse(out.bytes)
        #expect(Set(root.keys) == ["users", "posts", "postLikes", "following", "followers", "timeline"])
        #expect(object(root["users"])?.count == users)
        let expected = Set(out.defects.map { Violation(kind: $0.kind, path: $0.paths[0]) })
        #expect(violations(root) == expected)
        if users == 0 {
            #expect(
                String(decoding: out.bytes, as: UTF8.self)
                    == #"{"followers":{},"following":{},"postLikes":{},"posts":{},"timeline":{},"users":{}}"#)
            #expect(out.defects.isEmpty)
        }
    }

    // MARK: defects

    @Test func defectsAreExactlyTheManifest() throws {
        let out = generate(.init(users: 500, seed: 1, defects: 20))
        #expect(out.defects.count == 20)
        let kinds = Dictionary(grouping: out.defects, by: \.kind).mapValues(\.count)
        #expect(Set(kinds.keys) == Set(ExportGenerator.defectKinds))
        #expect(kinds.values.allSatisfy { $0 == 2 })
        #expect(out.defects.allSatisfy { $0.paths.count == 1 })
        #expect(Set(out.defects.flatMap(\.paths)).count == 20)

        _ = try StrictJSON.validate(out.bytes)
        let root = try parse(out.bytes)
        let expected = Set(out.defects.map { Violation(kind: $0.kind, path: $0.paths[0]) })
        let found = violations(root)
        #expect(
            found == expected,
            "missing: \(expected.subtracting(found).sorted()) extra: \(found.subtracting(expected).sorted())")
    }

    @Test(arguments: [(2, 10), (3, 13), (4, 37), (11, 50)])
    func defectsMatchOracleAcrossSeeds(seed: UInt64, count: Int) throws {
        let out = generate(.init(users: 300, seed: seed, defects: count))
        #expect(out.defects.count == count)
        // Round-robin in the documented order.
        for (i, d) in out.defects.enumerated() {
            #expect(d.kind == ExportGenerator.defectKinds[i % ExportGenerator.defectKinds.count])
        }
        let root = try parse(out.bytes)
        let expected = Set(out.defects.map { Violation(kind: $0.kind, path: $0.paths[0]) })
        let found = violations(root)
        #expect(
            found == expected,
            "missing: \(expected.subtracting(found).sorted()) extra: \(found.subtracting(expected).sorted())")
    }

    @Test func defectKindsAreTheDocumentedTen() {
        #expect(
            ExportGenerator.defectKinds == [
                "like-count-mismatch", "like-count-negative", "poster-copy-stale", "like-unknown-user",
                "like-unknown-post", "follow-mirror-missing", "timeline-missing", "timeline-stale",
                "timeline-poster", "timeline-unknown-post",
            ])
    }

    // MARK: shape

    @Test func shapeAtTwoThousandUsers() throws {
        let out = generate(.init(users: 2_000, seed: 1))
        let root = try parse(out.bytes)
        let users = try #require(object(root["users"]))
        let posts = try #require(object(root["posts"]))
        let likes = try #require(object(root["postLikes"]))
        let following = try #require(object(root["following"]))
        let followers = try #require(object(root["followers"]))
        let timeline = try #require(object(root["timeline"]))
        let n = Double(users.count)

        let postCounts = users.keys.map { object(posts[$0])?.count ?? 0 }
        let postTotal = postCounts.reduce(0, +)
        let postsPerUser = Double(postTotal) / n
        #expect(postsPerUser > 3.5 && postsPerUser < 5.5, "posts/user \(postsPerUser)")
        let fewPosts = Double(postCounts.filter { $0 <= 2 }.count) / n
        #expect(fewPosts > 0.45 && fewPosts < 0.75, "0–2 posts: \(fewPosts)")
        #expect(postCounts.max()! >= 24, "some users post dozens")

        let follows = following.values.map { object($0)?.count ?? 0 }.reduce(0, +)
        let followsPerUser = Double(follows) / n
        #expect(followsPerUser > 6 && followsPerUser < 9.5, "follows/user \(followsPerUser)")
        let followerCounts = followers.values.map { object($0)?.count ?? 0 }
        #expect(followerCounts.reduce(0, +) == follows)
        let maxFollowers = Double(followerCounts.max()!)
        #expect(maxFollowers > 15 * followsPerUser, "max followers \(maxFollowers)")

        let likeTotal = likes.values.map { object($0)?.count ?? 0 }.reduce(0, +)
        let likesPerPost = Double(likeTotal) / Double(postTotal)
        #expect(likesPerPost > 4 && likesPerPost < 6, "likes/post \(likesPerPost)")
        var likesByUser: [String: Int] = [:]
        for v in likes.values { for u in (object(v) ?? [:]).keys { likesByUser[u, default: 0] += 1 } }
        let meanLikesGiven = Double(likeTotal) / n
        #expect(Double(likesByUser.values.max()!) > 8 * meanLikesGiven, "likers are skewed")

        let timelineEntries = timeline.values.map { object($0)?.count ?? 0 }.reduce(0, +)
        let perUser = Double(timelineEntries) / n
        #expect(perUser > 20 && perUser < 60, "timeline entries/user \(perUser)")

        // ~110 MB per 20,000 users.
        let bytesPerUser = Double(out.bytes.count) / n
        #expect(bytesPerUser > 4_000 && bytesPerUser < 7_000, "bytes/user \(bytesPerUser)")
    }

    @Test func captionsExerciseEscaping() throws {
        let out = generate(.init(users: 2_000, seed: 1))
        let root = try parse(out.bytes)
        var captions: [String] = []
        var total = 0
        for v in (object(root["posts"]) ?? [:]).values {
            for p in (object(v) ?? [:]).values {
                total += 1
                if let c = object(p)?["caption"] as? String { captions.append(c) }
            }
        }
        let share = Double(captions.count) / Double(total)
        #expect(share > 0.5 && share < 0.7, "caption share \(share)")
        func some(_ what: String, _ test: (String) -> Bool) {
            let found = captions.contains(where: test)
            #expect(found, "no caption with \(what)")
        }
        some("emphasis") { $0.contains("*") }
        some("a link") { $0.contains("](https://") }
        some("a <b> tag") { $0.contains("<b>") }
        some("an emoji") { $0.unicodeScalars.contains { $0.value >= 0x1F300 } }
        some("a quote") { $0.contains("\"") }
        some("a backslash") { $0.contains("\\") }
        some("a newline") { $0.contains("\n") }
        some("an ampersand") { $0.contains("&") }
        // Raw text: the specials are escaped, never literal.
        let text = String(decoding: out.bytes, as: UTF8.self)
        #expect(text.contains(#"\""#))
        #expect(text.contains(#"\\"#))
        #expect(text.contains(#"\n"#))
        #expect(!text.contains("\n"))
    }

    @Test func usernamesAndIdsHaveTheFirebaseShapes() throws {
        let out = generate(.init(users: 1_000, seed: 4))
        let root = try parse(out.bytes)
        let users = try #require(object(root["users"]))
        let names = users.values.compactMap { object($0)?["username"] as? String }
        #expect(names.count == 1_000)
        #expect(Set(names).count == 1_000)
        #expect(names.allSatisfy(isUsername))
        #expect(users.keys.allSatisfy(isUID))
        for v in (object(root["posts"]) ?? [:]).values {
            for (k, p) in object(v) ?? [:] {
                #expect(isPushID(k))
                let created = try #require(number(object(p)?["created_at"])?.doubleValue)
                // microsecond fraction, consistent with the key to the millisecond
                #expect(Int64((created * 1000).rounded(.down)) == pushMillis(k))
            }
        }
    }
}
