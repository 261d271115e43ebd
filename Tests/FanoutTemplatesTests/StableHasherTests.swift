import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// Content hashes decide which files a rebuild rewrites, and input keys which pages it renders, so any change
/// to a page, or to what goes into its key, must change the hash.
@Suite struct StableHasherTests {
    private func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { StableHasher.hash($0) }
    }

    @Test func everyOneByteChangeChangesTheHash() {
        // 67 bytes: four full 16-byte steps and a 3-byte tail, so both paths are covered.
        let page = Array("<article class=\"post\" data-post=\"-Kpost\">liked by alice</article>\n".utf8)
        let original = hash(page)
        var seen: Set<UInt64> = [original]
        for i in page.indices {
            for replacement: UInt8 in [page[i] ^ 1, page[i] ^ 0x80, 0] where replacement != page[i] {
                var changed = page
                changed[i] = replacement
                #expect(seen.insert(hash(changed)).inserted, "byte \(i) → \(replacement) collides")
            }
        }
    }

    @Test func lengthMatters() {
        var seen: Set<UInt64> = []
        for n in 0...40 {
            #expect(seen.insert(hash([UInt8](repeating: 0, count: n))).inserted, "\(n) zero bytes collide")
        }
    }

    @Test func equalBytesHashEqually() {
        let text = String(repeating: "timeline ", count: 1000)
        #expect(hash(Array(text.utf8)) == hash(Array(text.utf8)))
    }

    /// The same values in another order or split otherwise make another key.
    @Test func streamingKeepsOrderAndBoundaries() {
        func key(_ parts: [String]) -> UInt64 {
            var hasher = StableHasher()
            for part in parts { hasher.combine(part) }
            return hasher.finalize()
        }
        let keys = [key(["ab"]), key(["a", "b"]), key(["b", "a"]), key(["a", "b", ""]), key([])]
        #expect(Set(keys).count == keys.count)
        #expect(key(["a", "b"]) == key(["a", "b"]))
    }

    /// Template values: each kind has its own tag, dictionaries hash the same whatever their order of insertion,
    /// and an absent value is not an empty one.
    @Test func templateValues() {
        func key(_ value: Any) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(templateValue: value)
            return hasher.finalize()
        }
        var forward: [String: Any] = [:]
        var backward: [String: Any] = [:]
        for i in 0..<50 { forward["k\(i)"] = i }
        for i in (0..<50).reversed() { backward["k\(i)"] = i }
        #expect(key(forward) == key(backward))
        let distinct: [Any] = [
            1, "1", true, 1.0, [1], ["1"], ["a": 1], ["a": "1"], [[String: Any]](), [String: Any](),
            "", Optional<String>.none as Any, ["a", "b"], ["ab"],
        ]
        #expect(Set(distinct.map(key)).count == distinct.count)
    }

    /// The hand-written keys of cards and feeds feed every stored property: one added to the type without a place
    /// in the key would let a rebuild carry over a page showing the old value.
    @Test func handWrittenKeysCoverEveryProperty() {
        let card = PostCard(root: "", key: "k", posterName: "p", likeCount: 0, likeCountText: "", displayTime: "")
        #expect(Mirror(reflecting: card).children.count == PostCard.hashedProperties)
        let entry = AtomFeed.Entry(key: "k", path: "p", time: nil, author: "a", caption: nil)
        let feed = AtomFeed(uid: "u", folder: "f", title: "t", author: "a", entries: [entry], baseURL: nil)
        #expect(Mirror(reflecting: feed).children.count == AtomFeed.hashedProperties.feed)
        #expect(Mirror(reflecting: entry).children.count == AtomFeed.hashedProperties.entry)
    }
}

