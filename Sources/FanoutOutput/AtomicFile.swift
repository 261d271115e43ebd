import Foundation

/// One file written atomically: its bytes go to a temporary sibling (``TemporaryName``), which is renamed over
/// the final path by ``commit()``. Until then, a reader sees the previous file or none; a failed or abandoned
/// write leaves nothing behind. Folders above the file are created as needed.
///
/// For small outputs ``write(_:to:)`` does it all at once; large ones (a repaired export) are streamed with
/// ``append(_:)``.
///
/// A path that names something other than a file or a folder (`/dev/null`, `/dev/stdout`, a named pipe:
/// docs/commands.md "How outputs are written") is written in place, as a shell's `>` would: renaming a file over it
/// would replace the device or pipe itself (as root, `--output /dev/null` once left a regular file at `/dev/null`).
/// Such a write cannot be undone, so an abandoned one keeps what it wrote.
public final class AtomicFile {
    /// The final path.
    public let path: String
    /// The sibling written and renamed over `path`; nil when `path` is written in place.
    private let temporary: String?
    private var descriptor: Int32

    /// Starts writing the file at `path`.
    public init(path: String) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        self.path = path
        if Self.isStream(path) {
            temporary = nil
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw OutputError(path: path, message: "cannot write: \(TemporaryName.lastError)")
            }
            return
        }
        let temporary = TemporaryName.sibling(of: url).path
        self.temporary = temporary
        let folder = url.deletingLastPathComponent()
        if let reason = FolderCreation.createAll(folder.path) {
            throw OutputError(path: path, message: "cannot create the folder it goes in: \(reason)")
        }
        TemporarySweep.removeStale(in: folder)
        LiveTemporaries.register(temporary)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = TemporaryName.lastError
            LiveTemporaries.unregister(temporary)
            throw OutputError(path: path, message: "cannot write: \(reason)")
        }
    }

    deinit { abandon() }

    /// Whether `path` (its links followed) is something that exists and is neither a regular file nor a folder: a
    /// character or block device, a pipe or a socket.
    private static func isStream(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Writes `text` to `path` atomically.
    public static func write(_ text: String, to path: String) throws(OutputError) {
        var text = text
        let file = try AtomicFile(path: path)
        var failure: OutputError?
        text.withUTF8 { bytes in
            do throws(OutputError) { try file.append(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
        try file.commit()
    }

    /// Appends `bytes`.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard descriptor >= 0 else {
            throw OutputError(path: path, message: "cannot write: the file is already closed")
        }
        guard FileDescriptor.writeAll(descriptor, bytes) else {
            let reason = TemporaryName.lastError
            abandon()
            throw OutputError(path: path, message: "cannot write: \(reason)")
        }
    }

    /// Closes the file and moves it into place, replacing any previous file at `path`.
    public func commit() throws(OutputError) {
        guard descriptor >= 0 else {
            throw OutputError(path: path, message: "cannot write: the file is already closed")
        }
        let closed = close(descriptor) == 0
        descriptor = -1
        guard let temporary else {
            guard closed else { throw OutputError(path: path, message: "cannot write: \(TemporaryName.lastError)") }
            return
        }
        let path = path
        try LiveTemporaries.whileAlive { (live: inout Set<String>) throws(OutputError) in
            guard closed, rename(temporary, path) == 0 else {
                let reason = TemporaryName.lastError
                unlink(temporary)
                live.remove(temporary)
                throw OutputError(path: path, message: "cannot write: \(reason)")
            }
            live.remove(temporary)
        }
    }

    /// Stops writing and deletes the temporary file; the previous file at `path`, if any, stays.
    public func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        guard let temporary else { return }
        unlink(temporary)
        LiveTemporaries.unregister(temporary)
    }
}

/// Plain POSIX writes: outputs are moved into place whole, so per-write syncing would only slow them down.
enum FileDescriptor {
    /// Writes every byte of `bytes` to `descriptor`, retrying after interruptions; false on an error (`errno`).
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
