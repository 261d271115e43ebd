import Foundation
import Testing

/// `--out` holds the site alone: what a build keeps for the next (the manifest, the card store) is in the site's
/// cache, `.fanout-cache/NAME` beside the output or under `--cache-dir`, which a rebuild trusts only when it
/// describes the folder as it is (docs/site.md "Rebuilds, progress and timings"). A cache that is missing, another
/// output's, or copied from another project means a full build, which comes out as a clean build's.
@Suite struct SiteCacheTests {
    /// A generated export, and a copy of it in which one user is renamed: every page naming them changes.
    static func exports(_ cli: CLI) throws {
        #expect(try cli.run("generate", "--users", "30", "--seed", "11", "--out", "a.json").code == 0)
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("a.json"))) as! [String: Any]
        var users = root["users"] as! [String: [String: Any]]
        users[users.keys.sorted()[0]]!["username"] = "renamed_by_b"
        root["users"] = users
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("b.json"))
    }

    /// The pages a build rendered and carried over, from its summary line.
    static func counts(_ result: CLI.Result) throws -> (rendered: Int, carried: Int) {
        let match = try #require(result.stderr.firstMatch(of: /: ([0-9,]+) pages? rendered .*, ([0-9,]+) carried over/))
        return (Int(match.output.1.filter(\.isNumber))!, Int(match.output.2.filter(\.isNumber))!)
    }

    /// Builds `export` into `out` with `arguments`, expecting success.
    @discardableResult
    static func build(_ cli: CLI, _ export: String, _ out: String, _ arguments: [String] = []) throws -> CLI.Result {
        let result = try cli.run(["build", export, "--out", out, "--per-page", "4"] + arguments)
        #expect(result.code == 0, "\(result.stderr)")
        return result
    }

    @Test func theOutputHoldsOnlyThePagesAndAssetsTheBuildWrote() throws {
        let cli = try CLI()
        try Self.exports(cli)
        let times = cli.url("times.tsv").path
        let first = try cli.run(["build", "a.json", "--out", "site"], environment: ["FANOUT_PAGE_TIMES": times])
        #expect(first.code == 0, "\(first.stderr)")
        let pages = try String(contentsOfFile: times, encoding: .utf8).split(separator: "\n").map {
            String($0.split(separator: "\t")[1])
        }
        let files = cli.files(under: "site")
        #expect(files.count > 100 && Set(files) == Set(pages), "every file is a page or asset the build made")
        #expect(!files.contains { $0.split(separator: "/").contains { $0.hasPrefix(".") } }, "no hidden file")
        let cache = CLI.cache(of: "site")
        for kept in ["manifest", "output", "cards/index"] { #expect(cli.exists("\(cache)/\(kept)"), "\(kept)") }
        // The cache is what makes the rebuild incremental.
        let again = try cli.run("build", "a.json", "--out", "site")
        #expect(try Self.counts(again) == (0, files.count), "\(again.stderr)")
    }

    @Test func aMissingCacheMeansAFullBuildAndTheNextRebuildIsIncrementalAgain() throws {
        let cli = try CLI()
        try Self.exports(cli)
        let first = try Self.build(cli, "a.json", "site")
        try FileManager.default.removeItem(at: cli.url(".fanout-cache"))
        let full = try Self.build(cli, "b.json", "site")
        #expect(try Self.counts(full) == Self.counts(first), "every page rendered: \(full.stderr)")
        try Self.build(cli, "b.json", "clean")
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "clean").isEmpty)
        let again = try Self.build(cli, "b.json", "site")
        #expect(try Self.counts(again).rendered == 0, "\(again.stderr)")
    }

    /// Two outputs named alike share a cache under one `--cache-dir`: each build finds the other's cache, which
    /// describes another folder, and builds in full. Trusted, b's manifest would carry over every page of a's still
    /// in `x/site`, the renamed user's old name included.
    @Test func twoOutputsSharingACacheDirBuildInFullNeverWrong() throws {
        let cli = try CLI()
        try Self.exports(cli)
        let shared = ["--cache-dir", "caches"]
        let first = try Self.build(cli, "a.json", "x/site", shared)
        try Self.build(cli, "b.json", "y/site", shared)
        let rebuilt = try Self.build(cli, "b.json", "x/site", shared)
        #expect(try Self.counts(rebuilt) == Self.counts(first), "a full build: \(rebuilt.stderr)")
        try Self.build(cli, "b.json", "clean/site", ["--cache-dir", "cleancaches"])
        let differences = try IncrementalBuildPropertyTests.differences(
            cli, "x/site", "clean/site", caches: ("caches/site", "cleancaches/site"))
        #expect(differences.isEmpty, "\(differences.prefix(5))")
        #expect(!cli.exists("x/.fanout-cache") && !cli.exists("clean/.fanout-cache"), "nothing kept beside --out")
        // The cache now describes x/site: its next rebuild is incremental.
        #expect(try Self.counts(Self.build(cli, "b.json", "x/site", shared)).rendered == 0)
    }

    /// A cache copied from another project, where the same export was built, describes that project's folder: this
    /// project's site (built from another export) is built in full, not carried over on its word.
    @Test func aCacheCopiedFromAnotherProjectMeansAFullBuild() throws {
        let cli = try CLI()
        try Self.exports(cli)
        let first = try Self.build(cli, "a.json", "one/_site")
        try Self.build(cli, "b.json", "two/_site")
        try FileManager.default.removeItem(at: cli.url("two/.fanout-cache"))
        try FileManager.default.copyItem(at: cli.url("one/.fanout-cache"), to: cli.url("two/.fanout-cache"))
        let rebuilt = try Self.build(cli, "a.json", "two/_site")
        #expect(try Self.counts(rebuilt) == Self.counts(first), "a full build: \(rebuilt.stderr)")
        #expect(try IncrementalBuildPropertyTests.differences(cli, "two/_site", "one/_site").isEmpty)
    }

    /// An earlier Fanout kept its manifest and cards inside the folder, and marked it there: the next build takes
    /// that folder as its own, builds it in full (its cache is missing) and leaves none of it; so does a rebuild
    /// that finds them in a folder its cache describes.
    @Test func anEarlierFanoutsStateInsideTheOutputIsRemoved() throws {
        let cli = try CLI()
        try Self.exports(cli)
        let old = [".fanout-manifest", ".fanout-manifest-changing", ".fanout-cards/index", ".fanout-cards/pack-1"]
        try Self.build(cli, "a.json", "site")
        try FileManager.default.removeItem(at: cli.url(".fanout-cache"))
        try FileManager.default.removeItem(at: cli.url(".site.fanout-output"))
        for file in old + [".fanout-output"] { try cli.write("kept by an earlier Fanout\n", to: "site/\(file)") }
        let first = try Self.build(cli, "a.json", "site")
        try Self.build(cli, "a.json", "clean")
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "clean").isEmpty)
        for file in old { try cli.write("kept by an earlier Fanout\n", to: "site/\(file)") }
        let rebuilt = try Self.build(cli, "a.json", "site")
        #expect(try Self.counts(rebuilt) == (0, Self.counts(first).rendered), "\(rebuilt.stderr)")
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "clean").isEmpty)
    }

    /// `cache_dir` in fanout.toml, relative to the file's folder, puts the cache there; `--cache-dir` overrides it.
    @Test func aProjectNamesItsCacheDir() throws {
        let cli = try CLI()
        try Self.exports(cli)
        try cli.write(
            "export = \"../a.json\"\nout = \"public\"\ncache_dir = \"../caches\"\n", to: "project/fanout.toml")
        #expect(try cli.run(["build"], in: "project").code == 0)
        #expect(cli.exists("caches/public/manifest") && !cli.exists("project/.fanout-cache"))
        #expect(try cli.run(["build", "--cache-dir", "elsewhere"], in: "project").code == 0)
        #expect(cli.exists("project/elsewhere/public/manifest"))
    }

    /// A cache inside the site would be published with it and deleted by a full build; a cache folder holding
    /// files Fanout did not make is someone's. Both are refused before anything is written (exit 2).
    @Test func aCacheInsideTheSiteOrInAForeignFolderIsRefused() throws {
        let cli = try CLI()
        try Self.exports(cli)
        let inside = try cli.run("build", "a.json", "--out", "site", "--cache-dir", "site/cache")
        #expect(inside.code == 2, "\(inside.stderr)")
        #expect(
            inside.stderr.contains("Error: the site's cache, site/cache/site, is inside the site's folder, site"),
            "\(inside.stderr)")
        try cli.write("my notes\n", to: "notes/site/todo.txt")
        let foreign = try cli.run("build", "a.json", "--out", "site", "--cache-dir", "notes")
        #expect(foreign.code == 2, "\(foreign.stderr)")
        #expect(
            foreign.stderr.contains("notes/site: refusing to use this folder as the site's cache"), "\(foreign.stderr)")
        #expect(cli.files(under: ".").sorted() == ["a.json", "b.json", "notes/site/todo.txt"], "nothing written")
    }
}
