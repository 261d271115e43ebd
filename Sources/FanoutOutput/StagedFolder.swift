import FanoutLocked
import Foundation

/// A folder written whole: every file goes into a staging sibling (``TemporaryName``), which replaces the target
/// only when ``commit()`` is called, so an interrupted or failed run leaves the previous folder as it was and
/// ``abandon()`` leaves nothing behind. A run stopped by a signal deletes its staging folder
/// (``TerminationCleanup``); one killed outright leaves it to the next run, which deletes it
/// (``TemporarySweep``).
///
/// Which folder it may replace is its ``Claim``: Fanout's own outputs carry a marker file and a non-empty folder
/// without it is never replaced, so pointing `--out` at the wrong place never deletes a user's files.
///
/// Errors name the folder as the user named it (and the file inside it), never the staging folder.
///
/// Writes may come from several threads at once.
public final class StagedFolder: Sendable {
    /// What the target may be.
    public enum Claim: Sendable {
        /// An output of Fanout's (a site, a table folder): missing, empty, or made by Fanout (it holds the marker).
        /// The new folder holds the marker too.
        case fanoutOutput
        /// A folder of the user's to create (a site project): missing or empty.
        case newFolder
        /// An output of Fanout's published as it is, so that it holds nothing but what it publishes (a site:
        /// docs/site.md "Rebuilds, progress and timings"): missing, empty, marked by the marker beside it
        /// (``besideMarker(of:)``) or by an earlier Fanout's inside it, or `recorded` as Fanout's by the caller (a
        /// site's cache that describes it). The marker beside it is written when the folder is put in place.
        case markedBeside(recorded: Bool)
    }

    /// The marker file's name.
    public static let markerName = ".fanout-output"

