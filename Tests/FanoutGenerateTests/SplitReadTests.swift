import FanoutCore
import FanoutGenerate
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutImport

/// Large exports are read by two walkers at once (`SplitRead`); whatever the split point, the dataset and
/// any error must be exactly those of one walker reading the whole file.
@Suite("Split read")
struct SplitReadTests {
    private static let export = generate(.init(users: 120, seed: 11, defects: 20)).bytes

    /// Split points spread over the whole file, so every top-level section gets split somewhere.
    private static func targets(_ count: Int) -> [Int] { (1..<16).map { count * $0 / 16 } }

    @Test func everySplitPointGivesTheSameDatasetAsOneWalker() throws {
        let bytes = ExportBytes(bytes: Self.export, source: "split.json")
        let whole = try ExportLoader.load(
            bytes, schema: Presets.makestagram, foreignKeys: [:], progress: nil, splitTarget: .some(nil))
        var splits = 0
        for target in Self.targets(Self.export.count) {
            let halves = try ExportLoader.load(
                bytes, schema: Presets.makestagram, foreignKeys: [:], progress: nil, splitTarget: target)
            expectSame(halves, whole, "split near \(target)")
            if try didSplit(bytes, target: target) { splits += 1 }
        }
        // All but split points past the last splittable member (a handful of small sections at the end).
        #expect(splits >= 12)
    }

    /// The walkers hand out tickets for keys and resolve them in batches (`KeyQueue`); read with one walker or
    /// two, every fact must name the keys the file has there, as an independent parser finds them.
    @Test func factsNameTheKeysAnotherParserFinds() throws {
        let bytes = ExportBytes(bytes: Self.export, source: "split.json")
        let json = try JSONSerialization.jsonObject(with: Data(Self.export)) as! [String: Any]
        func pairs(_ section: String) -> [String] {
            (json[section] as? [String: Any] ?? [:]).flatMap { outer, inner in
                (inner as? [String: Any] ?? [:]).compactMap { key, value in
                    (value is NSNull || (value as? Bool) == false) ? nil : "\(outer) \(key)"
                }
            }.sorted()
        }
        let likes = pairs("postLikes"), timeline = pairs("timeline"), followers = pairs("followers")
        #expect(likes.count > 100 && timeline.count > 100 && followers.count > 100)
        for target in [Int?.none, Self.export.count / 2, Self.export.count * 3 / 4] {
            let read = try ExportLoader.load(
                bytes, schema: Presets.makestagram, foreignKeys: [:], progress: nil, splitTarget: .some(target))
            #expect(read.likes.map { "\(read.key($0.post)) \(read.key($0.user))" }.sorted() == likes)
            #expect(read.timeline.map { "\(read.key($0.user)) \(read.key($0.post))" }.sorted() == timeline)
            #expect(read.followers.map { "\(read.key($0.target)) \(read.key($0.user))" }.sorted() == followers)
        }
    }

    @Test func theFriendlyPixExportReadsTheSameWhenSplit() throws {
        let url = repositoryFile("Tests/Fixtures/friendlypix-initial_db.json")
        let data = try ExportBytes(path: url.path)
        let schema = Presets.named("friendlypix")!
        let whole = try ExportLoader.load(
            data, schema: schema, foreignKeys: [:], progress: nil, splitTarget: .some(nil))
        for target in Self.targets(data.buffer.count) {
            let halves = try ExportLoader.load(
                data, schema: schema, foreignKeys: [:], progress: nil, splitTarget: target)
            expectSame(halves, whole, "split near \(target)")
        }
    }

    @Test func errorsAreTheOnesOneWalkerReports() throws {
        var broken = Self.export
        for damage in [broken.count / 5, broken.count / 2, broken.count * 4 / 5] {
            broken = Self.export
            // An unquoted key somewhere: before the split, at it, or after it.
            let at = broken[damage...].firstIndex(of: UInt8(ascii: "\""))!
            broken[at] = UInt8(ascii: "x")
            let bytes = ExportBytes(bytes: broken, source: "broken.json")
            let expected = loadError(bytes, splitTarget: .some(nil))
            #expect(expected != nil)
            for target in Self.targets(broken.count) {
                #expect(loadError(bytes, splitTarget: target) == expected, "damage at \(at), split near \(target)")
            }
        }
    }

    @Test func truncatedExportsFailTheSameWay() throws {
        let cut = Array(Self.export.prefix(Self.export.count * 3 / 4))
        let bytes = ExportBytes(bytes: cut, source: "cut.json")
        let expected = loadError(bytes, splitTarget: .some(nil))
        #expect(expected != nil)
        for target in Self.targets(cut.count) {
            #expect(loadError(bytes, splitTarget: target) == expected)
        }
    }

    // MARK: helpers

    /// Whether the first walker really stopped at a split point near `target` (so the test is not vacuous).
    private func didSplit(_ bytes: ExportBytes, target: Int) throws -> Bool {
        var first = try TreeWalker(schema: Presets.makestagram)
        let second = try TreeWalker(schema: Presets.makestagram)
        try SplitRead.run(&first, second: second, buffer: bytes.buffer, target: target, waitForSecondWalker: true)
        return first.stoppedAtSplit
    }

    private func loadError(_ bytes: ExportBytes, splitTarget: Int??) -> InputError? {
        do {
            _ = try ExportLoader.load(
                bytes, schema: Presets.makestagram, foreignKeys: [:], progress: nil, splitTarget: splitTarget)
            return nil
        } catch {
            return error
        }
    }

    private func expectSame(_ a: Dataset, _ b: Dataset, _ note: String) {
        #expect(a.keys.count == b.keys.count, "\(note)")
        let keysMatch = (0..<min(a.keys.count, b.keys.count)).allSatisfy {
            a.keys.string(KeyID($0)) == b.keys.string(KeyID($0))
        }
        #expect(keysMatch, "\(note)")
        #expect(a.users == b.users ? true : false, "users differ, \(note)")
        #expect(a.posts == b.posts ? true : false, "posts differ, \(note)")
        #expect(a.likes == b.likes ? true : false, "likes differ, \(note)")
        #expect(a.likeMirror == b.likeMirror ? true : false, "likeMirror differ, \(note)")
        #expect(a.following == b.following ? true : false, "following differ, \(note)")
        #expect(a.followers == b.followers ? true : false, "followers differ, \(note)")
        #expect(a.timeline == b.timeline ? true : false, "timeline differ, \(note)")
        #expect(a.postMirror == b.postMirror ? true : false, "postMirror differ, \(note)")
        #expect(a.flags == b.flags ? true : false, "flags differ, \(note)")
        #expect(a.fieldProblems == b.fieldProblems ? true : false, "fieldProblems differ, \(note)")
    }
}
