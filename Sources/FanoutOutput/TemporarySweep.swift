import Foundation

/// Deletes temporaries: this process's own when a signal stops it, and those of runs that were killed before
/// they could (`kill -9`, a crash, a power cut), found by their names when the next run writes next to them.
enum TemporarySweep {
    /// Deletes the temporaries in `folder` whose process no longer runs. A previous output moved aside
    /// (`old`) whose final path is empty is put back instead: the run died between moving the previous
    /// output aside and moving its new one into place.
    static func removeStale(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for fileName in names {
            if fileName.hasSuffix(OutputLock.suffix) {
                OutputLock.removeIfFree(folder.appendingPathComponent(fileName).path)
                continue
            }
            guard let parsed = TemporaryName.parse(fileName), parsed.pid != TemporaryName.pid, !isRunning(parsed.pid)
            else { continue }
            let path = folder.appendingPathComponent(fileName).path
            if parsed.purpose == .old {
                let final = folder.appendingPathComponent(parsed.name).path
                var info = stat()
                if lstat(final, &info) != 0, errno == ENOENT, rename(path, final) == 0 { continue }
            }
            remove(path)
        }
    }

    /// Deletes the file or folder at `path`, if any; a folder is renamed to its `del` sibling first.
    static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            unlink(path)
            return
        }
        let url = URL(fileURLWithPath: path)
        var doomed = url
        if let parsed = TemporaryName.parse(url.lastPathComponent), parsed.purpose != .del {
            let del = url.deletingLastPathComponent()
                .appendingPathComponent(TemporaryName.name(of: parsed.name, .del, pid: TemporaryName.pid))
            if rename(path, del.path) == 0 { doomed = del }
        }
        // A writer may still be finishing a file it opened: retry until the tree is gone.
        for _ in 0..<5 {
            try? FileManager.default.removeItem(at: doomed)
            if lstat(doomed.path, &info) != 0 { return }
        }
    }

    /// Whether process `pid` exists (on this machine's process table, as seen from this process).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