    /// The marker beside the output at `target` (``Claim/markedBeside(recorded:)``): `.NAME.fanout-output`, named as
    /// its lock file is (``OutputLock``).
    public static func besideMarker(of target: URL) -> String {
        target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent)\(markerName)").path
    }

    /// What the target may be, and so which marker the folder gets.
    private let claim: Claim
    /// The folder to produce.
    public let target: URL
    /// The folder being written.
    package let staging: URL
    /// The folder as the user named it, for messages.
    private let shownPath: String
    /// Folders of the staging tree known to exist, so that writing many files asks the file system once per
    /// folder rather than once per file. Two writers may both create one, which `mkdir` allows (`EEXIST`).
    private let folders = Locked(Set<String>())

    /// Prepares to replace the folder at `path`. Fails, writing nothing, when `path` is a file or a folder that
    /// `claim` does not allow replacing, or when its parent folder cannot be written.
    public init(path: String, claim: Claim = .fanoutOutput) throws(OutputError) {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OutputError(path: path, message: "exists and is not a folder; nothing was written")
            }
            let contents = (try? fm.contentsOfDirectory(atPath: target.path)) ?? []
            switch claim {
            case .fanoutOutput where !contents.isEmpty && !contents.contains(Self.markerName):
                throw OutputError(
                    path: path,
                    message: "refusing to replace this folder: it is not empty and was not created by fanout; "
                        + "choose another --out or empty it first. Nothing was written")
            case .markedBeside(let recorded)
            where !recorded && !contents.isEmpty && !contents.contains(Self.markerName)
                && access(Self.besideMarker(of: target), F_OK) != 0:
                throw OutputError(
                    path: path,
                    message: "refusing to replace this folder: it is not empty and was not created by fanout; "
                        + "choose another --out or empty it first. Nothing was written")
            case .newFolder where !contents.isEmpty:
                throw OutputError(
                    path: path,
                    message: "the folder is not empty; it must be missing or empty, so "
                        + "that nothing is overwritten. Nothing was written")
            default: break
            }
        }
        let parent = target.deletingLastPathComponent()
        // The folder the output goes in, as the user wrote it (`.` for a bare name).
        // (By hand: Foundation's `deletingLastPathComponent` traps on a one-character name such as `t` on Linux.)
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let shownParent =
            trimmed.lastIndex(of: "/").map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
        if let reason = FolderCreation.createAll(parent.path) {
            throw OutputError(
                path: path,
                message: "cannot create the folder it goes in, \(shownParent): \(reason); nothing was written")
        }
        TemporarySweep.removeStale(in: parent)
        let staging = TemporaryName.sibling(of: target)
        TemporarySweep.remove(staging.path)
        LiveTemporaries.register(staging.path)
        // The output is written next to its final place and moved in whole, so the folder it goes in must take a
        // new folder: on a read-only volume it cannot.
        guard mkdir(staging.path, 0o755) == 0 else {
            let reason = TemporaryName.lastError
            LiveTemporaries.unregister(staging.path)
            throw OutputError(path: path, message: "cannot write in \(shownParent): \(reason); nothing was written")
        }
        self.target = target
        self.staging = staging
        self.claim = claim
        shownPath = path
        if case .fanoutOutput = claim {
            do throws(OutputError) {
                try write("Created by fanout. Fanout replaces this folder on the next build.\n", to: Self.markerName)
            } catch {
                // A disk full from the start: nothing may stay behind.
                abandon()
                throw OutputError(path: path, message: "\(error.message); nothing was written")
            }
        }
    }

    /// Writes `text` to `relativePath`, creating subfolders.
    public func write(_ text: String, to relativePath: String) throws(OutputError) {
        var text = text
        var failure: OutputError?
        text.withUTF8 { bytes in
            do throws(OutputError) { try write(UnsafeRawBufferPointer(bytes), to: relativePath) } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Writes `bytes` to `relativePath`, creating subfolders.
    public func write(_ bytes: UnsafeRawBufferPointer, to relativePath: String) throws(OutputError) {
        let path = try prepare(relativePath)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw failure(relativePath, "cannot write") }
        defer { close(fd) }
        guard FileDescriptor.writeAll(fd, bytes) else { throw failure(relativePath, "cannot write") }
    }

    /// The staging path of `relativePath`, its folder created.
    func prepare(_ relativePath: String) throws(OutputError) -> String {
        let path = staging.path + "/" + relativePath
        guard let slash = relativePath.lastIndex(of: "/") else { return path }
        let folder = relativePath[..<slash]
        if !folders.withLock({ $0.contains(String(folder)) }) {
            if let reason = FolderCreation.createBelow(staging.path, folder) {
                throw failure(String(folder), "cannot create the folder", reason: reason)
            }
            folders.withLock { _ = $0.insert(String(folder)) }
        }
        return path
    }

    /// The error for `relativePath`, named inside the folder as the user named it. When the process is being
    /// stopped by a signal, the failure is the cleanup's doing: waits for the end instead.
    private func failure(_ relativePath: String, _ what: String, reason: String = TemporaryName.lastError)
        -> OutputError
    {
        LiveTemporaries.waitIfTerminating()
        return OutputError(
            path: (shownPath as NSString).appendingPathComponent(relativePath), message: "\(what): \(reason)")
    }

    /// Moves the finished folder into place, replacing the previous one.
    public func commit() throws(OutputError) {
        try markBeside()
        let old = TemporaryName.sibling(of: target, .old)
        let (target, staging, shownPath) = (target.path, staging.path, shownPath)
        var replaced = false
        TemporarySweep.remove(old.path)
        try LiveTemporaries.whileAlive { (live: inout Set<String>) throws(OutputError) in
            func fail() -> OutputError {
                OutputError(
                    path: shownPath, message: "cannot move the new output into place: \(TemporaryName.lastError)")
            }
            var info = stat()
            if lstat(target, &info) == 0 {
                guard rename(target, old.path) == 0 else { throw fail() }
                live.insert(old.path)
                guard rename(staging, target) == 0 else {
                    let error = fail()
                    if rename(old.path, target) == 0 { live.remove(old.path) }
                    throw error
                }
                replaced = true
            } else {
                guard rename(staging, target) == 0 else { throw fail() }
            }
            live.remove(staging)
        }
        if replaced {
            TemporarySweep.remove(old.path)
            LiveTemporaries.unregister(old.path)
        }
    }

    /// Writes the marker beside the target, before the target is put in place, when its claim has one and it is
    /// missing: a run killed after the move leaves a folder the next run may replace.
    private func markBeside() throws(OutputError) {
        guard case .markedBeside = claim else { return }
        let marker = Self.besideMarker(of: target)
        guard access(marker, F_OK) != 0 else { return }
        try AtomicFile.write(
            "Created by fanout: \(target.lastPathComponent) beside this file is Fanout's output, which it replaces on "
                + "the next build.\n", to: marker)
    }

    /// One step of ``commitInPlace(_:)``.
    public enum Step: Sendable, Equatable {
        /// Moves the staged file `from` to `to` in the target, replacing the file there, creating its folders.
        case move(from: String, to: String)
        /// Deletes the target's file, and the folders it leaves empty.
        case delete(String)
    }

    /// Updates the existing target file by file, in the order of `steps`, rather than replacing it whole, then
    /// deletes the staging folder: for a rebuild that changes few of many files (docs/site.md "Rebuilds, progress and
    /// timings"), where moving the whole folder would mean linking every unchanged file into the new one and deleting
    /// the old.
    ///
    /// Each file is replaced atomically (a rename), the set is not: the steps run under the lock a signal's
    /// cleanup takes (``LiveTemporaries``), so Ctrl-C or SIGTERM waits for them to finish, but a run killed
    /// outright in the middle leaves some files new and others old. The caller orders its steps so that the
    /// next run repairs that (a site's cache takes the list of the files about to change first, and its new
    /// manifest last). A staged file not named by a step is dropped with the staging folder.
    public func commitInPlace(_ steps: [Step]) throws(OutputError) {
        try markBeside()
        let (target, staging, shownPath) = (target.path, staging.path, shownPath)
        var made = Set<Substring>()
        try LiveTemporaries.whileAlive { (_: inout Set<String>) throws(OutputError) in
            for step in steps {
                if let limit = Self.killAfterSteps, Self.stepsBefore() == limit { kill(getpid(), SIGKILL) }
                switch step {
                case .move(let from, let to):
                    if let slash = to.lastIndex(of: "/"), !made.contains(to[..<slash]) {
                        if let reason = FolderCreation.createBelow(target, to[..<slash]) {
                            throw OutputError(
                                path: (shownPath as NSString).appendingPathComponent(String(to[..<slash])),
                                message: "cannot create the folder: \(reason)")
                        }
                        made.insert(to[..<slash])
                    }
                    guard rename(staging + "/" + from, target + "/" + to) == 0 else {
                        throw OutputError(
                            path: (shownPath as NSString).appendingPathComponent(to),
                            message: "cannot move the new file into place: \(TemporaryName.lastError)")
                    }
                case .delete(let relativePath):
                    guard unlink(target + "/" + relativePath) == 0 || errno == ENOENT else {
                        throw OutputError(
                            path: (shownPath as NSString).appendingPathComponent(relativePath),
                            message: "cannot delete: \(TemporaryName.lastError)")
                    }
                    // The folders it leaves empty, up to the target itself; a folder still holding files stays.
                    var folder = Substring(relativePath)
                    while let slash = folder.lastIndex(of: "/") {
                        folder = folder[..<slash]
                        made.remove(folder)
                        guard rmdir(target + "/" + folder) == 0 else { break }
                    }
                }
            }
        }
        abandon()
    }

    /// For the test of a run killed in the middle of ``commitInPlace(_:)`` (`IncrementalBuildTests`): the number of
    /// steps after which the process kills itself outright, as a power cut would stop it, counted over every
    /// ``commitInPlace(_:)`` of the process (``stepsDone``: a site's files, then its cache's).
    private static let killAfterSteps = ProcessInfo.processInfo.environment["FANOUT_TEST_KILL_AFTER_STEPS"].flatMap {
        Int($0)
    }

    private static let stepsDone = Locked(0)

    /// The number of steps done before this one, counting it done.
    private static func stepsBefore() -> Int {
        stepsDone.withLock { done in
            defer { done += 1 }
            return done
        }
    }

    /// Deletes the staging folder after a failure; the previous folder is untouched.
    public func abandon() {
        TemporarySweep.remove(staging.path)
        LiveTemporaries.unregister(staging.path)
    }
}
