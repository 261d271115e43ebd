import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutRender

/// `serve` finds the user or post a hashed file name stands for by the name's hash number alone
/// (``FileNameIndex``), so two keys whose names carry the same number must still each get their own pages.
@Suite struct FileNameIndexTests {
    /// Two keys whose 48-bit name hashes are equal (found by a birthday search over 2^28 keys of this shape);
    /// their slugs differ, so `build` writes them to different files.
    static let colliding = ["Uid0253cccb", "Uid08ebbe22"]

    @Test func keysWhoseNamesShareAHashEachGetTheirOwnPages() throws {
        let hashes = Self.colliding.map { SafeFileName.forKey($0).split(separator: "~").last.map(String.init) }
        #expect(hashes[0] != nil && hashes[0] == hashes[1], "the premise: both names carry the same hash")

        var site = DatasetBuilder(schema: Schema(name: "test"))
        // A third user first, so that neither colliding key is the index's first item by accident of order.
        for (n, key) in (["Someone Else"] + Self.colliding).enumerated() {
            site.user(key, "user \(n)")
            // Each user's post has the user's key as its own: post file names collide the same way.
            site.post(key, by: key, at: Double(n), caption: "caption of \(key)")
        }
        let dataset = site.dataset
        let options = SiteOptions(exportName: "test.json", perPage: 10)
        let builder = SiteBuilder(
            dataset: dataset, derived: DerivedData(dataset),
            audit: AuditResult(findings: [], rulesRun: [], skipped: []),
            options: options, templates: try TemplateSet())
        let folder = try TemporaryFolder("collide")
        try builder.build(into: folder.path)
        let served = try SitePages(
            dataset: builder.dataset, derived: builder.derived, audit: builder.audit, options: options,
            templates: builder.templates, byPath: true)

        for (n, key) in Self.colliding.enumerated() {
            let name = SafeFileName.forKey(key)
            let other = Self.colliding[1 - n]
            let timeline = try String(contentsOfFile: folder.path("users/\(name)/index.html"), encoding: .utf8)
            #expect(try served.render(path: "users/\(name)/index.html") == timeline)
            #expect(timeline.contains("user \(n + 1)’s timeline"), "the timeline is its own user's")
            // The profile and the post page show the key's own post, not the other's.
            for path in ["users/\(name)/profile.html", "posts/\(name).html"] {
                let built = try String(contentsOfFile: folder.path(path), encoding: .utf8)
                #expect(try served.render(path: path) == built, "\(path)")
                #expect(built.contains("caption of \(key)"), "\(path) shows its own post")
                #expect(!built.contains("caption of \(other)"), "\(path) does not show the other key's post")
            }
        }
        // A name with the shared hash but a slug of neither key is no page.
        #expect(try served.render(path: "users/uid00000000~\(hashes[0]!)/index.html") == nil)
    }
}
