#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fixed-width byte strings (uids, push IDs) in one manually managed block,
/// so the emitter can copy them without array bridging overhead.
final class FixedStrings {
    let width: Int
    let count: Int
    let base: UnsafeMutablePointer<UInt8>

    init(width: Int, count: Int) {
        self.width = width
        self.count = count
        base = .allocate(capacity: max(1, width * count))
        base.initialize(repeating: 0, count: max(1, width * count))
    }

    deinit { base.deallocate() }

    @inline(__always)
    subscript(i: Int) -> UnsafeMutablePointer<UInt8> { base + i * width }

    func bytes(_ i: Int) -> [UInt8] { Array(UnsafeBufferPointer(start: self[i], count: width)) }

    func string(_ i: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: self[i], count: width), as: UTF8.self)
    }

    /// Index of `key` (same width) if present; the strings must be sorted.
    func find(_ key: [UInt8]) -> Int? {
        precondition(key.count == width)
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let c = key.withUnsafeBufferPointer { memcmp(self[mid], $0.baseAddress!, width) }
            if c == 0 { return mid }
            if c < 0 { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    func less(_ i: Int, than key: [UInt8]) -> Bool {
        key.withUnsafeBufferPointer { memcmp(self[i], $0.baseAddress!, min(width, key.count)) } < 0
    }
}

enum Alphabets {
    /// Firebase push-ID alphabet; it is in ASCII order, so keys sort by time.
    static let push: [UInt8] = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
    /// Firebase Auth uid alphabet, in ASCII order.
    static let uid: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    static let uidLength = 28
    static let pushLength = 20

    /// Writes the 20-character push ID for time `ms` and 72 random bits.
    static func encodePushID(ms: Int64, hi: UInt64, lo: UInt16, into p: UnsafeMutablePointer<UInt8>) {
        var t = ms
        for i in stride(from: 7, through: 0, by: -1) {
            p[i] = push[Int(t & 63)]
            t >>= 6
        }
        var h = hi
        for i in stride(from: 17, through: 8, by: -1) {
            p[i] = push[Int(h & 63)]
            h >>= 6
        }
        p[18] = push[Int((lo >> 6) & 63)]
        p[19] = push[Int(lo & 63)]
    }

    static func pushID(ms: Int64, hi: UInt64, lo: UInt16) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pushLength)
        out.withUnsafeMutableBufferPointer { encodePushID(ms: ms, hi: hi, lo: lo, into: $0.baseAddress!) }
        return out
    }

    static func randomUID(_ rng: inout Xoshiro256) -> [UInt8] {
        (0..<uidLength).map { _ in uid[rng.below(uid.count)] }
    }
}

/// The consistent social graph, indexed by Int32. Users are numbered in uid
/// order and posts in push-ID order, so emitting in index order emits every
/// JSON object's keys in sorted (byte) order.
final class Model {
    let userCount: Int
    /// Seed of the per-post caption streams (captions are never stored).
    let captionSeed: UInt64
    let uids: FixedStrings
    let usernameBytes: [UInt8]
    let usernameStart: [Int32]

    let postCount: Int
    let postKeys: FixedStrings
    let postOwner: [Int32]
    /// created_at in microseconds since the epoch; always inside the push ID's millisecond.
    let postMicros: [Int64]
    /// image_height × 2.
    let postHalfHeight: [UInt16]

    /// Posts of each user (CSR, ascending post index).
    let ownerStart: [Int32]
    let ownerPosts: [Int32]
    /// Likers of each post (CSR, ascending user index).
    let likeStart: [Int32]
    let likers: [Int32]
    /// Users each user follows (CSR, ascending).
    let followStart: [Int32]
    let followees: [Int32]
    /// Followers of each user (CSR, ascending).
    let followerStart: [Int32]
    let followers: [Int32]

    private enum Stream: UInt64 {
        case uids = 1
        case usernames, postCounts, postTimes, follows, likes
    }

