import FanoutGenerate
import Foundation

/// Test helpers: an independent oracle for the Makestagram export rules,
/// built only on Foundation's JSONSerialization plus a tiny strict scanner.

func generate(_ options: ExportGenerator.Options) -> (bytes: [UInt8], defects: [ExportGenerator.Defect], chunks: [Int])
{
    var bytes: [UInt8] = []
    var chunks: [Int] = []
    let defects = ExportGenerator(options).write { chunk in
        bytes.append(contentsOf: chunk)
        chunks.append(chunk.count)
    }
    return (bytes, defects, chunks)
}

func parse(_ bytes: [UInt8]) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
    guard let root = object as? [String: Any] else { throw OracleError.notAnObject }
    return root
}

enum OracleError: Error { case notAnObject }

/// One broken rule at one database path.
struct Violation: Hashable, CustomStringConvertible, Comparable {
    let kind: String
    let path: String
    var description: String { "\(kind) @ \(path)" }
    static func < (a: Violation, b: Violation) -> Bool { (a.kind, a.path) < (b.kind, b.path) }
}

let pushAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
let endMillis: Int64 = 1_490_140_800_000  // 2017-03-22T00:00:00Z
let dayMillis: Int64 = 86_400_000

func pushMillis(_ key: String) -> Int64? {
    var ms: Int64 = 0
    for c in key.prefix(8) {
        guard let i = pushAlphabet.firstIndex(of: c) else { return nil }
        ms = ms * 64 + Int64(i)
    }
    return ms
}

func isPushID(_ s: String) -> Bool {
    s.count == 20 && s.allSatisfy { pushAlphabet.contains($0) }
}

func isUID(_ s: String) -> Bool {
    s.utf8.count == 28
        && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
}

func isUsername(_ s: String) -> Bool {
    !s.isEmpty && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 122) || $0 == 95 }
}

func object(_ v: Any?) -> [String: Any]? { v as? [String: Any] }

func number(_ v: Any?) -> NSNumber? {
    if let n = v as? NSNumber { return n }
    if let d = v as? Double { return NSNumber(value: d) }
    if let n = v as? Int { return NSNumber(value: n) }
    return nil
}

func isTrue(_ v: Any?) -> Bool {
    if let b = v as? Bool { return b }
    return false
}

