import Dispatch
import FanoutCore
import FanoutLocked

/// How long a part of a build took, for `build -v` (docs/site.md "Rebuilds, progress and timings").
public struct BuildPhase: Sendable, Equatable {
    public var name: String
    /// Wall-clock seconds.
    public var seconds: Double
    /// What the phase's threads spent their time on, summed over threads (the page phase: `keys`, `values`,
    /// `templates`, `files`); empty for a phase of one thread.
    public var parts: [BuildPhase] = []
    /// The page phase's time by kind of page (``PageDeclaration/name``), summed over threads, with the pages of each
    /// (``pages``): what a rebuild's rate is compared by with a full build's, page for page of the same kinds
    /// (docs/performance.md "Rebuilds").
    public var byKind: [BuildPhase] = []
    /// The pages a kind's time (``byKind``) was spent on.
    public var pages = 0

    public init(name: String, seconds: Double, parts: [BuildPhase] = [], pages: Int = 0) {
        self.name = name
        self.seconds = seconds
        self.parts = parts
        self.pages = pages
    }
}

/// How long one page took to make and write, summed over its parts (``SiteBuilder/recordsPageTimes``).
public struct PageTime: Sendable, Equatable {
    /// The page's path in the site.
    public let path: String
    public let seconds: Double
}

/// The phases of one build, in order.
final class BuildClock: Sendable {
    private let recorded = Locked([BuildPhase]())

    var phases: [BuildPhase] { recorded.value }

    var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = now
        defer { record(name, seconds: now - start) }
        return try body()
    }

    func record(_ name: String, seconds: Double, work: PageWork? = nil) {
        let parts = work.map { work in
            [("keys", work.keys), ("values", work.values), ("templates", work.templates), ("files", work.files)].map {
                name, nanoseconds in
                BuildPhase(name: name, seconds: Double(nanoseconds) / 1e9)
            }
        }
        var phase = BuildPhase(name: name, seconds: seconds, parts: parts ?? [])
        if let work {
            phase.byKind = work.byKind.indices.compactMap { kind in
                work.kindPages[kind] == 0
                    ? nil
                    : BuildPhase(
                        name: PageDeclarations.all[kind].name, seconds: Double(work.byKind[kind]) / 1e9,
                        pages: work.kindPages[kind])
            }
        }
        recorded.withLock { $0.append(phase) }
    }
}

/// The time one render thread spent on each kind of work, in nanoseconds: making input keys, making pages' values,
/// rendering templates, writing files and carrying previous ones over.
struct PageWork {
    var keys: UInt64 = 0
    var values: UInt64 = 0
    var templates: UInt64 = 0
    var files: UInt64 = 0
    /// By kind of page (a position in ``PageDeclarations/all``), the time its pages took all told, and their number.
    var byKind: [UInt64] = []
    var kindPages: [Int] = []
    /// Each page's time, when recorded; nil when not.
    var times: [PageTime]?

    /// Counts a page of kind `kind` made in `nanoseconds`.
    mutating func page(kind: Int, nanoseconds: UInt64) {
        if byKind.isEmpty {
            byKind = Array(repeating: 0, count: PageDeclarations.all.count)
            kindPages = Array(repeating: 0, count: PageDeclarations.all.count)
        }
        byKind[kind] += nanoseconds
        kindPages[kind] += 1
    }

    mutating func timed<T>(_ part: WritableKeyPath<PageWork, UInt64>, _ body: () throws -> T) rethrows -> T {
        let start = Self.now()
        defer { self[keyPath: part] += Self.now() - start }
        return try body()
    }

    /// The clock ``timed(_:_:)`` reads, for a caller that times consecutive parts from one reading to the next.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    mutating func add(_ other: PageWork) {
        keys += other.keys
        values += other.values
        templates += other.templates
        files += other.files
        // Appended in place: a full build merges thousands of ranges, and a new array each time copied all so far.
        if let more = other.times {
            if times == nil { times = more } else { times!.append(contentsOf: more) }
        }
        if byKind.isEmpty {
            (byKind, kindPages) = (other.byKind, other.kindPages)
        } else if !other.byKind.isEmpty {
            for kind in byKind.indices {
                byKind[kind] += other.byKind[kind]
                kindPages[kind] += other.kindPages[kind]
            }
        }
    }
}