    init(users n: Int, seed: UInt64) {
        precondition(n >= 0 && n < Int(Int32.max), "users out of range")
        userCount = n
        var captionMixer = SplitMix64(seed ^ 0xCA97_10E5_0F_1A_2B3C)
        captionSeed = captionMixer.next()

        // 1. uids, sorted, unique.
        let uidTable = FixedStrings(width: Alphabets.uidLength, count: n)
        uids = uidTable
        do {
            var rng = Xoshiro256(seed: seed, stream: Stream.uids.rawValue)
            var all: [[UInt8]] = (0..<n).map { _ in Alphabets.randomUID(&rng) }
            while true {
                all.sort { $0.lexicographicallyPrecedes($1) }
                var dup = false
                for i in stride(from: 1, to: all.count, by: 1) where all[i] == all[i - 1] {
                    all[i] = Alphabets.randomUID(&rng)
                    dup = true
                }
                if !dup { break }
            }
            for (i, u) in all.enumerated() {
                u.withUnsafeBufferPointer { uidTable[i].update(from: $0.baseAddress!, count: u.count) }
            }
        }

        // 2. usernames, unique.
        do {
            var rng = Xoshiro256(seed: seed, stream: Stream.usernames.rawValue)
            var seen = Set<[UInt8]>(minimumCapacity: n)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(n * 12)
            var start: [Int32] = [0]
            start.reserveCapacity(n + 1)
            var name: [UInt8] = []
            for _ in 0..<n {
                Text.username(&rng, into: &name)
                while seen.contains(name) {
                    name.append(UInt8(ascii: "_"))
                    Text.appendNumber(rng.below(1000), to: &name)
                }
                seen.insert(name)
                bytes += name
                start.append(Int32(bytes.count))
            }
            usernameBytes = bytes
            usernameStart = start
        }

        // 3. posts: counts per user, times, push IDs, global key order.
        do {
            var rng = Xoshiro256(seed: seed, stream: Stream.postCounts.rawValue)
            var counts = [Int](repeating: 0, count: n)
            for u in 0..<n { counts[u] = rng.heavyTail(scale: Tuning.postsScale, cap: Tuning.postsCap) }

            struct Seed {
                var ms: Int64; var hi: UInt64; var lo: UInt16; var sub: UInt16; var half: UInt16; var owner: Int32
            }
            var seeds: [Seed] = []
            seeds.reserveCapacity(counts.reduce(0, +))
            var trng = Xoshiro256(seed: seed, stream: Stream.postTimes.rawValue)
            let startMs = Tuning.endMillis - Tuning.spanMillis
            let span = Double(Tuning.spanMillis)
            for u in 0..<n {
                for _ in 0..<counts[u] {
                    // sqrt: activity grows over time, so recent months are denser.
                    let ms = startMs + Int64(trng.unit().squareRoot() * span)
                    let hi = trng.next() >> 4
                    let lo = UInt16(truncatingIfNeeded: trng.next() >> 52)
                    let sub = UInt16(10 + trng.below(980))
                    let half: UInt16
                    if trng.chance(Tuning.squareImageProbability) {
                        half = 750
                    } else {
                        let r = Tuning.halfHeightRange
                        half = UInt16(r.lowerBound + trng.below(r.count))
                    }
                    seeds.append(Seed(ms: ms, hi: hi, lo: lo, sub: sub, half: half, owner: Int32(u)))
                }
            }
            func less(_ a: Seed, _ b: Seed) -> Bool {
                if a.ms != b.ms { return a.ms < b.ms }
                if a.hi != b.hi { return a.hi < b.hi }
                return a.lo < b.lo
            }
            while true {
                seeds.sort(by: less)
                var dup = false
                for i in stride(from: 1, to: seeds.count, by: 1)
                where seeds[i].ms == seeds[i - 1].ms && seeds[i].hi == seeds[i - 1].hi && seeds[i].lo == seeds[i - 1].lo
                {
                    seeds[i].hi = trng.next() >> 4
                    dup = true
                }
                if !dup { break }
            }

            let p = seeds.count
            postCount = p
            let keyTable = FixedStrings(width: Alphabets.pushLength, count: p)
            postKeys = keyTable
            var owner = [Int32](repeating: 0, count: p)
            var micros = [Int64](repeating: 0, count: p)
            var half = [UInt16](repeating: 0, count: p)
            for (i, s) in seeds.enumerated() {
                Alphabets.encodePushID(ms: s.ms, hi: s.hi, lo: s.lo, into: keyTable[i])
                owner[i] = s.owner
                micros[i] = s.ms * 1000 + Int64(s.sub)
                half[i] = s.half
            }
            postOwner = owner
            postMicros = micros
            postHalfHeight = half

            var os = [Int32](repeating: 0, count: n + 1)
            for o in owner { os[Int(o) + 1] += 1 }
            for u in stride(from: 0, to: n, by: 1) { os[u + 1] += os[u] }
            var fill = os
            var op = [Int32](repeating: 0, count: p)
            for i in 0..<p {
                let o = Int(owner[i])
                op[Int(fill[o])] = Int32(i)
                fill[o] += 1
            }
            ownerStart = os
            ownerPosts = op
        }

        // 4. follows: heavy-tailed out-degree, power-law targets.
        var stamp = [Int32](repeating: -1, count: n)
        var picked: [Int32] = []
        do {
            var rng = Xoshiro256(seed: seed, stream: Stream.follows.rawValue)
            let sampler = RankSampler(count: n, offset: Tuning.followRankOffset, rng: &rng)
            var start: [Int32] = [0]
            start.reserveCapacity(n + 1)
            var targets: [Int32] = []
            targets.reserveCapacity(n * 9)
            for u in 0..<n {
                let k = min(rng.heavyTail(scale: Tuning.followsScale, cap: Tuning.followsCap), n - 1)
                stamp[u] = Int32(u)  // never follow yourself
                Model.pickDistinct(k, mark: Int32(u), stamp: &stamp, into: &picked, rng: &rng) { sampler.sample(&$0) }
                targets += picked
                start.append(Int32(targets.count))
            }
            followStart = start
            followees = targets

            var fs = [Int32](repeating: 0, count: n + 1)
            for t in targets { fs[Int(t) + 1] += 1 }
            for u in stride(from: 0, to: n, by: 1) { fs[u + 1] += fs[u] }
            var fill = fs
            var fl = [Int32](repeating: 0, count: targets.count)
            for u in 0..<n {
                for i in Int(start[u])..<Int(start[u + 1]) {
                    let t = Int(targets[i])
                    fl[Int(fill[t])] = Int32(u)
                    fill[t] += 1
                }
            }
            followerStart = fs
            followers = fl
        }

        // 5. likes: heavy-tailed per post, power-law likers.
        do {
            for i in 0..<n { stamp[i] = -1 }
            var rng = Xoshiro256(seed: seed, stream: Stream.likes.rawValue)
            let sampler = RankSampler(count: n, offset: Tuning.likerRankOffset, rng: &rng)
            var start: [Int32] = [0]
            start.reserveCapacity(postCount + 1)
            var all: [Int32] = []
            all.reserveCapacity(postCount * 5 + 16)
            for p in 0..<postCount {
                let k = min(rng.heavyTail(scale: Tuning.likesScale, cap: Tuning.likesCap), n)
                Model.pickDistinct(k, mark: Int32(p), stamp: &stamp, into: &picked, rng: &rng) { sampler.sample(&$0) }
                all += picked
                start.append(Int32(all.count))
            }
            likeStart = start
            likers = all
        }
    }

