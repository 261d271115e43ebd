import Foundation

/// One writer per output: an exclusive `flock` on a lock file beside the output (`.NAME.fanout-lock`), taken before
/// a run reads what the output holds (a site's previous manifest, a history's records) and kept until it has written
/// it. A second run waits for the first, saying so once, then reads what the first wrote (docs/commands.md "How
/// outputs are written").
///
/// The lock file is deleted when the lock is let go, so that no run leaves one behind; a run that took it meanwhile
/// holds a lock on a file no longer there, so each run checks after locking that the path still names the file it
/// locked, and locks again otherwise. A run killed outright leaves the file, which the kernel has unlocked, to the
/// next run, which locks and deletes it.
public final class OutputLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32
    /// The folders the lock file's folder was missing and made for it, innermost first: deleted again on letting go
    /// when they are still empty, so that a run that fails before writing leaves nothing.
    private let made: [String]

    /// Locks the output at `outputPath`, a file or a folder, waiting while another run holds it; `waiting` is
    /// told once, with who holds it, before the wait. Where no lock file can be made (a read-only folder), no
    /// output can be written either, and nothing is locked: the writer reports why it cannot write.
    public init(_ outputPath: String, waiting: (String) -> Void) {
        let target = URL(fileURLWithPath: outputPath).standardizedFileURL
        let folder = target.deletingLastPathComponent().path
        path = (folder as NSString).appendingPathComponent(".\(target.lastPathComponent)\(Self.suffix)")
        var info = stat()
        // A device or pipe (`/dev/null`) is written in place and has no output to guard, nor a folder to lock in.
        if stat(target.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            (descriptor, made) = (-1, [])
            return
        }
        var missing: [String] = [], probe = folder
        while !probe.isEmpty, probe != "/", stat(probe, &info) != 0, errno == ENOENT {
            missing.append(probe)
            probe = (probe as NSString).deletingLastPathComponent
        }
        // A folder that cannot be made, or takes no lock file (read-only, full), takes no output either: the
        // writer says why, as it would without the lock.
        guard FolderCreation.createAll(folder) == nil else {
            (descriptor, made) = (-1, [])
            return
        }
        var told = false
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                (descriptor, made) = (-1, [])
                for folder in missing where rmdir(folder) != 0 { break }
                return
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                if !told {
                    told = true
                    waiting(Self.holder(fd).map { "process \($0)" } ?? "another process")
                }
                while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            }
            // The file locked must still be the one at the path: the run before may have deleted it on letting go.
            var locked = stat(), named = stat()
            if fstat(fd, &locked) == 0, stat(path, &named) == 0, locked.st_dev == named.st_dev,
                locked.st_ino == named.st_ino
            {
                (descriptor, made) = (fd, missing)
                break
            }
            close(fd)
        }
        LiveTemporaries.register(path)
        let pid = Array("\(TemporaryName.pid)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Lets the lock go, deleting its file first, so that a run waiting for it locks again (see the type's comment).
    public func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        LiveTemporaries.unregister(path)
        close(descriptor)
        for folder in made where rmdir(folder) != 0 { break }
    }

    /// How a lock file's name ends.
    static let suffix = ".fanout-lock"

    /// Deletes the lock file at `path` when no run holds it: one left by a run killed outright
    /// (``TemporarySweep``).
    static func removeIfFree(_ path: String) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
        close(fd)
    }

    /// The process id the holder wrote into the lock file, if it has yet.
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
