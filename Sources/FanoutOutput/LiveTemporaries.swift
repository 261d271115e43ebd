import FanoutLocked
import Foundation

/// The temporary files and folders this process is writing, so that a run stopped by a signal removes them
/// instead of leaving `.NAME.fanout-tmp-PID` behind (see ``TerminationCleanup``).
///
/// ``AtomicFile`` and ``StagedFolder`` register each temporary before creating it and unregister it once it is
/// moved into place or deleted. Moves into place happen under the registry's lock, so the cleanup never sees an
/// output half swapped (the previous one moved aside, the new one not yet in its place).
enum LiveTemporaries {
    private struct State {
        var paths: Set<String> = []
        /// Set once the cleanup has started: from then on nothing is put in place.
        var terminating = false
    }

    private static let state = Locked(State())

    /// Records `path` as a temporary of this process.
    static func register(_ path: String) {
        state.withLock { _ = $0.paths.insert(path) }
    }

    /// Forgets `path`: it was moved into place or deleted.
    static func unregister(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    /// Runs `body` (a move into place) unless the cleanup has started, without the cleanup running meanwhile;
    /// `body` updates the registered paths as it moves them. When the cleanup has started, waits for the end.
    static func whileAlive(_ body: (inout Set<String>) throws(OutputError) -> Void) throws(OutputError) {
        var failure: OutputError?
        let alive = state.withLock { state in
            guard !state.terminating else { return false }
            do throws(OutputError) { try body(&state.paths) } catch { failure = error }
            return true
        }
        if !alive { waitIfTerminating() }
        if let failure { throw failure }
    }

    /// When the cleanup has started, waits for the process to end rather than report the failures the
    /// cleanup causes (a staging folder gone under a writer): the signal decides how the run ends.
    static func waitIfTerminating() {
        guard state.withLock({ $0.terminating }) else { return }
        while true { pause() }
    }

    /// Deletes every registered temporary and stops anything from being put in place: for the signal handler.
    ///
    /// A folder is first renamed to a `del` sibling, atomically, so that writers still busy in it fail rather
    /// than add to it (a writer never creates the staging folder itself, only folders inside it), and then
    /// deleted; a file is unlinked (a writer holding it open writes on into nothing).
    static func removeAll() {
        let paths = state.withLock { state in
            state.terminating = true
            return state.paths
        }
        for path in paths.sorted() { TemporarySweep.remove(path) }
    }
}