/// Every rule of a consistent export, checked independently of the generator.
/// Defect kinds use the generator's names and paths; anything else reported
/// here (format, shape, ...) is never expected.
func violations(_ root: [String: Any]) -> Set<Violation> {
    var out = Set<Violation>()
    func flag(_ kind: String, _ path: String) { out.insert(Violation(kind: kind, path: path)) }

    if Set(root.keys) != ["users", "posts", "postLikes", "following", "followers", "timeline"] {
        flag("root-keys", "")
    }
    let users = object(root["users"]) ?? [:]
    let postsRoot = object(root["posts"]) ?? [:]
    let likesRoot = object(root["postLikes"]) ?? [:]
    let following = object(root["following"]) ?? [:]
    let followers = object(root["followers"]) ?? [:]
    let timeline = object(root["timeline"]) ?? [:]

    // users
    var usernames: [String: String] = [:]
    var seenNames = Set<String>()
    for (u, v) in users {
        if !isUID(u) { flag("uid-format", "users/\(u)") }
        guard let o = object(v), o.count == 1, let name = o["username"] as? String else {
            flag("user-shape", "users/\(u)")
            continue
        }
        if !isUsername(name) { flag("username-format", "users/\(u)/username") }
        if !seenNames.insert(name).inserted { flag("username-duplicate", "users/\(u)/username") }
        usernames[u] = name
    }

    // posts
    var owner: [String: String] = [:]
    var postKeysByUser: [String: [String]] = [:]
    var likeCounts: [(key: String, path: String, value: Int)] = []
    let allowed: Set<String> = ["caption", "created_at", "image_height", "image_url", "like_count", "poster"]
    for (u, v) in postsRoot {
        if users[u] == nil { flag("post-unknown-owner", "posts/\(u)") }
        guard let posts = object(v), !posts.isEmpty else {
            flag("post-shape", "posts/\(u)")
            continue
        }
        postKeysByUser[u] = Array(posts.keys)
        for (k, pv) in posts {
            let path = "posts/\(u)/\(k)"
            if !isPushID(k) { flag("push-id-format", path) }
            if owner[k] != nil { flag("post-key-duplicate", path) }
            owner[k] = u
            guard let p = object(pv), Set(p.keys).isSubset(of: allowed), p.count >= allowed.count - 1 else {
                flag("post-shape", path)
                continue
            }
            if let caption = p["caption"], (caption as? String)?.isEmpty != false { flag("caption", path + "/caption") }
            if let created = number(p["created_at"])?.doubleValue, let ms = pushMillis(k) {
                if Int64((created * 1000).rounded(.down)) != ms { flag("created-at", path + "/created_at") }
                if ms >= endMillis || ms < endMillis - 731 * dayMillis {
                    flag("created-at-range", path + "/created_at")
                }
            } else {
                flag("created-at", path + "/created_at")
            }
            if let h = number(p["image_height"])?.doubleValue, h > 0 {} else { flag("image-height", path) }
            if p["image_url"] as? String
                != "https://firebasestorage.googleapis.com/v0/b/makestagram/o/images%2F\(k).jpg"
            {
                flag("image-url", path + "/image_url")
            }
            if let n = number(p["like_count"]), Double(n.intValue) == n.doubleValue {
                likeCounts.append((k, path + "/like_count", n.intValue))
            } else {
                flag("like-count-type", path + "/like_count")
            }
            guard let poster = object(p["poster"]), poster.count == 2 else {
                flag("poster-shape", path + "/poster")
                continue
            }
            if poster["uid"] as? String != u { flag("poster-uid", path + "/poster/uid") }
            if poster["username"] as? String != usernames[u] { flag("poster-copy-stale", path + "/poster/username") }
        }
    }

    // postLikes
    for (k, v) in likesRoot {
        guard let likers = object(v), !likers.isEmpty else {
            flag("likes-shape", "postLikes/\(k)")
            continue
        }
        if owner[k] == nil { flag("like-unknown-post", "postLikes/\(k)") }
        for (l, t) in likers {
            if !isTrue(t) { flag("like-value", "postLikes/\(k)/\(l)") }
            if users[l] == nil { flag("like-unknown-user", "postLikes/\(k)/\(l)") }
        }
    }
    for c in likeCounts {
        if c.value < 0 {
            flag("like-count-negative", c.path)
        } else if c.value != (object(likesRoot[c.key])?.count ?? 0) {
            flag("like-count-mismatch", c.path)
        }
    }

    // following / followers
    for (a, v) in following {
        if users[a] == nil { flag("follow-unknown-user", "following/\(a)") }
        guard let set = object(v), !set.isEmpty else {
            flag("follow-shape", "following/\(a)")
            continue
        }
        for (b, t) in set {
            if !isTrue(t) { flag("follow-value", "following/\(a)/\(b)") }
            if a == b { flag("self-follow", "following/\(a)/\(b)") }
            if users[b] == nil { flag("follow-unknown-user", "following/\(a)/\(b)") }
            if object(followers[b])?[a] == nil { flag("follow-mirror-missing", "followers/\(b)/\(a)") }
        }
    }
    for (b, v) in followers {
        if users[b] == nil { flag("follow-unknown-user", "followers/\(b)") }
        guard let set = object(v), !set.isEmpty else {
            flag("follow-shape", "followers/\(b)")
            continue
        }
        for (a, t) in set {
            if !isTrue(t) { flag("follow-value", "followers/\(b)/\(a)") }
            if a == b { flag("self-follow", "followers/\(b)/\(a)") }
            if users[a] == nil { flag("follow-unknown-user", "followers/\(b)/\(a)") }
            if object(following[a])?[b] == nil { flag("follow-mirror-missing", "following/\(a)/\(b)") }
        }
    }

    // timeline
    for (u, v) in timeline {
        if users[u] == nil { flag("timeline-unknown-owner", "timeline/\(u)") }
        if object(v)?.isEmpty != false { flag("timeline-shape", "timeline/\(u)") }
    }
    for u in users.keys {
        var expected = Set(postKeysByUser[u] ?? [])
        for f in Array(object(following[u])?.keys ?? [String: Any]().keys) {
            expected.formUnion(postKeysByUser[f] ?? [])
        }
        let actual = object(timeline[u]) ?? [:]
        for k in expected where actual[k] == nil {
            flag("timeline-missing", "timeline/\(u)/\(k)")
        }
        for (k, e) in actual {
            let path = "timeline/\(u)/\(k)"
            guard let entry = object(e), entry.count == 1, let poster = entry["poster_uid"] as? String else {
                flag("timeline-shape", path)
                continue
            }
            if let realOwner = owner[k] {
                if !expected.contains(k) { flag("timeline-stale", path) }
                if poster != realOwner { flag("timeline-poster", path + "/poster_uid") }
            } else {
                flag("timeline-unknown-post", path)
                if users[poster] == nil { flag("timeline-poster-unknown", path + "/poster_uid") }
            }
        }
    }
    return out
}

