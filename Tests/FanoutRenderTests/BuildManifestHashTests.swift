import Testing

@testable import FanoutRender

/// The page hash decides which files an incremental build rewrites, so any change to a page must change it.
@Suite struct BuildManifestHashTests {
    private func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { BuildManifest.hash($0) }
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
}
