import FanoutCore
import FanoutJSON
import FanoutTestSupport
import Testing

/// Each rule: a minimal dataset that triggers it, checked for rule, paths, values and fix, and the same
/// dataset made consistent, which must not.
@Suite struct RuleTests {
    /// A consistent world: alice and bob follow each other, each has a post, bob likes alice's post.
    func consistent() -> DatasetBuilder { RuleTrigger.consistent() }

    @Test func consistentDatasetHasNoFindings() {
        let result = consistent().audit()
        #expect(result.findings.isEmpty, "\(result.findings)")
        // Only rules whose relations the Makestagram layout lacks (a like mirror, flags) are skipped.
        #expect(result.skipped.allSatisfy { $0.reason.hasPrefix("the schema has no") }, "\(result.skipped)")
        #expect(result.skipped.contains { $0.rule == "like-mirror-missing" })
    }

    @Test func likeCountMismatchReportsSignedDeltaAndFix() throws {
        var b = consistent()
        b.dataset.posts[0].storedLikeCount = 3
        let f = try #require(b.findings("like-count-mismatch").first)
        #expect(f.paths == ["posts/alice/pa/like_count"])
        #expect(f.expected == 1 && f.actual == 3)
        #expect(f.message.contains("(+2)"))
        #expect(f.fix == [PatchEntry("posts/alice/pa/like_count", 1)])
        #expect(f.severity == .error)
        b.dataset.posts[0].storedLikeCount = 0
        #expect(b.findings("like-count-mismatch").first?.message.contains("(-1)") == true)
    }

    @Test func likeCountNegative() throws {
        var b = consistent()
        b.dataset.posts[1].storedLikeCount = -1
        let f = try #require(b.findings("like-count-negative").first)
        #expect(f.paths == ["posts/bob/pb/like_count"] && f.expected == 0 && f.actual == -1)
        #expect(b.findings("like-count-mismatch").isEmpty)
    }

    @Test func likeUnknownUserAndPost() throws {
        var b = consistent()
        b.like("pa", by: "ghost")
        b.like("gone", by: "alice")
        let user = try #require(b.findings("like-unknown-user").first)
        #expect(user.paths == ["postLikes/pa/ghost"] && user.fix == [PatchEntry("postLikes/pa/ghost", .null)])
        let post = try #require(b.findings("like-unknown-post").first)
        #expect(post.paths == ["postLikes/gone/alice"] && post.fix == [PatchEntry("postLikes/gone/alice", .null)])
        #expect(b.findings("like-count-mismatch").isEmpty, "a like by a ghost is not counted")
    }

    @Test func posterCopyStaleAndUID() throws {
        var b = consistent()
        b.dataset.users[0].username = "alice2"
        let stale = try #require(b.findings("poster-copy-stale").first)
        #expect(stale.paths.first == "posts/alice/pa/poster/username")
        #expect(stale.expected == "alice2" && stale.actual == "alice")
        #expect(stale.severity == .warning)
        b = consistent()
        b.dataset.posts[1].posterCopyUID = b.id("alice")
        let uid = try #require(b.findings("poster-copy-uid").first)
        #expect(uid.paths == ["posts/bob/pb/poster/uid"] && uid.expected == "bob" && uid.actual == "alice")
    }

    @Test func followMirrorMissingBothWays() {
        var b = consistent()
        b.user("carol")
        b.follow("carol", "alice", following: true, followers: false)
        b.follow("bob", "carol", following: false, followers: true)
        b.fanOutTimelines()
        let findings = b.findings("follow-mirror-missing")
        #expect(findings.count == 2)
        let missingMirror = findings.first { $0.paths.first == "followers/alice/carol" }
        #expect(missingMirror?.fix == [PatchEntry("followers/alice/carol", true)])
        let orphan = findings.first { $0.paths.first == "following/bob/carol" }
        #expect(orphan?.fix == [PatchEntry("followers/carol/bob", .null)])
    }

    @Test func followUnknownUserAndSelf() {
        var b = consistent()
        b.follow("alice", "ghost")
        b.follow("bob", "bob")
        #expect(b.findings("follow-unknown-user").map(\.paths) == [["following/alice/ghost", "followers/ghost/alice"]])
        #expect(b.findings("follow-self").map(\.paths) == [["following/bob/bob", "followers/bob/bob"]])
    }