/// The manifest a rebuild reads is the one the previous build wrote, in either format.
@Suite struct BuildManifestTests {
    @Test func roundTrip() {
        let files: [(path: String, entry: BuildManifest.Entry)] = [
            ("users/b/index.html", .init(inputKey: 0xFFFF_0000_1234_5678, contentHash: 1)),
            ("index.html", .init(inputKey: 0, contentHash: 0xABCD)),
            ("Content with space.html", .init(inputKey: 7, contentHash: 8)),
        ]
        let manifest = BuildManifest(text: BuildManifest.text(files))
        #expect(manifest.count == 3)
        for file in files {
            let slot = manifest.slot(of: file.path)
            #expect(slot.map { manifest.entries[$0] } == file.entry, "\(file.path)")
        }
        #expect(
            BuildManifest.text(files).hasPrefix(
                "fanout-manifest 2\n0000000000000007 0000000000000008 Content with space.html\n"))
    }

    /// A manifest of a Fanout before input keys gives content hashes and no keys; damaged lines are left out.
    @Test func readsTheFormatBeforeInputKeysAndSkipsDamage() {
        let manifest = BuildManifest(text: "00000000000000ff index.html\nnot a line\n000000000000000g bad.html\n")
        #expect(manifest.count == 1)
        #expect(manifest.slot(of: "index.html").map { manifest.entries[$0] } == .init(inputKey: nil, contentHash: 0xFF))
        let keyed = BuildManifest(
            text: "fanout-manifest 2\n0000000000000001 00000000000000ff a.html\n0000000000000001 a.html\n")
        #expect(keyed.count == 1)
    }

    /// Paths are looked up by their bytes in a table of hashes: every one of many is found where it is, with its
    /// entry, whatever its bytes; any other path is not; the first of two lines of one path counts.
    @Test func findsEveryPathOfALargeManifest() {
        // Typed step by step: as one tuple expression it took the type checker 5.5 s.
        let files: [(path: String, entry: BuildManifest.Entry)] = (0..<5000).map { (i: Int) in
            let path: String = i % 7 == 0 ? "users/é\(i)/page-\(i % 13).html" : "posts/-N\(i)x.html"
            let key: UInt64 = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
            return (path: path, entry: BuildManifest.Entry(inputKey: key, contentHash: UInt64(i)))
        }
        let text = BuildManifest.text(files)
        let manifest = BuildManifest(text: text + "0000000000000000 0000000000000001 posts/-N1x.html\n")
        #expect(manifest.count == files.count)
        #expect(manifest.isSorted, "the repeated line is left out")
        let reversed = BuildManifest(text: BuildManifest.text(Array(files.reversed()), sorted: true))
        #expect(!reversed.isSorted && reversed.count == files.count)
        for file in files {
            let slot = manifest.slot(of: file.path)
            #expect(slot.map { manifest.entries[$0] } == file.entry, "\(file.path)")
            #expect(slot.map(manifest.path) == file.path)
        }
        for absent in ["posts/-N1x.htm", "posts/-N1x.html/", "", "users/é7/page-7.html ", "index.html"] {
            #expect(manifest.slot(of: absent) == nil, "\(absent)")
        }
    }

    /// The files a rebuild was changing when it stopped (``SiteOutput/changingName``) are unknown to the next: not
    /// carried over, rendered again, and deleted when no page has them any more, also those the manifest lacks.
    @Test func filesARebuildWasChangingAreUnknown() {
        let text = BuildManifest.text([
            ("a.html", .init(inputKey: 1, contentHash: 2)), ("b.html", .init(inputKey: 3, contentHash: 4)),
        ])
        let manifest = BuildManifest(bytes: Array(text.utf8), changing: ["b.html", "posts/new.html"])
        #expect(manifest.count == 3)
        #expect(manifest.slot(of: "a.html").map { manifest.entries[$0] } == .init(inputKey: 1, contentHash: 2))
        #expect(manifest.slot(of: "b.html").map { manifest.entries[$0] } == .unknown)
        #expect(manifest.slot(of: "posts/new.html").map { manifest.entries[$0] } == .unknown)
        #expect(manifest.path(2) == "posts/new.html")
    }
}
