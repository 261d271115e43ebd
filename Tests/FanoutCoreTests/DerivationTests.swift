import FanoutCore
import Testing

@Suite struct DerivationTests {
    /// alice follows bob; carol follows nobody. Posts at various times, one tie.
    func sample() -> DatasetBuilder {
        var b = DatasetBuilder()
        b.user("alice")
        b.user("bob")
        b.user("carol")
        b.post("p1", by: "alice", at: 100)
        b.post("p2", by: "bob", at: 300)
        b.post("p3", by: "carol", at: 200)
        b.post("p5", by: "bob", at: 150)
        b.post("p4", by: "bob", at: 150)
        b.follow("alice", "bob")
        return b
    }

    func timeline(_ b: DatasetBuilder, _ uid: String) -> [String] {
        let derived = DerivedData(b.dataset)
        let u = derived.user(b.dataset.keys.lookup(uid)!)!
        return derived.timelines[u].map { b.dataset.key(b.dataset.posts[Int($0)].key) }
    }

    @Test func timelineIsOwnPlusFollowedNewestFirstTiesByKey() {
        let b = sample()
        #expect(timeline(b, "alice") == ["p2", "p4", "p5", "p1"])
        #expect(timeline(b, "bob") == ["p2", "p4", "p5"])
        #expect(timeline(b, "carol") == ["p3"])
    }

    @Test func postsWithoutTimestampUsePushIDTimeAndUndatedSortLast() {
        var b = DatasetBuilder()
        b.user("u")
        // -KfmfQdQ encodes 2017-03-21 21:02:36 UTC.
        b.post("-KfmfQdQx1kQ9zPq2Lm7", by: "u")
        b.post("zzz", by: "u")
        b.post("a", by: "u", at: 1_000_000_000)
        #expect(timeline(b, "u") == ["-KfmfQdQx1kQ9zPq2Lm7", "a", "zzz"])
        #expect(PushID.time(of: "-KfmfQdQx1kQ9zPq2Lm7").map { Int($0) } == 1_490_130_156)
        #expect(PushID.time(of: "not a push id") == nil)
    }

    @Test func selfFollowAndDuplicateFollowsDoNotDuplicatePosts() {
        var b = sample()
        b.follow("alice", "alice")
        b.follow("alice", "bob")
        #expect(timeline(b, "alice") == ["p2", "p4", "p5", "p1"])
    }

    @Test func followersOnlyLayoutDerivesFollowsFromFollowers() {
        var b = sample()
        b.dataset.schema.following = nil
        b.dataset.following = []
        #expect(timeline(b, "alice") == ["p2", "p4", "p5", "p1"])
    }

    @Test func likeCountCountsDistinctExistingLikersOrderedByUsername() {
        var b = DatasetBuilder()
        b.user("u1", "zoe")
        b.user("u2", "adam")
        b.user("u3", "mia")
        b.post("p", by: "u1", at: 1)
        b.like("p", by: "u1")
        b.like("p", by: "u2")
        b.like("p", by: "u2")
        b.like("p", by: "ghost")
        b.like("p", by: "u3")
        let derived = DerivedData(b.dataset)
        #expect(derived.likeCount(post: 0) == 3)
        #expect(derived.likers[0].map { b.dataset.users[Int($0)].username! } == ["adam", "mia", "zoe"])
        #expect(derived.viewerLiked(user: 1, post: 0))
        b.like("other", by: "u2")
        #expect(DerivedData(b.dataset).viewerLiked(user: 1, post: 0))
    }

    @Test func viewerLikedIsFalseForOthers() {
        var b = sample()
        b.like("p2", by: "alice")
        let derived = DerivedData(b.dataset)
        let p2 = derived.post(b.dataset.keys.lookup("p2")!)!
        #expect(derived.viewerLiked(user: 0, post: p2))
        #expect(!derived.viewerLiked(user: 1, post: p2))
        #expect(!derived.viewerLiked(user: 2, post: p2))
    }
}