    /// Messages agree in number with what they count: "1 user likes it", "ghost and ghoul do not exist".
    @Test func messagesAgreeInNumber() throws {
        var b = consistent()
        b.dataset.posts[0].storedLikeCount = 3
        b.follow("alice", "ghost")
        b.follow("ghoul", "ghost")
        let likes = try #require(b.findings("like-count-mismatch").first).message
        #expect(likes.hasSuffix("stores like_count 3 but 1 user likes it (+2)"), "\(likes)")
        b.like("pa", by: "carol")
        b.dataset.posts[0].storedLikeCount = 5
        #expect(
            b.findings("like-count-mismatch").first?.message.contains("but 1 user likes it") == true, "carol is unknown"
        )
        let follows = b.findings("follow-unknown-user").map(\.message)
        #expect(follows.contains { $0.hasSuffix("but ghost does not exist") }, "\(follows)")
        #expect(follows.contains { $0.hasSuffix("but ghoul and ghost do not exist") }, "\(follows)")
    }

    @Test func timelineMissing() throws {
        var b = consistent()
        let (alice, pb) = (b.id("alice"), b.id("pb"))
        b.dataset.timeline.removeAll { $0.user == alice && $0.post == pb }
        let f = try #require(b.findings("timeline-missing").first)
        #expect(f.paths == ["timeline/alice/pb"])
        #expect(f.fix == [PatchEntry("timeline/alice/pb", ["poster_uid": "bob"])])
        #expect(b.findings("timeline-missing").count == 1)
    }

    @Test func aDuplicatedUserKeyIsReportedOnce() {
        var b = consistent()
        let alice = b.id("alice"), pa = b.id("pa")
        b.dataset.timeline.removeAll { $0.user == alice && $0.post == pa }
        b.user("alice")  // the same key again, as duplicate JSON keys give: the last one wins
        #expect(b.findings("timeline-missing").count == 1)
    }

    @Test func timelineStaleAfterUnfollow() throws {
        var b = consistent()
        let alice = b.id("alice")
        b.dataset.following.removeAll { $0.user == alice }
        b.dataset.followers.removeAll { $0.user == alice }
        let f = try #require(b.findings("timeline-stale").first)
        #expect(f.paths == ["timeline/alice/pb"] && f.fix == [PatchEntry("timeline/alice/pb", .null)])
        #expect(f.severity == .warning)
    }

    @Test func timelineUnknownPostAndPoster() throws {
        var b = consistent()
        b.timeline("alice", "deleted", poster: "bob")
        let unknown = try #require(b.findings("timeline-unknown-post").first)
        #expect(unknown.paths == ["timeline/alice/deleted"])
        b = consistent()
        let i = b.dataset.timeline.firstIndex { b.dataset.key($0.user) == "bob" && b.dataset.key($0.post) == "pa" }!
        b.dataset.timeline[i].posterUID = b.id("bob")
        let poster = try #require(b.findings("timeline-poster").first)
        #expect(poster.paths == ["timeline/bob/pa/poster_uid"] && poster.expected == "alice" && poster.actual == "bob")
    }

    @Test func pushIDTimeComparesWithinADay() {
        var b = consistent()
        b.post(
            "-KfmfQdQx1kQ9zPq2Lm7", by: "alice", at: 1_490_130_156, likeCount: 0, posterCopy: "alice",
            posterUID: "alice")
        b.fanOutTimelines()
        #expect(b.findings("push-id-time").isEmpty)
        b.dataset.posts[2].createdAt = 1_490_130_156 * 1000
        #expect(b.findings("push-id-time").count == 1)
    }

    @Test func rulesCanBeSwitchedOffAndRegraded() {
        var b = consistent()
        b.dataset.posts[0].storedLikeCount = 3
        let off = b.audit(AuditConfiguration(settings: ["like-count-mismatch": .off]))
        #expect(off.findings.isEmpty)
        #expect(off.skipped.contains { $0.rule == "like-count-mismatch" })
        let info = b.audit(AuditConfiguration(settings: ["like-count-mismatch": .severity(.info)]))
        #expect(info.findings.map(\.severity) == [.info])
        #expect(!info.hasFindings(atOrAbove: .warning))
    }

    @Test func rulesNeedingMissingRelationsAreSkippedWithAReason() {
        var b = consistent()
        b.dataset.schema.timeline = nil
        let result = b.audit()
        let skipped = result.skipped.filter { $0.rule.hasPrefix("timeline-") }
        #expect(skipped.count == 4)
        #expect(skipped.allSatisfy { $0.reason.contains("timeline") })
        #expect(skipped.allSatisfy { $0.reason.contains("([timeline] ") }, "names the schema file key to add")
    }
}
