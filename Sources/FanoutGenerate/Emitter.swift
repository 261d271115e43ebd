/// A growable byte buffer with raw-pointer appends.
final class OutBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    func ensure(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }

    @inline(__always)
    func byte(_ b: UInt8) {
        ensure(1)
        base[count] = b
        count += 1
    }

    @inline(__always)
    func raw(_ p: UnsafePointer<UInt8>, _ n: Int) {
        ensure(n)
        (base + count).update(from: p, count: n)
        count += n
    }

    @inline(__always)
    func ascii(_ s: StaticString) {
        raw(s.utf8Start, s.utf8CodeUnitCount)
    }

    func raw(_ a: [UInt8]) {
        a.withUnsafeBufferPointer { raw($0.baseAddress!, $0.count) }
    }

    @inline(__always)
    func int(_ value: Int) {
        ensure(21)
        var v = value
        if v < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
            v = -v
        }
        var digits = 1
        var t = v
        while t >= 10 {
            t /= 10
            digits += 1
        }
        var p = count + digits - 1
        repeat {
            base[p] = UInt8(truncatingIfNeeded: 48 + v % 10)
            v /= 10
            p -= 1
        } while v > 0
        count += digits
    }

    /// A JSON string literal (with quotes) for raw UTF-8 `s`.
    func string(_ s: UnsafeBufferPointer<UInt8>) {
        ensure(s.count * 6 + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        for c in s {
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                base[count] = UInt8(ascii: "\\")
                base[count + 1] = c
                count += 2
            case 0x0A:
                base[count] = UInt8(ascii: "\\")
                base[count + 1] = UInt8(ascii: "n")
                count += 2
            case 0x0D:
                base[count] = UInt8(ascii: "\\")
                base[count + 1] = UInt8(ascii: "r")
                count += 2
            case 0x09:
                base[count] = UInt8(ascii: "\\")
                base[count + 1] = UInt8(ascii: "t")
                count += 2
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                base[count] = UInt8(ascii: "\\")
                base[count + 1] = UInt8(ascii: "u")
                base[count + 2] = UInt8(ascii: "0")
                base[count + 3] = UInt8(ascii: "0")
                base[count + 4] = hex.utf8Start[Int(c >> 4)]
                base[count + 5] = hex.utf8Start[Int(c & 15)]
                count += 6
            default:
                base[count] = c
                count += 1
            }
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    func string(_ s: [UInt8]) {
        s.withUnsafeBufferPointer { string($0) }
    }
}

/// Streams the export as a resumable state machine: `fill` appends items
/// until at least `limit` bytes are buffered, so the caller can hand each
/// chunk to the sink from its own (rethrowing) frame.
struct Emitter {
    private let m: Model
    private let e: Edits
    let out = OutBuffer(capacity: Tuning.chunkSize + (64 << 10))

    private var section = -1
    private var index = 0
    private var first = true
    private var orphanCursor = 0
    private(set) var done = false
    private var posts: [Int32] = []
    private var text: [UInt8] = []

    /// Root keys in sorted order.
    private static let sections: [StaticString] = [
        "\"followers\":{", "\"following\":{", "\"postLikes\":{", "\"posts\":{", "\"timeline\":{", "\"users\":{",
    ]

    init(model: Model, edits: Edits) {
        m = model
        e = edits
        posts.reserveCapacity(4096)
        text.reserveCapacity(1024)
    }

    mutating func fill(limit: Int) {
        while out.count < limit && !done { step() }
    }

    private mutating func step() {
        if section < 0 {
            out.byte(UInt8(ascii: "{"))
            open(0)
            return
        }
        let items = section == 2 ? m.postCount : m.userCount
        if index < items {
            switch section {
            case 0: followers(index)
            case 1: following(index)
            case 2: postLikes(index)
            case 3: postsOf(index)
            case 4: timeline(index)
            default: user(index)
            }
            index += 1
            return
        }
        if section == 2 {
            while orphanCursor < e.orphanLikes.count { orphan() }
        }
        out.byte(UInt8(ascii: "}"))
        if section == Emitter.sections.count - 1 {
            out.byte(UInt8(ascii: "}"))
            done = true
        } else {
            out.byte(UInt8(ascii: ","))
            open(section + 1)
        }
    }

    private mutating func open(_ s: Int) {
        section = s
        index = 0
        first = true
        out.ascii(Emitter.sections[s])
    }

    // MARK: tokens

    @inline(__always) private func uid(_ u: Int32) { out.raw(m.uids[Int(u)], Alphabets.uidLength) }
    @inline(__always) private func key(_ p: Int32) { out.raw(m.postKeys[Int(p)], Alphabets.pushLength) }

    /// `,"<uid>":` (comma unless first in the section).
    private mutating func userKey(_ u: Int) {
        if !first { out.byte(UInt8(ascii: ",")) }
        first = false
        out.byte(UInt8(ascii: "\""))
        uid(Int32(u))
        out.ascii("\":")
    }

    private func username(_ u: Int) {
        m.usernameBytes.withUnsafeBufferPointer { all in
            let s = Int(m.usernameStart[u])
            out.string(UnsafeBufferPointer(rebasing: all[s..<Int(m.usernameStart[u + 1])]))
        }
    }

    // MARK: sections

    /// A `{"<uid>":true,...}` set; `skip` filters out removed members.
    private mutating func uidSet(_ owner: Int, _ list: [Int32], _ range: Range<Int>, skip: Set<Int32>?) {
        if range.isEmpty { return }
        if let skip, range.allSatisfy({ skip.contains(list[$0]) }) { return }
        userKey(owner)
        out.byte(UInt8(ascii: "{"))
        var firstMember = true
        for i in range {
            let v = list[i]
            if let skip, skip.contains(v) { continue }
            if !firstMember { out.byte(UInt8(ascii: ",")) }
            firstMember = false
            out.byte(UInt8(ascii: "\""))
            uid(v)
            out.ascii("\":true")
        }
        out.byte(UInt8(ascii: "}"))
    }

    private mutating func followers(_ u: Int) {
        uidSet(u, m.followers, m.followersOf(u), skip: e.droppedFollowers[Int32(u)])
    }

    private mutating func following(_ u: Int) {
        uidSet(u, m.followees, m.followeesOf(u), skip: e.droppedFollowing[Int32(u)])
    }

    private mutating func postKeyOpen() {
        if !first { out.byte(UInt8(ascii: ",")) }
        first = false
        out.byte(UInt8(ascii: "\""))
    }

    private mutating func orphan() {
        let o = e.orphanLikes[orphanCursor]
        orphanCursor += 1
        postKeyOpen()
        out.raw(o.key)
        out.ascii("\":{\"")
        uid(o.liker)
        out.ascii("\":true}")
    }

    private mutating func postLikes(_ p: Int) {
        while orphanCursor < e.orphanLikes.count && !m.postKeys.less(p, than: e.orphanLikes[orphanCursor].key) {
            orphan()
        }
        let range = m.likersOf(p)
        if range.isEmpty { return }
        postKeyOpen()
        key(Int32(p))
        out.ascii("\":{")
        if let swap = e.likerSwap[Int32(p)] {
            var members: [[UInt8]] = range.compactMap {
                m.likers[$0] == swap.remove ? nil : m.uids.bytes(Int(m.likers[$0]))
            }
            members.append(swap.add)
            members.sort { $0.lexicographicallyPrecedes($1) }
            for (i, member) in members.enumerated() {
                if i > 0 { out.byte(UInt8(ascii: ",")) }
                out.byte(UInt8(ascii: "\""))
                out.raw(member)
                out.ascii("\":true")
            }
        } else {
            for i in range {
                if i != range.lowerBound { out.byte(UInt8(ascii: ",")) }
                out.byte(UInt8(ascii: "\""))
                uid(m.likers[i])
                out.ascii("\":true")
            }
        }
        out.byte(UInt8(ascii: "}"))
    }

    private mutating func postsOf(_ u: Int) {
        let range = m.postsOf(u)
        if range.isEmpty { return }
        userKey(u)
        out.byte(UInt8(ascii: "{"))
        for i in range {
            let p = m.ownerPosts[i]
            let pi = Int(p)
            if i != range.lowerBound { out.byte(UInt8(ascii: ",")) }
            out.byte(UInt8(ascii: "\""))
            key(p)
            out.ascii("\":{")

            var rng = Xoshiro256(seed: m.captionSeed, stream: UInt64(pi))
            if rng.chance(Tuning.captionProbability) {
                Text.caption(&rng, into: &text)
                out.ascii("\"caption\":")
                out.string(text)
                out.byte(UInt8(ascii: ","))
            }

            // created_at: seconds with the microsecond fraction, trailing
            // zeros dropped (the shortest round-trip form of that Double).
            let micros = m.postMicros[pi]
            out.ascii("\"created_at\":")
            out.int(Int(micros / 1_000_000))
            var frac = Int(micros % 1_000_000)
            out.ensure(7)
            out.byte(UInt8(ascii: "."))
            var width = 6
            while frac % 10 == 0 && width > 1 {
                frac /= 10
                width -= 1
            }
            var div = 1
            for _ in 1..<width { div *= 10 }
            while div > 0 {
                out.byte(UInt8(truncatingIfNeeded: 48 + (frac / div) % 10))
                div /= 10
            }

            let half = Int(m.postHalfHeight[pi])
            out.ascii(",\"image_height\":")
            out.int(half / 2)
            if half % 2 == 1 { out.ascii(".5") }

            out.ascii(",\"image_url\":\"https://firebasestorage.googleapis.com/v0/b/makestagram/o/images%2F")
            key(p)
            out.ascii(".jpg\",\"like_count\":")
            out.int(e.likeCount.isEmpty ? m.likeCount(pi) : e.likeCount[p] ?? m.likeCount(pi))
            out.ascii(",\"poster\":{\"uid\":\"")
            uid(Int32(u))
            out.ascii("\",\"username\":")
            if let stale = e.posterName[p] { out.string(stale) } else { username(u) }
            out.ascii("}}")
        }
        out.byte(UInt8(ascii: "}"))
    }

    private mutating func timeline(_ u: Int) {
        m.timeline(of: u, into: &posts)
        if let edit = e.timeline[Int32(u)] {
            var entries: [(key: [UInt8], poster: Int32)] = posts.compactMap { p in
                edit.removed.contains(p) ? nil : (m.postKeys.bytes(Int(p)), edit.poster[p] ?? m.postOwner[Int(p)])
            }
            entries += edit.added
            if entries.isEmpty { return }
            entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
            userKey(u)
            out.byte(UInt8(ascii: "{"))
            for (i, entry) in entries.enumerated() {
                if i > 0 { out.byte(UInt8(ascii: ",")) }
                out.byte(UInt8(ascii: "\""))
                out.raw(entry.key)
                out.ascii("\":{\"poster_uid\":\"")
                uid(entry.poster)
                out.ascii("\"}")
            }
            out.byte(UInt8(ascii: "}"))
            return
        }
        if posts.isEmpty { return }
        userKey(u)
        out.byte(UInt8(ascii: "{"))
        for (i, p) in posts.enumerated() {
            if i > 0 { out.byte(UInt8(ascii: ",")) }
            out.byte(UInt8(ascii: "\""))
            key(p)
            out.ascii("\":{\"poster_uid\":\"")
            uid(m.postOwner[Int(p)])
            out.ascii("\"}")
        }
        out.byte(UInt8(ascii: "}"))
    }

    private mutating func user(_ u: Int) {
        userKey(u)
        out.ascii("{\"username\":")
        username(u)
        out.byte(UInt8(ascii: "}"))
    }
}
