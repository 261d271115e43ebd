/// Deviations from the consistent model, applied while emitting.
struct Edits {
    /// posts/<owner>/<key>/like_count overrides.
    var likeCount: [Int32: Int] = [:]
    /// posts/<owner>/<key>/poster/username overrides.
    var posterName: [Int32: [UInt8]] = [:]
    /// postLikes/<key>: one real liker replaced by an unknown uid.
    var likerSwap: [Int32: (remove: Int32, add: [UInt8])] = [:]
    /// postLikes entries for keys that are not posts, sorted by key.
    var orphanLikes: [(key: [UInt8], liker: Int32)] = []
    /// following/<a>/<b> removed: a → {b}.
    var droppedFollowing: [Int32: Set<Int32>] = [:]
    /// followers/<b>/<a> removed: b → {a}.
    var droppedFollowers: [Int32: Set<Int32>] = [:]
    /// timeline/<u> changes.
    var timeline: [Int32: TimelineEdit] = [:]

    struct TimelineEdit {
        var removed: Set<Int32> = []
        var poster: [Int32: Int32] = [:]
        /// Extra entries (real stale posts or unknown keys) with their poster_uid.
        var added: [(key: [UInt8], poster: Int32)] = []
    }
}

extension ExportGenerator {
    /// The defect kinds, in the round-robin order used by `Options.defects`.
    public static let defectKinds: [String] = [
        "like-count-mismatch",
        "like-count-negative",
        "poster-copy-stale",
        "like-unknown-user",
        "like-unknown-post",
        "follow-mirror-missing",
        "timeline-missing",
        "timeline-stale",
        "timeline-poster",
        "timeline-unknown-post",
    ]
}

/// Chooses defect targets so that no two defects overlap or mask each other
/// and each breaks exactly one rule at exactly the recorded path:
/// - post defects (`like-count-*`, `poster-copy-stale`, `like-unknown-user`)
///   and `timeline-stale` each take a post no earlier defect has taken;
/// - each timeline defect takes its own timeline owner;
/// - `follow-mirror-missing` takes its own edge, always towards a user with no
///   posts, so the timeline rule holds whichever side a checker trusts;
/// - `like-unknown-user` replaces a real like, so `like_count` stays equal to
///   the number of `postLikes` entries; unknown keys and uids are fresh.
struct DefectInjector {
    let m: Model
    var rng: Xoshiro256
    var edits = Edits()
    var defects: [ExportGenerator.Defect] = []

    private var usedPosts = Set<Int32>()
    private var usedTimelineOwners = Set<Int32>()
    private var usedEdges = Set<Int64>()
    private var fakeKeys = Set<[UInt8]>()
    private var fakeUids = Set<[UInt8]>()
    private var scratch: [Int32] = []

    init(model: Model, seed: UInt64) {
        m = model
        rng = Xoshiro256(seed: seed, stream: 0xDEF3C7)
    }

    /// Injects `count` defects round-robin over `defectKinds`. A kind that
    /// cannot be placed (tiny or exhausted populations) is skipped in favour
    /// of the next kind; fewer than `count` are returned only if no kind fits.
    mutating func inject(_ count: Int) {
        let kinds = ExportGenerator.defectKinds.count
        var exhausted = [Bool](repeating: false, count: kinds)
        var next = 0
        while defects.count < count {
            var placed = false
            for _ in 0..<kinds {
                let kind = next % kinds
                next += 1
                if exhausted[kind] { continue }
                if place(kind) {
                    placed = true
                    break
                }
                exhausted[kind] = true
            }
            if !placed { break }
        }
        edits.orphanLikes.sort { $0.key.lexicographicallyPrecedes($1.key) }
    }

    // MARK: helpers

