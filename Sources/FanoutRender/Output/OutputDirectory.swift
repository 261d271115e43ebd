import Foundation

/// Writes a whole folder atomically: everything goes into a temporary sibling, which replaces the target
/// only when complete, so an interrupted or failed run leaves the previous output as it was.
///
/// A folder Fanout created holds a marker file; Fanout refuses to replace a non-empty folder without one,
/// so pointing `--out` at the wrong place never deletes a user's files.
public struct OutputDirectory: Sendable {
    /// What a build wrote: pages whose content changed (or are new), and pages left as they were.
    public struct Summary: Sendable, Equatable {
        /// Files written because their content is new or changed.
        public var written: [String]
        /// Files whose content did not change; the previous file was kept (hard-linked into the new output).
        public var unchanged: Int
    }

    /// The marker file's name.
    public static let markerName = ".fanout-output"
    /// The folder to produce.
    public let target: URL
    /// The temporary folder being written.
    public let staging: URL
    /// The content hashes of the previous output, when Fanout made it.
    private let previous: BuildManifest
    private let log = WriteLog()

    /// Prepares to replace `path`. Fails, writing nothing, when `path` is a file or a foreign non-empty folder.
    public init(path: String) throws(RenderError) {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw RenderError.output(path: path, message: "exists and is not a folder; nothing was written")
            }
            let contents = (try? fm.contentsOfDirectory(atPath: target.path)) ?? []
            if !contents.isEmpty && !contents.contains(Self.markerName) {
                throw RenderError.output(
                    path: path,
                    message: "refusing to replace this folder: it is not empty and was not created by fanout; "
                        + "choose another --out or empty it first. Nothing was written")
            }
        }
        let parent = target.deletingLastPathComponent()
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw RenderError.output(path: parent.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        staging = parent.appendingPathComponent(".\(target.lastPathComponent).fanout-tmp-\(ProcessInfo.processInfo.processIdentifier)")
        try? fm.removeItem(at: staging)
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
            try Data("Created by fanout. Fanout replaces this folder on the next build.\n".utf8)
                .write(to: staging.appendingPathComponent(Self.markerName))
        } catch {
            throw RenderError.output(path: staging.path, message: "cannot write: \(error.localizedDescription)")
        }
        self.target = target
        previous = BuildManifest(folder: target)
    }

    /// Writes `text` to `relativePath` inside the staging folder, creating subfolders.
    ///
    /// Plain POSIX writes: the staging folder is renamed into place as a whole, so per-file syncing (which
    /// Foundation's `Data.write` may do) would only slow large sites down.
    public func write(_ text: String, to relativePath: String) throws(RenderError) {
        let url = staging.appendingPathComponent(relativePath)
        let folder = url.deletingLastPathComponent()
        if log.needsFolder(folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RenderError.output(path: folder.path, message: "cannot create: \(error.localizedDescription)")
            }
            log.madeFolder(folder.path)
        }
        var text = text
        let hash = text.withUTF8 { BuildManifest.hash($0) }
        // Unchanged since the previous build: keep that file (same inode, same mtime) instead of writing.
        if previous.hashes[relativePath] == hash,
            link(target.appendingPathComponent(relativePath).path, url.path) == 0
        {
            log.record(relativePath, hash, written: false)
            return
        }
        log.record(relativePath, hash, written: true)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw RenderError.output(path: url.path, message: "cannot write: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let failed = text.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += n
            }
            return false
        }
        if failed { throw RenderError.output(path: url.path, message: "cannot write: \(String(cString: strerror(errno)))") }
    }

    /// Moves the finished staging folder into place, replacing the previous output, and says what changed.
    @discardableResult
    public func commit() throws(RenderError) -> Summary {
        let (manifest, summary) = log.result()
        do {
            try Data(manifest.text.utf8).write(to: staging.appendingPathComponent(BuildManifest.fileName))
        } catch {
            throw RenderError.output(path: staging.path, message: "cannot write: \(error.localizedDescription)")
        }
        let fm = FileManager.default
        let old = staging.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).fanout-old-\(ProcessInfo.processInfo.processIdentifier)")
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
            throw RenderError.output(path: target.path, message: "cannot move the new output into place: \(error.localizedDescription)")
        }
        return summary
    }

    /// Deletes the staging folder after a failure; the previous output is untouched.
    public func abandon() {
        try? FileManager.default.removeItem(at: staging)
    }
}

/// What the parallel writers of one build did, collected under a lock.
final class WriteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var manifest = BuildManifest()
    private var written: [String] = []
    private var unchanged = 0
    /// Folders of the staging tree known to exist, so that a build of many pages asks the file system once per
    /// folder rather than once per page.
    private var folders: Set<String> = []

    /// Whether `path` may not exist yet. Two writers may both create it, which `createDirectory` allows.
    func needsFolder(_ path: String) -> Bool {
        lock.withLock { !folders.contains(path) }
    }

    func madeFolder(_ path: String) {
        lock.withLock { _ = folders.insert(path) }
    }

    func record(_ path: String, _ hash: UInt64, written wasWritten: Bool) {
        lock.withLock {
            manifest.record(path, hash)
            if wasWritten { written.append(path) } else { unchanged += 1 }
        }
    }

    func result() -> (BuildManifest, OutputDirectory.Summary) {
        lock.withLock { (manifest, OutputDirectory.Summary(written: written.sorted(), unchanged: unchanged)) }
    }
}
