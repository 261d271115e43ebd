import Dispatch
import FanoutCore
import FanoutJSON
import Synchronization

/// A place where a second walker can take over an export: just after a member of the top-level section
/// whose trie node is `node`.
struct SplitPoint: Sendable {
    let position: JSONReader.Position
    let node: Int
}

/// Reads a large export with two walkers at once, one per core: the first reads from the start, the second
/// skims ahead to a split point near the middle and reads from there to the end; the second's facts are then
/// appended to the first's (``FactSink/append(_:)``).
///
/// The result is exactly what one walker would have built: the split point is a real boundary (the first walker,
/// validating everything before it, checks it ends a member there; the skimmer only guesses it, see
/// ``TreeWalker/findSplit(in:near:)``), keys are renumbered into
/// first-seen order, and facts keep file order. Errors are the ones a single walker would report: the first
/// walker's if it fails, else the second's, whose reader resumes in the same state at the same offset.
enum SplitRead {
    /// Exports smaller than this are read by one walker: splitting costs a skim and a merge.
    static let minimumBytes = 48 << 20

    /// Where the second walker should take over, as a fraction of the export: near the middle. The second
    /// walker skims the first part before it starts reading, but the skim is fast (64 bytes a step) and a
    /// Makestagram export's first half (likes and follows: a key every few dozen bytes) is slower to read than
    /// its second (timelines); at 0.49 both walkers of the 110 MB and 1.1 GB exports used the same CPU time.
    static let splitFraction = 0.49

    /// Reads `buffer` with `first` and the walker `second`, leaving the facts of both in
    /// `first`. `target` is the offset near which to split (tests choose it; see ``splitFraction``).
    ///
    /// When the first walker reaches the target before the second walker's thread has started, it reads on
    /// alone rather than wait for a thread that may not come soon; `waitForSecondWalker` makes it wait instead,
    /// so that tests split where they ask to whatever the machine's load.
    static func run<Sink: FactSink>(
        _ first: inout TreeWalker<Sink>, second: TreeWalker<Sink>, buffer: UnsafeRawBufferPointer, target: Int,
        waitForSecondWalker: Bool = false
    ) throws(JSONSyntaxError) {
        let handoff = SplitHandoff(target: target, waitForSecondWalker: waitForSecondWalker)
        let second = SecondWalker(second, handoff: handoff)
        first.handoff = handoff
        nonisolated(unsafe) let buffer = buffer
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { second.run(buffer) }
        do throws(JSONSyntaxError) {
            try first.run(buffer)
        } catch {
            handoff.cancel()
            done.wait()
            throw error
        }
        if !first.stoppedAtSplit { handoff.cancel() }
        done.wait()
        first.handoff = nil
        guard first.stoppedAtSplit else { return }
        if let error = second.error { throw error }
        guard var walker = second.takeWalker() else {
            preconditionFailure("the first walker stopped at a split point the second did not read")
        }
        first.append(&walker)
    }
}

/// The second walker of a split read, run on its own thread; its outcome is read after that thread is done.
private final class SecondWalker<Sink: FactSink>: @unchecked Sendable {
    /// The walker, while it waits to run and once it read its part without error; nil while it runs, when it
    /// found no split point or failed, and after ``takeWalker()``.
    private var walker: TreeWalker<Sink>?
    private let handoff: SplitHandoff
    /// Why the walker failed.
    private(set) var error: JSONSyntaxError?

    init(_ walker: TreeWalker<Sink>, handoff: SplitHandoff) {
        self.walker = walker
        self.handoff = handoff
    }

    func run(_ buffer: UnsafeRawBufferPointer) {
        guard handoff.secondWalkerStarts(), var walker = walker.take() else { return }
        let split = walker.findSplit(in: buffer, near: handoff.target)
        handoff.decide(split)
        guard let split else { return }
        walker.handoff = handoff
        do throws(JSONSyntaxError) {
            try walker.resume(buffer, at: split)
            self.walker = walker
        } catch {
            self.error = error
        }
    }

    /// The walker that read its part, moved out: the merge renumbers its facts in place, and a second reference
    /// to their arrays (this object's) would make it copy every one of them first.
    func takeWalker() -> TreeWalker<Sink>? { walker.take() }
}

/// What the two walkers of a split read tell each other.
final class SplitHandoff: @unchecked Sendable {
    /// The offset near which the second walker looks for a split point.
    let target: Int
    private let state = Atomic<Int>(Stage.pending)
    private let decided = DispatchSemaphore(value: 0)
    /// Whether the first walker waits for the second walker's thread to start (see ``SplitRead/run``).
    private let waitsForSecondWalker: Bool
    /// The split point, written by the second walker before it signals `decided`.
    private var split: SplitPoint?
    private let cancelled = Atomic<Bool>(false)
    private let secondBytes = Atomic<Int>(0)

    private enum Stage {
        static let pending = 0, skimming = 1, abandoned = 2
    }

    init(target: Int, waitForSecondWalker: Bool = false) {
        self.target = target
        self.waitsForSecondWalker = waitForSecondWalker
    }

    /// Called by the second walker when its thread starts; false when the first walker already went on alone.
    func secondWalkerStarts() -> Bool {
        state.compareExchange(expected: Stage.pending, desired: Stage.skimming, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Records the split point the second walker found (nil: none), and wakes the first walker.
    func decide(_ split: SplitPoint?) {
        self.split = split
        decided.signal()
    }

    /// Called by the first walker when it reaches the target: the split point, waiting for the skimmer if it
    /// is still at work; nil when there is none, or when the second walker's thread has not even started
    /// (then the first walker reads on alone rather than wait for a thread that may not come).
    func splitForFirstWalker() -> SplitPoint? {
        if !waitsForSecondWalker,
            state.compareExchange(expected: Stage.pending, desired: Stage.abandoned, ordering: .acquiringAndReleasing)
                .exchanged
        {
            return nil
        }
        decided.wait()
        return split
    }

    /// The first walker did not meet the split point where expected and read on alone.
    func reject() { cancel() }

    /// Tells the second walker to stop: its facts will not be used.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Progress of the second walker, for the first walker's progress reports.
    func secondWalkerRead(_ bytes: Int) { secondBytes.store(bytes, ordering: .relaxed) }

    var bytesReadBySecondWalker: Int { secondBytes.load(ordering: .relaxed) }
}
