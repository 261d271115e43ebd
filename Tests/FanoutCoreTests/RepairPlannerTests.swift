import FanoutCore
import FanoutJSON
import FanoutTestSupport
import Testing

/// The repair planner on small datasets: sources repaired first, every copy recomputed from them.
@Suite struct RepairPlannerTests {
    func plan(_ b: DatasetBuilder) -> [String: JSONValue] {
        let patch = RepairPlanner.plan(CheckContext(dataset: b.dataset, derived: DerivedData(b.dataset)))
        return Dictionary(uniqueKeysWithValues: patch.entries.map { ($0.path, $0.value) })
    }

    @Test func aConsistentExportNeedsNoRepair() {
        #expect(plan(RuleTrigger.consistent()).isEmpty)
        #expect(plan(RuleTrigger.consistent(TestSchema.withLikeMirror)).isEmpty)
    }

    @Test func eachMechanicalTriggerIsRepairedAtItsPath() {
        for trigger in RuleTrigger.all where RuleCatalog.descriptor(trigger.rule)!.isMechanical {
            var b = RuleTrigger.consistent(trigger.schema)
            trigger.breakIt(&b)
            let patch = plan(b)
            #expect(patch.keys.contains { trigger.path.hasPrefix($0) }, "\(trigger.rule): \(patch)")
        }
    }

    @Test func countersCountTheRepairedLikeSet() {
        var b = RuleTrigger.consistent()
        b.like("pa", by: "ghost")  // not counted, deleted
        b.like("pb", by: "alice")  // counted: the counter of pb (0) is behind
        b.like("pb", by: "alice")  // a repeated key, written once
        #expect(
            plan(b) == [
                "postLikes/pa/ghost": .null,
                "postLikes/pb/alice": true,
                "posts/bob/pb/like_count": 1,
            ])
    }

    @Test func followingIsTheTruthAndTimelinesFollowIt() {
        var b = RuleTrigger.consistent()
        b.user("carol")
        b.post("pc", by: "carol", at: 30, likeCount: 0, posterCopy: "carol", posterUID: "carol")
        b.fanOutTimelines()
        // alice follows carol, but only `following` says so: the mirror is added and the timeline gets pc.
        b.follow("alice", "carol", followers: false)
        // carol is listed among bob's followers without following him: the orphan entry goes.
        b.follow("carol", "bob", following: false)
        // A follow of a deleted user and a self-follow go on both sides.
        b.follow("bob", "ghost")
        b.follow("carol", "carol")
        #expect(
            plan(b) == [
                "followers/carol/alice": true,
                "followers/bob/carol": .null,
                "following/bob/ghost": .null,
                "followers/ghost/bob": .null,
                "following/carol/carol": .null,
                "followers/carol/carol": .null,
                "timeline/alice/pc": ["poster_uid": "carol"],
            ])
    }

    @Test func timelineEntriesAreDeletedRewrittenAndAdded() {
        var b = RuleTrigger.consistent()
        let (alice, bob, pa) = (b.id("alice"), b.id("bob"), b.id("pa"))
        b.dataset.timeline.removeAll { $0.user == alice && $0.post == pa }  // missing own post
        let i = b.dataset.timeline.firstIndex { $0.user == bob && $0.post == pa }!
        b.dataset.timeline[i].posterUID = bob  // wrong poster
        b.timeline("alice", "deleted", poster: "bob")  // a deleted post
        b.timeline("ghost", "pa", poster: "alice")  // the timeline of a deleted user
        #expect(
            plan(b) == [
                "timeline/alice/pa": ["poster_uid": "alice"],
                "timeline/bob/pa/poster_uid": "alice",
                "timeline/alice/deleted": .null,
                "timeline/ghost/pa": .null,
            ])
    }

    @Test func unfollowingRemovesTheTimelineEntriesItImplies() {
        var b = RuleTrigger.consistent()
        b.follow("alice", "ghost")
        let alice = b.id("alice"), bob = b.id("bob")
        b.dataset.following.removeAll { $0.user == alice && $0.target == bob }
        let patch = plan(b)
        #expect(patch["timeline/alice/pb"] == .null)
        #expect(patch["followers/bob/alice"] == .null)
        #expect(patch["following/alice/ghost"] == .null)
    }

    @Test func posterCopiesComeFromUsersAndTheOwner() {
        var b = RuleTrigger.consistent()
        b.dataset.users[0].username = "alice2"
        b.dataset.posts[1].posterCopyUID = b.id("alice")
        #expect(plan(b) == ["posts/alice/pa/poster/username": "alice2", "posts/bob/pb/poster/uid": "bob"])
    }

    @Test func theMirrorOfLikesIsRebuiltFromTheRepairedLikeSet() {
        var b = RuleTrigger.consistent(TestSchema.withLikeMirror)
        b.like("pb", by: "alice", mirrored: false)
        b.dataset.posts[1].storedLikeCount = 1
        b.mirrorLike("pa", by: "alice")
        b.like("pa", by: "ghost")
        #expect(
            plan(b) == [
                "user-likes/alice/pb": true,
                "user-likes/alice/pa": .null,
                "postLikes/pa/ghost": .null,
                "user-likes/ghost/pa": .null,
            ])
    }

    @Test func whatNeedsAPersonIsLeftAlone() {
        var b = RuleTrigger.consistent()
        b.post("pg", by: "ghost", at: 5, likeCount: 0, posterCopy: "ghost", posterUID: "ghost")
        b.user("a.b")
        b.dataset.fieldProblems.append(
            FieldProblem(path: "posts/alice/pa/image_url", expected: "string", actual: "missing"))
        #expect(plan(b).isEmpty)
    }

    @Test func duplicateLikeRowsAreDeleted() {
        var b = DatasetBuilder(schema: TestSchema.withLikeRows)
        b.user("alice")
        b.post("pa", by: "alice", at: 1, likeCount: 1, posterCopy: "alice", posterUID: "alice")
        b.like("pa", by: "alice", row: "L1")
        b.like("pa", by: "alice", row: "L2")
        b.fanOutTimelines()
        #expect(plan(b) == ["Like/L2": .null])
    }
}

/// The patch value: sorted, each path once, never a path below another (Firebase rejects such updates).
@Suite struct RepairPatchTests {
    @Test func pathsAreSortedAndTheLastValueWins() {
        let patch = RepairPatch([PatchEntry("b/x", 1), PatchEntry("a", 2), PatchEntry("b/x", 3)])
        #expect(patch.entries == [PatchEntry("a", 2), PatchEntry("b/x", 3)])
        #expect(patch.render() == "{\n  \"a\": 2,\n  \"b/x\": 3\n}\n")
    }

    @Test func descendantsOfAReplacedPathMergeOrGo() {
        let deleted = RepairPatch(["t/u/p": .null, "t/u/p/poster_uid": "x", "t/u/pq": 1])
        #expect(deleted.entries == [PatchEntry("t/u/p", .null), PatchEntry("t/u/pq", 1)])
        let merged = RepairPatch(["t/u/p": ["a": 1], "t/u/p/b/c": 2, "t/u/p/a": .null])
        #expect(merged.entries == [PatchEntry("t/u/p", ["b": ["c": 2]])])
    }

    @Test func anEmptyPatchRendersAsAnEmptyObject() {
        #expect(RepairPatch([PatchEntry]()).render() == "{}\n")
        #expect(RepairPatch([PatchEntry]()).isEmpty)
    }
}
