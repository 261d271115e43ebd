// Deterministic pseudo-random numbers for the generator.
//
// Only integer arithmetic, IEEE-754 `+ - * /` and `squareRoot()` (all exactly
// rounded) are used on top of these generators, so every platform produces the
// same stream and therefore the same bytes. Never use Swift's `random`, `Hasher`
// or any libm transcendental (`pow`, `log`, `exp`) in the generator.

/// SplitMix64 (Steele, Lea, Flood 2014). Used to seed xoshiro.
struct SplitMix64 {
    var state: UInt64

    init(_ seed: UInt64) { state = seed }

    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256** 1.0 (Blackman, Vigna 2018).
struct Xoshiro256 {
    var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// An independent stream for (`seed`, `stream`); `stream` separates the
    /// generator's phases so that changing one phase never shifts another.
    init(seed: UInt64, stream: UInt64) {
        var outer = SplitMix64(seed)
        let mixedSeed = outer.next()
        var inner = SplitMix64(mixedSeed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        s0 = inner.next()
        s1 = inner.next()
        s2 = inner.next()
        s3 = inner.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inline(__always)
    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// Uniform integer in `0..<n` (Lemire's multiply-high; `n > 0`).
    @inline(__always)
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// Uniform Double in `[0, 1)` with 53 random bits.
    @inline(__always)
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    @inline(__always)
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A discrete heavy-tailed count: `floor(scale * (1/sqrt(u) - 1))`, i.e. a
    /// Lomax (Pareto II) variate with shape 2, capped at `cap`. Its mean is
    /// about `scale - 0.5 - scale²/cap`; most draws are small, a few are large.
    @inline(__always)
    mutating func heavyTail(scale: Double, cap: Int) -> Int {
        guard cap > 0 else { return 0 }
        let u = 1.0 - unit()  // (0, 1]
        let x = scale * (1.0 / u.squareRoot() - 1.0)
        return x >= Double(cap) ? cap : Int(x)
    }

    /// Fisher–Yates shuffle.
    mutating func shuffle(_ a: inout [Int32]) {
        var i = a.count
        while i > 1 {
            let j = below(i)
            i -= 1
            a.swapAt(i, j)
        }
    }
}

/// Power-law ("Zipf-like") choice of users: rank `r` (0-based) has weight
/// `1 / (r + offset)`, and ranks are mapped to users through a random
/// permutation, so a few random users are picked very often.
struct RankSampler {
    private var cdf: [Double]
    private var perm: [Int32]

    init(count n: Int, offset: Double, rng: inout Xoshiro256) {
        perm = (0..<Int32(n)).map { $0 }
        rng.shuffle(&perm)
        cdf = []
        cdf.reserveCapacity(n)
        var acc = 0.0
        for r in 0..<n {
            acc += 1.0 / (Double(r) + offset)
            cdf.append(acc)
        }
    }

    @inline(__always)
    func sample(_ rng: inout Xoshiro256) -> Int32 {
        let x = rng.unit() * cdf[cdf.count - 1]
        var lo = 0
        var hi = cdf.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cdf[mid] > x { hi = mid } else { lo = mid + 1 }
        }
        return perm[lo]
    }
}
