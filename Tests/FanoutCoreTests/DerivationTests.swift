import FanoutCore
import FanoutTestSupport
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

    /// Every post's rank orders posts as timelines do: newest first, ties by key.
    @Test func postRankIsTheTimelinesOrder() {
        let b = sample()
        let derived = DerivedData(b.dataset)
        let byRank = b.dataset.posts.indices.sorted { derived.postRank[$0] < derived.postRank[$1] }
        #expect(byRank.map { b.dataset.key(b.dataset.posts[$0].key) } == ["p2", "p3", "p4", "p5", "p1"])
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

    /// docs/derived-data.md: comments by existing authors on the post, newest first, undated last, equal times
    /// by comment key in byte order, each key once (the last one read).
    @Test func commentsAreByExistingAuthorsNewestFirstEachKeyOnce() {
        var b = sample()
        b.comment("c-old", on: "p2", by: "alice", at: 10)
        b.comment("c-undated", on: "p2", by: "bob")
        b.comment("c-new", on: "p2", by: "carol", at: 30)
        b.comment("c-B", on: "p2", by: "bob", at: 20)
        b.comment("c-a", on: "p2", by: "bob", at: 20)  // byte order: "c-B" < "c-a"
        b.comment("c-ghost", on: "p2", by: "ghost", at: 40)  // no such user
        b.comment("c-lost", on: "nowhere", by: "alice", at: 50)  // no such post
        b.comment("c-twice", on: "p1", by: "alice", at: 1, text: "first")
        b.comment("c-twice", on: "p1", by: "bob", at: 2, text: "second")
        b.comment("c-twice", on: "p3", by: "alice", at: 3)  // the same key on another post is another comment
        let derived = DerivedData(b.dataset)
        func keys(_ post: String) -> [String] {
            derived.comments(post: derived.post(b.dataset.keys.lookup(post)!)!).map {
                b.dataset.key(b.dataset.comments[$0].id)
            }
        }
        #expect(keys("p2") == ["c-new", "c-B", "c-a", "c-old", "c-undated"])
        let p1 = derived.post(b.dataset.keys.lookup("p1")!)!
        #expect(derived.comments(post: p1).map { b.dataset.comments[$0].text } == ["second"])
        #expect(keys("p3") == ["c-twice"] && keys("p4") == [])
        #expect(derived.commentCount(post: derived.post(b.dataset.keys.lookup("p2")!)!) == 5)
        // Without comments nothing is derived for them, and every post has none.
        let plain = DerivedData(sample().dataset)
        #expect(plain.postComments == nil && plain.comments(post: 0) == [] && plain.commentCount(post: 0) == 0)
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
