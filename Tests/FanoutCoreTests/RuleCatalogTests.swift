import FanoutCore
import FanoutJSON
import FanoutTestSupport
import Testing

/// One rule's minimal trigger: a change to a consistent dataset that breaks exactly what the rule verifies.
struct RuleTrigger: Sendable, CustomTestStringConvertible {
    let rule: String
    /// The first path the finding must name.
    let path: String
    var schema: Schema = TestSchema.makestagram
    let breakIt: @Sendable (inout DatasetBuilder) -> Void

    var testDescription: String { rule }

    /// A consistent world: alice and bob follow each other, each has a post, bob likes alice's post.
    static func consistent(_ schema: Schema = TestSchema.makestagram) -> DatasetBuilder {
        var b = DatasetBuilder(schema: schema)
        b.user("alice")
        b.user("bob")
        b.post("pa", by: "alice", at: 10, likeCount: 1, posterCopy: "alice", posterUID: "alice")
        b.post("pb", by: "bob", at: 20, likeCount: 0, posterCopy: "bob", posterUID: "bob")
        b.like("pa", by: "bob")
        b.follow("alice", "bob")
        b.follow("bob", "alice")
        b.fanOutTimelines()
        return b
    }

    /// Every rule of docs/checks.md, each with its trigger.
    static let all: [RuleTrigger] = [
        RuleTrigger(rule: "like-count-mismatch", path: "posts/alice/pa/like_count") {
            $0.dataset.posts[0].storedLikeCount = 3
        },
        RuleTrigger(rule: "like-count-negative", path: "posts/bob/pb/like_count") {
            $0.dataset.posts[1].storedLikeCount = -1
        },
        RuleTrigger(rule: "like-unknown-user", path: "postLikes/pa/ghost") { $0.like("pa", by: "ghost") },
        RuleTrigger(rule: "like-unknown-post", path: "postLikes/gone/alice") { $0.like("gone", by: "alice") },
        RuleTrigger(rule: "like-mirror-missing", path: "user-likes/alice/pb", schema: TestSchema.withLikeMirror) { b in
            b.like("pb", by: "alice", mirrored: false)
            b.dataset.posts[1].storedLikeCount = 1
        },
        RuleTrigger(rule: "like-duplicate", path: "postLikes/pa/bob") { $0.like("pa", by: "bob") },
        RuleTrigger(rule: "poster-copy-stale", path: "posts/alice/pa/poster/username") {
            $0.dataset.users[0].username = "alice2"
        },
        RuleTrigger(rule: "poster-copy-uid", path: "posts/bob/pb/poster/uid") {
            $0.dataset.posts[1].posterCopyUID = $0.id("alice")
        },
        RuleTrigger(rule: "post-unknown-poster", path: "posts/ghost/pg") {
            $0.post("pg", by: "ghost", at: 5, likeCount: 0, posterCopy: "ghost", posterUID: "ghost")
        },
        RuleTrigger(rule: "post-field", path: "posts/alice/pa/image_url") {
            $0.dataset.fieldProblems.append(
                FieldProblem(path: "posts/alice/pa/image_url", expected: "string", actual: "missing"))
        },
        RuleTrigger(rule: "follow-mirror-missing", path: "followers/bob/alice") { b in
            let alice = b.id("alice")
            b.dataset.followers.removeAll { $0.user == alice }
        },
        RuleTrigger(rule: "follow-unknown-user", path: "following/alice/ghost") { $0.follow("alice", "ghost") },
        RuleTrigger(rule: "follow-self", path: "following/bob/bob") { $0.follow("bob", "bob") },
        RuleTrigger(rule: "timeline-missing", path: "timeline/alice/pb") { b in
            let (alice, pb) = (b.id("alice"), b.id("pb"))
            b.dataset.timeline.removeAll { $0.user == alice && $0.post == pb }
        },
        RuleTrigger(rule: "timeline-stale", path: "timeline/alice/pb") { b in
            let alice = b.id("alice")
            b.dataset.following.removeAll { $0.user == alice }
            b.dataset.followers.removeAll { $0.user == alice }
        },
        RuleTrigger(rule: "timeline-unknown-post", path: "timeline/alice/deleted") {
            $0.timeline("alice", "deleted", poster: "bob")
        },
        RuleTrigger(rule: "timeline-poster", path: "timeline/bob/pa/poster_uid") { b in
            let (bob, pa) = (b.id("bob"), b.id("pa"))
            let i = b.dataset.timeline.firstIndex { $0.user == bob && $0.post == pa }!
            b.dataset.timeline[i].posterUID = bob
        },
        RuleTrigger(rule: "key-invalid", path: "users/ca.rol") { $0.user("ca.rol", "carol") },
        RuleTrigger(rule: "push-id-time", path: "posts/alice/-KfmfQdQx1kQ9zPq2Lm7/created_at") { b in
            b.post(
                "-KfmfQdQx1kQ9zPq2Lm7", by: "alice", at: 1_490_130_156_000, likeCount: 0, posterCopy: "alice",
                posterUID: "alice")
            b.fanOutTimelines()
        },
        // Carol's username is alice's in capitals.
        RuleTrigger(rule: "user-name-confusable", path: "users/alice/username") { $0.user("carol", "ALICE") },
    ]
}