    /// A random index in `0..<count` satisfying `ok`: random probes, then a
    /// deterministic scan from a random start.
    private mutating func pick(_ count: Int, _ ok: (borrowing DefectInjector, Int) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        var r = rng
        defer { rng = r }
        for _ in 0..<64 {
            let i = r.below(count)
            if ok(self, i) { return i }
        }
        let start = r.below(count)
        for j in 0..<count {
            let i = (start + j) % count
            if ok(self, i) { return i }
        }
        return nil
    }

    private func uid(_ u: Int32) -> String { m.uids.string(Int(u)) }
    private func key(_ p: Int32) -> String { m.postKeys.string(Int(p)) }
    private func postPath(_ p: Int32) -> String { "posts/\(uid(m.postOwner[Int(p)]))/\(key(p))" }
    private mutating func record(_ kind: Int, _ path: String) {
        defects.append(.init(kind: ExportGenerator.defectKinds[kind], paths: [path]))
    }

    private mutating func freshKey() -> [UInt8] {
        let start = Tuning.endMillis - Tuning.spanMillis
        while true {
            let ms = start + Int64(rng.below(Int(Tuning.spanMillis)))
            let k = Alphabets.pushID(ms: ms, hi: rng.next() >> 4, lo: UInt16(truncatingIfNeeded: rng.next() >> 52))
            if m.postKeys.find(k) == nil && !fakeKeys.contains(k) {
                fakeKeys.insert(k)
                return k
            }
        }
    }

    private mutating func freshUID() -> [UInt8] {
        while true {
            let u = Alphabets.randomUID(&rng)
            if m.uids.find(u) == nil && !fakeUids.contains(u) {
                fakeUids.insert(u)
                return u
            }
        }
    }

    private mutating func freshPost(_ extra: (borrowing DefectInjector, Int32) -> Bool = { _, _ in true }) -> Int32? {
        guard let p = pick(m.postCount, { s, p in !s.usedPosts.contains(Int32(p)) && extra(s, Int32(p)) }) else {
            return nil
        }
        usedPosts.insert(Int32(p))
        return Int32(p)
    }

    private mutating func freshTimelineOwner(_ extra: (borrowing DefectInjector, Int32) -> Bool) -> Int32? {
        guard let u = pick(m.userCount, { s, u in !s.usedTimelineOwners.contains(Int32(u)) && extra(s, Int32(u)) })
        else { return nil }
        usedTimelineOwners.insert(Int32(u))
        return Int32(u)
    }

    // MARK: kinds

