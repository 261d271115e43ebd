import FanoutCore
import FanoutOutput
import Foundation

/// The site's folder being written: a ``StagedFolder`` that keeps, rather than rewrites, every page whose content
/// is the same as in the previous build (by the content hashes of ``BuildManifest``).
public struct SiteOutput: Sendable {
    /// What a build wrote: pages whose content changed (or are new), and pages left as they were.
    public struct Summary: Sendable, Equatable {
        /// Files written because their content is new or changed.
        public var written: [String]
        /// Files whose content did not change; the previous file was kept (hard-linked into the new output).
        public var unchanged: Int
    }

    /// The folder being written.
    package let folder: StagedFolder
    /// The content hashes of the previous output, when Fanout made it.
    private let previous: BuildManifest
    private let log = Locked(WriteLog())

    /// Prepares to replace the site at `path`; fails, writing nothing, when `path` is not Fanout's to replace.
    package init(path: String) throws(OutputError) {
        folder = try StagedFolder(path: path)
        previous = BuildManifest(folder: folder.target)
    }

    /// Writes `text` to `relativePath`, or keeps the previous build's file when its content is the same.
    package func write(_ text: String, to relativePath: String) throws(OutputError) {
        var text = text
        let hash = text.withUTF8 { BuildManifest.hash($0) }
        if previous.hashes[relativePath] == hash, try folder.keepPrevious(relativePath) {
            log.withLock { $0.record(relativePath, hash, written: false) }
            return
        }
        log.withLock { $0.record(relativePath, hash, written: true) }
        try folder.write(text, to: relativePath)
    }

    /// Writes the manifest and moves the finished site into place, replacing the previous one.
    @discardableResult
    package func commit() throws(OutputError) -> Summary {
        let (manifest, summary) = log.withLock { log in
            (log.manifest, Summary(written: log.written.sorted(), unchanged: log.unchanged))
        }
        try folder.write(manifest.text, to: BuildManifest.fileName)
        try folder.commit()
        return summary
    }

    /// Deletes the staging folder after a failure; the previous site is untouched.
    package func abandon() { folder.abandon() }
}

/// What the parallel writers of one build did.
private struct WriteLog {
    var manifest = BuildManifest()
    var written: [String] = []
    var unchanged = 0

    mutating func record(_ path: String, _ hash: UInt64, written wasWritten: Bool) {
        manifest.record(path, hash)
        if wasWritten { written.append(path) } else { unchanged += 1 }
    }
}
