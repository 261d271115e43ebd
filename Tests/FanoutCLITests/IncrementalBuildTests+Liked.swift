import Foundation
import Testing

extension IncrementalBuildTests {
    /// A user's liked pages (docs/site.md) are written again when their likes change (all of them: each says how
    /// many) or a post on them changes, and not when anything else changes; after each edit the folder equals a
    /// clean build's, byte for byte.
    @Test func likedPagesFollowTheLikesAndThePostsOnThem() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "60", "--seed", "3", "--out", "export.json").code == 0)
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        let arguments = ["--per-page", "3"]
        #expect(try cli.run(["build", "export.json", "--out", "site"] + arguments).code == 0)

        /// Applies `patch`, rebuilds incrementally, checks the folder against a clean build, and returns the files
        /// written.
        func rebuild(_ edit: String, _ patch: [String: Any]) throws -> Set<String> {
            root = FirebasePatch.apply(patch, to: root)
            try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: cli.url("export.json"))
            return written(try rebuildAndCompare(cli, after: edit, arguments))
        }
        func isLiked(_ file: String) -> Bool {
            (file as NSString).lastPathComponent.wholeMatch(of: /liked(-[0-9]+)?\.(html|md)/) != nil
        }
        /// The liked pages showing `post`, and their Markdown twins.
        func likedPages(showing post: String) throws -> Set<String> {
            var pages = Set<String>()
            for file in cli.files(under: "site") where isLiked(file) && file.hasSuffix(".html") {
                if try EndToEndTests.dataPosts(cli.read("site/\(file)")).contains(post) {
                    pages.formUnion([file, String(file.dropLast("html".count)) + "md"])
                }
            }
            return pages
        }

        let likes = root["postLikes"] as! [String: [String: Bool]]
        let posts = root["posts"] as! [String: [String: Any]]
        let users = (root["users"] as! [String: Any]).keys.sorted()

        // A post two users liked, recaptioned: the liked pages showing it, and no others.
        let (post, _) = try #require(likes.sorted { $0.key < $1.key }.first { $0.value.count >= 2 })
        let poster = try #require(posts.first { $0.value[post] != nil }?.key)
        let showing = try likedPages(showing: post)
        #expect(showing.count >= 4, "the premise: two likers' pages and their twins show it")
        let recaptioned = try rebuild(
            "a liked post recaptioned", ["posts/\(poster)/\(post)/caption": "recaptioned *now*"])
        #expect(recaptioned.filter(isLiked) == showing, "\(recaptioned.filter(isLiked).symmetricDifference(showing))")

        // A like added: every liked page of the liker, and the others showing the post, whose card counts it.
        let liker = try #require(users.first { likes[post]?[$0] == nil })
        let folder = try #require(
            TimelinePages(cli, site: "site").files[liker]?.first.map { ($0 as NSString).deletingLastPathComponent })
        let liked = try rebuild("a like added", ["postLikes/\(post)/\(liker)": true])
        let likersPages = Set(cli.files(under: "site").filter { $0.hasPrefix(folder + "/") && isLiked($0) })
        #expect(!likersPages.isDisjoint(with: try likedPages(showing: post)), "the liker's pages show the post")
        #expect(liked.filter(isLiked) == likersPages.union(try likedPages(showing: post)), "\(liked.filter(isLiked))")

        // A follow added: timelines change, no liked page does.
        let following = root["following"] as? [String: [String: Any]] ?? [:]
        let pairs: [(String, String)] = users.flatMap { (u: String) in users.map { (t: String) in (u, t) } }
        let (user, target) = try #require(pairs.first { u, t in u != t && following[u]?[t] == nil })
        let followed = try rebuild(
            "a follow added", ["following/\(user)/\(target)": true, "followers/\(target)/\(user)": true])
        #expect(!followed.isEmpty && followed.filter(isLiked).isEmpty, "\(followed.filter(isLiked))")
    }
}