    private mutating func place(_ kind: Int) -> Bool {
        switch ExportGenerator.defectKinds[kind] {
        case "like-count-mismatch":
            guard let p = freshPost() else { return false }
            let c = m.likeCount(Int(p))
            let delta: Int
            if c == 0 {
                delta = 1 + rng.below(3)
            } else {
                let r = rng.below(c + 3)  // -c...-1 or 1...3
                delta = r < c ? -(r + 1) : r - c + 1
            }
            edits.likeCount[p] = c + delta
            record(kind, postPath(p) + "/like_count")

        case "like-count-negative":
            guard let p = freshPost() else { return false }
            edits.likeCount[p] = -(1 + rng.below(5))
            record(kind, postPath(p) + "/like_count")

        case "poster-copy-stale":
            guard let p = freshPost() else { return false }
            let owner = Int(m.postOwner[Int(p)])
            let current = m.username(owner)
            var stale: [UInt8]
            if m.userCount > 1 && rng.chance(0.5) {
                // Someone else's name: a checker keyed on usernames would be fooled.
                var other = rng.below(m.userCount - 1)
                if other >= owner { other += 1 }
                stale = m.username(other)
            } else {
                stale = current
                stale += Array("_old".utf8)
            }
            if stale == current { stale += Array("_x".utf8) }
            edits.posterName[p] = stale
            record(kind, postPath(p) + "/poster/username")

        case "like-unknown-user":
            guard let p = freshPost({ s, p in s.m.likeCount(Int(p)) > 0 }) else { return false }
            let range = m.likersOf(Int(p))
            let removed = m.likers[range.lowerBound + rng.below(range.count)]
            let fake = freshUID()
            edits.likerSwap[p] = (removed, fake)
            record(kind, "postLikes/\(key(p))/\(String(decoding: fake, as: UTF8.self))")

        case "like-unknown-post":
            guard m.userCount > 0 else { return false }
            let k = freshKey()
            edits.orphanLikes.append((k, Int32(rng.below(m.userCount))))
            record(kind, "postLikes/\(String(decoding: k, as: UTF8.self))")

        case "follow-mirror-missing":
            // Only edges to users without posts, so the timeline rule holds
            // whichever direction a checker treats as authoritative.
            let n = Int64(m.userCount)
            func candidates(_ s: borrowing DefectInjector, _ a: Int) -> [Int32] {
                s.m.followeesOf(a).map { s.m.followees[$0] }.filter {
                    s.m.postsOf(Int($0)).isEmpty && !s.usedEdges.contains(Int64(a) * n + Int64($0))
                }
            }
            guard let a = pick(m.userCount, { s, a in !candidates(s, a).isEmpty }) else { return false }
            let options = candidates(self, a)
            let b = options[rng.below(options.count)]
            usedEdges.insert(Int64(a) * n + Int64(b))
            if rng.chance(0.5) {
                edits.droppedFollowing[Int32(a), default: []].insert(b)
                record(kind, "following/\(uid(Int32(a)))/\(uid(b))")
            } else {
                edits.droppedFollowers[b, default: []].insert(Int32(a))
                record(kind, "followers/\(uid(b))/\(uid(Int32(a)))")
            }

        case "timeline-missing":
            guard let u = freshTimelineOwner({ s, u in s.m.timelineCount(of: Int(u)) > 0 }) else { return false }
            m.timeline(of: Int(u), into: &scratch)
            let p = scratch[rng.below(scratch.count)]
            usedPosts.insert(p)
            edits.timeline[u, default: .init()].removed.insert(p)
            record(kind, "timeline/\(uid(u))/\(key(p))")

        case "timeline-stale":
            // A post by someone u neither is nor follows.
            var post: Int32 = -1
            var probe = Xoshiro256(seed: rng.next(), stream: 1)
            guard m.postCount > 0,
                let u = freshTimelineOwner({ s, u in
                    for _ in 0..<64 {
                        let p = Int32(probe.below(s.m.postCount))
                        guard !s.usedPosts.contains(p) else { continue }
                        let owner = s.m.postOwner[Int(p)]
                        if owner != u && !s.m.follows(Int(u), owner) {
                            post = p
                            return true
                        }
                    }
                    return false
                })
            else { return false }
            usedPosts.insert(post)
            edits.timeline[u, default: .init()].added.append((m.postKeys.bytes(Int(post)), m.postOwner[Int(post)]))
            record(kind, "timeline/\(uid(u))/\(key(post))")

        case "timeline-poster":
            guard m.userCount > 1,
                let u = freshTimelineOwner({ s, u in s.m.timelineCount(of: Int(u)) > 0 })
            else { return false }
            m.timeline(of: Int(u), into: &scratch)
            let p = scratch[rng.below(scratch.count)]
            usedPosts.insert(p)
            let owner = Int(m.postOwner[Int(p)])
            var other = rng.below(m.userCount - 1)
            if other >= owner { other += 1 }
            edits.timeline[u, default: .init()].poster[p] = Int32(other)
            record(kind, "timeline/\(uid(u))/\(key(p))/poster_uid")

        case "timeline-unknown-post":
            guard let u = freshTimelineOwner({ _, _ in true }) else { return false }
            let k = freshKey()
            edits.timeline[u, default: .init()].added.append((k, Int32(rng.below(m.userCount))))
            record(kind, "timeline/\(uid(u))/\(String(decoding: k, as: UTF8.self))")

        default:
            return false
        }
        return true
    }
}
