#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The path segments of many documents, one after another in one run of bytes: no string or array per segment.
struct SegmentList {
    private var bytes: [UInt8] = []
    /// Where each segment ends in `bytes`; it starts where the one before it ends.
    private var ends: [Int] = []

    var count: Int { ends.count }

    mutating func append(_ segment: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: segment)
        ends.append(bytes.count)
    }

    mutating func append(_ segment: String) {
        bytes.append(contentsOf: segment.utf8)
        ends.append(bytes.count)
    }

    /// A numeric ID, as Firestore names it: `__id7__`.
    mutating func append(numbered id: Int64) {
        bytes.append(contentsOf: "__id".utf8)
        EntityJSON.appendDecimal(id, to: &bytes)
        bytes.append(contentsOf: "__".utf8)
        ends.append(bytes.count)
    }

    /// Drops every segment, keeping the storage for the next ones.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Drops the segments from index `count` on.
    mutating func removeSegments(from count: Int) {
        bytes.removeSubrange((count == 0 ? 0 : ends[count - 1])...)
        ends.removeSubrange(count...)
    }

    /// Segment `index` as a string.
    func string(_ index: Int) -> String {
        String(decoding: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]], as: UTF8.self)
    }

    /// Calls `body` with a function that gives segment `index`'s bytes, valid while `body` runs.
    func withSegments<Result>(_ body: ((_ index: Int) -> UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes { raw in
            ends.withUnsafeBufferPointer { ends in
                body { index in
                    UnsafeRawBufferPointer(rebasing: raw[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
                }
            }
        }
    }

    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Whether `a` sorts before `b` by their bytes (as `String.utf8`'s `lexicographicallyPrecedes` sorts them).
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return order < 0 }
        }
        return a.count < b.count
    }
}