/// A strict RFC 8259 scanner that also checks every object's keys are in
/// strictly increasing byte order (sorted output, hence no duplicate keys).
struct StrictJSON {
    enum Failure: Error {
        case syntax(Int)
        case unsorted(Int)
    }

    private let b: [UInt8]
    private var i = 0
    private(set) var objects = 0

    init(_ bytes: [UInt8]) { b = bytes }

    static func validate(_ bytes: [UInt8]) throws -> Int {
        var s = StrictJSON(bytes)
        try s.value()
        guard s.i == bytes.count else { throw Failure.syntax(s.i) }
        return s.objects
    }

    private func peek() -> UInt8? { i < b.count ? b[i] : nil }

    private mutating func expect(_ c: UInt8) throws {
        guard peek() == c else { throw Failure.syntax(i) }
        i += 1
    }

    private mutating func value() throws {
        switch peek() {
        case UInt8(ascii: "{"): try objectValue()
        case UInt8(ascii: "["): try arrayValue()
        case UInt8(ascii: "\""): _ = try stringValue()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try numberValue()
        }
    }

    private mutating func literal(_ s: String) throws {
        for c in s.utf8 { try expect(c) }
    }

    private mutating func objectValue() throws {
        objects += 1
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            i += 1
            return
        }
        var previous: ArraySlice<UInt8>?
        while true {
            let start = i
            let key = try stringValue()
            if let previous, !previous.lexicographicallyPrecedes(key) { throw Failure.unsorted(start) }
            previous = key
            try expect(UInt8(ascii: ":"))
            try value()
            if peek() == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    private mutating func arrayValue() throws {
        try expect(UInt8(ascii: "["))
        if peek() == UInt8(ascii: "]") {
            i += 1
            return
        }
        while true {
            try value()
            if peek() == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return
        }
    }

    /// Returns the raw (still escaped) contents.
    private mutating func stringValue() throws -> ArraySlice<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = i
        while let c = peek() {
            if c == UInt8(ascii: "\"") {
                i += 1
                return b[start..<(i - 1)]
            }
            if c < 0x20 { throw Failure.syntax(i) }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard let e = peek() else { throw Failure.syntax(i) }
                if e == UInt8(ascii: "u") {
                    for k in 1...4 {
                        guard i + k < b.count, Int(String(UnicodeScalar(b[i + k])), radix: 16) != nil else {
                            throw Failure.syntax(i)
                        }
                    }
                    i += 5
                    continue
                }
                guard Array("\"\\/bfnrt".utf8).contains(e) else { throw Failure.syntax(i) }
            }
            i += 1
        }
        throw Failure.syntax(i)
    }

    private mutating func numberValue() throws {
        func digits() throws {
            guard let c = peek(), c >= 48, c <= 57 else { throw Failure.syntax(i) }
            while let c = peek(), c >= 48, c <= 57 { i += 1 }
        }
        if peek() == UInt8(ascii: "-") { i += 1 }
        if peek() == UInt8(ascii: "0") { i += 1 } else { try digits() }
        if peek() == UInt8(ascii: ".") {
            i += 1
            try digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            i += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
            try digits()
        }
    }
}

/// 64-bit FNV-1a, for golden-output checks.
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for c in bytes { h = (h ^ UInt64(c)) &* 0x0000_0100_0000_01B3 }
    return h
}
