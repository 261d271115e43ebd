import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// No two users or posts share a page (docs/site.md "File names"): keys whose names collided under the old 48-bit
/// hash get their own pages in `build` and the same pages in `serve`, and a hashed name two keys got is an error
/// naming both.
@Suite struct FileNameIndexTests {
    @Test func keysThatSharedAnOldNameEachGetTheirOwnPages() throws {
        let colliding = OldFileNames.collisions[0]
        #expect(
            OldFileNames.name(colliding[0]) == OldFileNames.name(colliding[1]), "the premise: one old name for both")
        var site = DatasetBuilder(schema: Schema(name: "test"))
        // A third user first, so that neither colliding key is the first item by accident of order.
        for (n, key) in (["Someone Else"] + colliding).enumerated() {
            site.user(key, "user \(n)")
            // Each user's post has the user's key as its own: post file names collided the same way.
            site.post(key, by: key, at: Double(n), caption: "caption of \(key)")
        }
        let dataset = site.dataset
        let options = SiteOptions(exportName: "test.json", perPage: 10)
        let builder = SiteBuilder(
            dataset: dataset, derived: DerivedData(dataset),
            audit: AuditResult(findings: [], rulesRun: [], skipped: []),
            options: options, templates: try TemplateSet())
        let folder = try TemporaryFolder("collide")
        // Into a folder of its own, so that its cache and marker beside it are in the temporary folder too.
        try builder.build(into: folder.path("site"))
        let served = try SitePages(
            dataset: builder.dataset, derived: builder.derived, audit: builder.audit, options: options,
            templates: builder.templates, byPath: true)

        #expect(SafeFileName.forKey(colliding[0]) != SafeFileName.forKey(colliding[1]))
        for (n, key) in colliding.enumerated() {
            let name = SafeFileName.forKey(key)
            let other = colliding[1 - n]
            let timeline = try String(contentsOfFile: folder.path("site/users/\(name)/index.html"), encoding: .utf8)
            #expect(try served.render(path: "users/\(name)/index.html") == timeline)
            #expect(timeline.contains("<title>user \(n + 1)’s timeline"), "the timeline is its own user's")
            // The profile and the post page show the key's own post, not the other's.
            for path in ["users/\(name)/profile.html", "posts/\(name).html"] {
                let built = try String(contentsOfFile: folder.path("site/" + path), encoding: .utf8)
                #expect(try served.render(path: path) == built, "\(path)")
                #expect(built.contains("caption of \(key)"), "\(path) shows its own post")
                #expect(!built.contains("caption of \(other)"), "\(path) does not show the other key's post")
            }
        }
        // The old name is no page, nor a name of the right shape that is no key's.
        #expect(try served.render(path: "users/\(OldFileNames.name(colliding[0]))/index.html") == nil)
        #expect(try served.render(path: "users/~56ictim/index.html") == nil)
        #expect(try served.render(path: "users/~76ictim/index.html") == nil, "an escape of a plain byte")
    }

    /// A key too long to escape gets a hashed name, which `serve` finds through the table of hashed names.
    @Test func hashedNamesAreServed() throws {
        let long = String(repeating: "Long", count: 40)
        var site = DatasetBuilder(schema: Schema(name: "test"))
        site.user(long, "long one")
        site.user("short", "short one")
        let options = SiteOptions(exportName: "test.json", perPage: 10)
        let dataset = site.dataset
        let served = try SitePages(
            dataset: dataset, derived: DerivedData(dataset),
            audit: AuditResult(findings: [], rulesRun: [], skipped: []),
            options: options, templates: try TemplateSet(), byPath: true)
        let name = SafeFileName.forKey(long)
        #expect(name.contains("~~"))
        #expect(try served.render(path: "users/\(name)/index.html")?.contains("long one") == true)
        #expect(try served.render(path: "users/\(name.dropLast())0/index.html") == nil)
    }

    /// Two keys with one hashed name (a SHA-256 collision, forced here by a digest that gives every key the same
    /// bytes) are an error naming both keys.
    @Test func aHashedNameTwoKeysGotIsAnErrorNamingBoth() throws {
        let keys = [String(repeating: "A", count: 50), String(repeating: "A", count: 49) + "B", "short"]
        var site = DatasetBuilder(schema: Schema(name: "test"))
        for key in keys { site.user(key) }
        let dataset = site.dataset
        let constant: (UnsafeRawBufferPointer) -> [UInt8] = { _ in [UInt8](repeating: 7, count: 32) }
        let hashedName = String(repeating: "a", count: 40) + "~~" + String(repeating: "07", count: 16)
        #expect(
            throws: RenderError.sameFileName(name: hashedName, kind: "users", first: keys[0], second: keys[1])
        ) {
            try FileNameIndex(Array(dataset.users.indices), dataset: dataset, kind: "users", digest: constant) {
                dataset.users[$0].key
            }
        }
        let message = RenderError.sameFileName(name: hashedName, kind: "users", first: keys[0], second: keys[1])
            .description
        #expect(message.contains(keys[0]) && message.contains(keys[1]) && message.contains(hashedName), "\(message)")
        // With SHA-256 the two keys' names differ.
        #expect(throws: Never.self) {
            try FileNameIndex(Array(dataset.users.indices), dataset: dataset, kind: "users") { dataset.users[$0].key }
        }
    }
}