/// Every rule of the catalogue: triggered by a minimal change to a consistent dataset, silent without it.
@Suite struct RuleCatalogTests {
    @Test func theCatalogueHasEverySpecRuleWithItsTexts() {
        let ids = RuleCatalog.descriptors.map(\.id)
        #expect(Set(RuleTrigger.all.map(\.rule)).isSubset(of: Set(ids)))
        #expect(RuleTrigger.all.count == 20)
        for rule in RuleCatalog.descriptors {
            #expect(!rule.summary.isEmpty && rule.explanation.count > 80, "\(rule.id) explains itself")
        }
        let manual = RuleCatalog.descriptors.filter { !$0.isMechanical }.map(\.id)
        #expect(
            Set(manual).isSuperset(of: [
                "post-unknown-poster", "post-field", "push-id-time", "key-invalid", "user-name-confusable",
            ]))
        #expect(RuleCatalog.descriptor("like-count-mismatch")?.isMechanical == true)
    }

    @Test(arguments: RuleTrigger.all)
    func triggers(_ trigger: RuleTrigger) throws {
        var b = RuleTrigger.consistent(trigger.schema)
        #expect(b.findings(trigger.rule).isEmpty, "a consistent dataset does not trigger \(trigger.rule)")
        trigger.breakIt(&b)
        let findings = b.findings(trigger.rule)
        let finding = try #require(findings.first, "\(trigger.rule) reports the change")
        #expect(findings.contains { $0.paths.first == trigger.path }, "\(findings.map(\.paths))")
        #expect(!finding.message.isEmpty)
        let descriptor = try #require(RuleCatalog.descriptor(trigger.rule))
        #expect(finding.severity == descriptor.defaultSeverity)
        #expect(
            findings.allSatisfy { $0.fix.isEmpty != descriptor.isMechanical },
            "mechanical rules carry fixes, others none")
    }

    @Test func consistentDatasetsHaveNoFindingsAtAll() {
        for schema in [TestSchema.makestagram, TestSchema.withLikeMirror] {
            let result = RuleTrigger.consistent(schema).audit()
            #expect(result.findings.isEmpty, "\(result.findings)")
        }
    }

    @Test func theAuditRecordsConfiguredSeverities() {
        let result = RuleTrigger.consistent().audit(
            AuditConfiguration(settings: ["follow-self": .severity(.error), "timeline-stale": .severity(.warning)]))
        #expect(result.severities == ["follow-self": .error], "only changed severities are recorded")
        let followSelf = RuleCatalog.descriptor("follow-self")!
        #expect(result.severity(of: followSelf) == .error)
        #expect(result.severity(of: RuleCatalog.descriptor("timeline-stale")!) == .warning)
    }

    @Test func likeMirrorMissingBothWaysWithTheLikeSetAsTruth() {
        var b = RuleTrigger.consistent(TestSchema.withLikeMirror)
        b.like("pb", by: "alice", mirrored: false)
        b.dataset.posts[1].storedLikeCount = 1
        b.mirrorLike("pa", by: "alice")
        let findings = b.findings("like-mirror-missing")
        #expect(findings.count == 2)
        let missing = findings.first { $0.paths.first == "user-likes/alice/pb" }
        #expect(missing?.fix == [PatchEntry("user-likes/alice/pb", true)])
        #expect(missing?.paths == ["user-likes/alice/pb", "postLikes/pb/alice"])
        let orphan = findings.first { $0.paths.first == "user-likes/alice/pa" }
        #expect(orphan?.fix == [PatchEntry("user-likes/alice/pa", .null)])
        #expect(orphan?.expected == .null && orphan?.actual == true)
    }

    @Test func mirrorsOfWhatIsDeletedAnywayAreNotAsked() {
        var b = RuleTrigger.consistent(TestSchema.withLikeMirror)
        b.like("pa", by: "ghost", mirrored: false)
        b.follow("alice", "ghost", followers: false)
        b.follow("bob", "bob", followers: false)
        #expect(b.findings("like-mirror-missing").isEmpty, "like-unknown-user deletes it")
        #expect(b.findings("follow-mirror-missing").isEmpty, "follow-unknown-user and follow-self delete them")
        #expect(b.findings("like-unknown-user").count == 1 && b.findings("follow-unknown-user").count == 1)
        #expect(b.findings("follow-self").count == 1)
    }

    @Test func likeMirrorMissingIsSkippedWithoutAMirror() {
        let result = RuleTrigger.consistent().audit()
        #expect(result.skipped.contains { $0.rule == "like-mirror-missing" && $0.reason.contains("mirror") })
    }

    @Test func likeDuplicateOfARepeatedKeyIsWrittenOnce() throws {
        var b = RuleTrigger.consistent()
        b.like("pa", by: "bob")
        b.like("pa", by: "bob")
        let f = try #require(b.findings("like-duplicate").first)
        #expect(f.expected == 1 && f.actual == 3 && f.severity == .warning)
        #expect(f.fix == [PatchEntry("postLikes/pa/bob", true)])
        #expect(b.findings("like-count-mismatch").isEmpty, "a duplicate is counted once")
    }

    @Test func likeDuplicatesAreFoundWhereverTheRowsAre() throws {
        var b = RuleTrigger.consistent()
        b.like("pb", by: "alice")
        b.like("pb", by: "bob")
        b.like("pa", by: "bob")  // pa's likes are no longer stored together: a post key repeated in the tree
        b.like("pb", by: "alice")
        let findings = b.findings("like-duplicate")
        #expect(findings.map(\.paths) == [["postLikes/pa/bob"], ["postLikes/pb/alice"]])
    }

    @Test func likeDuplicateRowsKeepTheFirstRow() throws {
        var b = DatasetBuilder(schema: TestSchema.withLikeRows)
        b.user("alice")
        b.post("pa", by: "alice", at: 1, likeCount: 1, posterCopy: "alice", posterUID: "alice")
        b.like("pa", by: "alice", row: "L1")
        #expect(b.findings("like-duplicate").isEmpty)
        b.like("pa", by: "alice", row: "L2")
        let f = try #require(b.findings("like-duplicate").first)
        #expect(f.paths == ["Like/L2", "Like/L1"])
        #expect(f.fix == [PatchEntry("Like/L2", .null)])
    }

    @Test func keyInvalidNamesTheRuleBrokenAndWhereTheKeyIsStored() {
        var b = RuleTrigger.consistent()
        b.user("a$b")
        b.like("pa", by: "tab\tuser")
        b.follow("alice", String(repeating: "k", count: 769))
        b.timeline("bob", "p#1", poster: "alice")
        b.dataset.posts[0].posterCopyUID = b.id("not.a.key")  // a value, not a key: not reported
        let findings = b.findings("key-invalid")
        let byPath = Dictionary(uniqueKeysWithValues: findings.map { ($0.paths[0], $0.message) })
        #expect(byPath["users/a$b"]?.contains("contains \"$\"") == true)
        #expect(byPath["postLikes/pa/tab\tuser"]?.contains("control character U+0009") == true)
        #expect(byPath["following/alice/" + String(repeating: "k", count: 769)]?.contains("769 bytes") == true)
        #expect(byPath["timeline/bob/p#1"]?.contains("\"#\"") == true)
        #expect(findings.count == 4, "\(findings.map(\.paths))")
        #expect(findings.allSatisfy { $0.fix.isEmpty && $0.severity == .error })
    }

    @Test func keyInvalidReportsPathsTooDeepForFirebase() throws {
        var schema = TestSchema.makestagram
        let deep = (0..<30).map { "level\($0)" }.joined(separator: "/")
        schema.timeline = TimelineRelation(
            pattern: PathPattern("\(deep)/{user}/{post}")!, posterUID: FieldPath("poster_uid"))
        let b = DatasetBuilder(schema: schema)
        let f = try #require(b.findings("key-invalid").first)
        #expect(f.message.contains("33 keys deep") && f.actual == 33)
        #expect(RuleTrigger.consistent().findings("key-invalid").isEmpty)
    }

    @Test func keyInvalidIsSkippedForParseExports() {
        var b = RuleTrigger.consistent()
        b.dataset.schema.format = .parse
        b.user("a.b")
        let result = b.audit()
        #expect(!result.findings.contains { $0.rule == "key-invalid" })
        #expect(result.skipped.contains { $0.rule == "key-invalid" && $0.reason.contains("not a Firebase tree") })
    }
}
