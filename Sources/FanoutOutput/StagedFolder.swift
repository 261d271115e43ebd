import FanoutCore
import Foundation

/// A folder written whole: every file goes into a staging sibling (``TemporaryName``), which replaces the target
/// only when ``commit()`` is called, so an interrupted or failed run leaves the previous folder as it was and
/// ``abandon()`` leaves nothing behind.
///
/// Which folder it may replace is its ``Claim``: Fanout's own outputs carry a marker file and a non-empty folder
/// without it is never replaced, so pointing `--out` at the wrong place never deletes a user's files.
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
    }

    /// The marker file's name.
    public static let markerName = ".fanout-output"
    /// The folder to produce.
    public let target: URL
    /// The folder being written.
    package let staging: URL
    /// Folders of the staging tree known to exist, so that writing many files asks the file system once per
    /// folder rather than once per file. Two writers may both create one, which `createDirectory` allows.
    private let folders = Locked(Set<String>())

    /// Prepares to replace the folder at `path`. Fails, writing nothing, when `path` is a file or a folder that
    /// `claim` does not allow replacing.
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
            case .newFolder where !contents.isEmpty:
                throw OutputError(path: path, message: "the folder is not empty; it must be missing or empty, so "
                    + "that nothing is overwritten. Nothing was written")
            default: break
            }
        }
        let parent = target.deletingLastPathComponent()
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: parent.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        staging = TemporaryName.sibling(of: target)
        try? fm.removeItem(at: staging)
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
            if claim == .fanoutOutput {
                try Data("Created by fanout. Fanout replaces this folder on the next build.\n".utf8)
                    .write(to: staging.appendingPathComponent(Self.markerName))
            }
        } catch {
            throw OutputError(path: staging.path, message: "cannot write: \(error.localizedDescription)")
        }
        self.target = target
    }

    /// Writes `text` to `relativePath`, creating subfolders.
    public func write(_ text: String, to relativePath: String) throws(OutputError) {
        var text = text
        var failure: OutputError?
        text.withUTF8 { bytes in
            do throws(OutputError) { try write(UnsafeRawBufferPointer(bytes), to: relativePath) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes `bytes` to `relativePath`, creating subfolders.
    public func write(_ bytes: UnsafeRawBufferPointer, to relativePath: String) throws(OutputError) {
        let url = try prepare(relativePath)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw OutputError(path: url.path, message: "cannot write: \(TemporaryName.lastError)") }
        defer { close(fd) }
        guard FileDescriptor.writeAll(fd, bytes) else {
            throw OutputError(path: url.path, message: "cannot write: \(TemporaryName.lastError)")
        }
    }

    /// Hard-links the file at `relativePath` of the current target into the new folder, keeping it as it was
    /// (same inode, same modification time); false when there is no such file or it cannot be linked.
    package func keepPrevious(_ relativePath: String) throws(OutputError) -> Bool {
        let url = try prepare(relativePath)
        return link(target.appendingPathComponent(relativePath).path, url.path) == 0
    }

    /// The staging URL of `relativePath`, its folder created.
    func prepare(_ relativePath: String) throws(OutputError) -> URL {
        let url = staging.appendingPathComponent(relativePath)
        let folder = url.deletingLastPathComponent()
        if !folders.withLock({ $0.contains(folder.path) }) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw OutputError(path: folder.path, message: "cannot create: \(error.localizedDescription)")
            }
            folders.withLock { _ = $0.insert(folder.path) }
        }
        return url
    }

    /// Moves the finished folder into place, replacing the previous one.
    public func commit() throws(OutputError) {
        let fm = FileManager.default
        let old = TemporaryName.sibling(of: target, "old")
        do {
            if fm.fileExists(atPath: target.path) {
                try? fm.removeItem(at: old)
                try fm.moveItem(at: target, to: old)
                try fm.moveItem(at: staging, to: target)
                try? fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: staging, to: target)
            }
        } catch {
            throw OutputError(path: target.path, message: "cannot move the new output into place: \(error.localizedDescription)")
        }
    }

    /// Deletes the staging folder after a failure; the previous folder is untouched.
    public func abandon() {
        try? FileManager.default.removeItem(at: staging)
    }
}
