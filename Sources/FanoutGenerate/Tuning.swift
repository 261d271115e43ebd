/// Every knob of the synthetic Makestagram export, in one place.
///
/// Counts are drawn from `Xoshiro256.heavyTail(scale:cap:)` (Lomax, shape 2):
/// mean ≈ `scale - 0.5 - scale²/cap`, so most users have a few items and a few
/// have many. Popular follow targets and likers come from `RankSampler`
/// (weight `1/(rank + offset)` over a random permutation of the users).
///
/// Measured with these defaults (seed 1, release, Linux x86_64; full table on
/// `ExportGenerator`):
/// - 20,000 users: 110.0 MB, 4.29 posts/user, 7.64 follows/user,
///   5.02 likes/post, 727,352 timeline entries, max 1,564 followers, 0.5 s.
/// - 200,000 users: 1.10 GB, 7,313,882 timeline entries, ~6 s, 122 MB RSS.
///
/// Timeline entries ≈ posts + follows × posts/user (targets are independent
/// of post counts), so post and follow means drive most of the file size:
/// the timeline is ~50% of the bytes, posts ~26%, postLikes ~16%.
enum Tuning {
    // Time range: ~2 years ending at a fixed instant (never the clock).
    /// 2017-03-22T00:00:00Z in milliseconds.
    static let endMillis: Int64 = 1_490_140_800_000
    /// 730 days.
    static let spanMillis: Int64 = 730 * 86_400_000

    // Posts per user: mean ≈ 4.3, ~60% of users have 0–2, ~3% have 25+.
    static let postsScale = 4.9
    static let postsCap = 150

    // Follows per user: mean ≈ 7.5 (capped at users - 1).
    static let followsScale = 8.0
    static let followsCap = 1000
    /// Smaller offset → more concentrated follower counts.
    static let followRankOffset = 10.0

    // Likes per post: mean ≈ 5 (capped at users).
    static let likesScale = 5.6
    static let likesCap = 300
    static let likerRankOffset = 20.0

    // Post contents.
    static let captionProbability = 0.6
    static let squareImageProbability = 0.3
    /// Non-square heights are `k / 2` points with `k` in this range.
    static let halfHeightRange = 400...1400

    /// Output is handed to the sink in chunks of about this many bytes.
    static let chunkSize = 1 << 20
}