    /// Picks `k` distinct users not yet stamped with `mark` (sorted ascending).
    /// Uses the sampler first, then a deterministic scan if the sampler keeps
    /// hitting already-picked users (tiny populations).
    private static func pickDistinct(
        _ k: Int, mark: Int32, stamp: inout [Int32], into out: inout [Int32],
        rng: inout Xoshiro256, sample: (inout Xoshiro256) -> Int32
    ) {
        out.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        var attempts = 8 * k + 64
        while out.count < k && attempts > 0 {
            attempts -= 1
            let t = sample(&rng)
            if stamp[Int(t)] != mark {
                stamp[Int(t)] = mark
                out.append(t)
            }
        }
        if out.count < k {
            let n = stamp.count
            var j = rng.below(n)
            while out.count < k {
                if stamp[j] != mark {
                    stamp[j] = mark
                    out.append(Int32(j))
                }
                j += 1
                if j == n { j = 0 }
            }
        }
        out.sort()
    }

    // MARK: queries

    @inline(__always) func likeCount(_ p: Int) -> Int { Int(likeStart[p + 1] - likeStart[p]) }
    @inline(__always) func postsOf(_ u: Int) -> Range<Int> { Int(ownerStart[u])..<Int(ownerStart[u + 1]) }
    @inline(__always) func followeesOf(_ u: Int) -> Range<Int> { Int(followStart[u])..<Int(followStart[u + 1]) }
    @inline(__always) func followersOf(_ u: Int) -> Range<Int> { Int(followerStart[u])..<Int(followerStart[u + 1]) }
    @inline(__always) func likersOf(_ p: Int) -> Range<Int> { Int(likeStart[p])..<Int(likeStart[p + 1]) }

    func username(_ u: Int) -> [UInt8] { Array(usernameBytes[Int(usernameStart[u])..<Int(usernameStart[u + 1])]) }

    func follows(_ u: Int, _ t: Int32) -> Bool {
        var lo = Int(followStart[u])
        var hi = Int(followStart[u + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            if followees[mid] == t { return true }
            if followees[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    /// The consistent timeline of `u`: own posts plus followees' posts, sorted.
    func timeline(of u: Int, into out: inout [Int32]) {
        out.removeAll(keepingCapacity: true)
        for i in postsOf(u) { out.append(ownerPosts[i]) }
        for f in followeesOf(u) {
            for i in postsOf(Int(followees[f])) { out.append(ownerPosts[i]) }
        }
        out.sort()
    }

    func timelineCount(of u: Int) -> Int {
        var c = postsOf(u).count
        for f in followeesOf(u) { c += postsOf(Int(followees[f])).count }
        return c
    }
}
