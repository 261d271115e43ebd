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

    public init(name: String, seconds: Double, parts: [BuildPhase] = []) {
        self.name = name
        self.seconds = seconds
        self.parts = parts
    }
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
        recorded.withLock { $0.append(BuildPhase(name: name, seconds: seconds, parts: parts ?? [])) }
    }
}

/// The time one render thread spent on each kind of work, in nanoseconds: making input keys, making pages' values,
/// rendering templates, writing files and carrying previous ones over.
struct PageWork {
    var keys: UInt64 = 0
    var values: UInt64 = 0
    var templates: UInt64 = 0
    var files: UInt64 = 0

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
    }
}
