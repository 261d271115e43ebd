import Foundation

/// Creating folders with POSIX calls, so that a failure's reason is the system's own short text
/// (`Read-only file system`) and never names a temporary path.
enum FolderCreation {
    /// Creates the folder at `path` and any missing folder above it; nil on success, else the reason.
    static func createAll(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return (info.st_mode & S_IFMT) == S_IFDIR ? nil : String(cString: strerror(ENOTDIR))
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, let reason = createAll(parent) { return reason }
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return nil }
        return TemporaryName.lastError
    }

    /// Creates the folders of `relativePath` below `base`, which must exist: a folder gone from under a
    /// writer (deleted by ``LiveTemporaries/removeAll()``) is not made again. Nil on success, else the reason.
    static func createBelow(_ base: String, _ relativePath: Substring) -> String? {
        var path = base
        for component in relativePath.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0, errno != EEXIST { return TemporaryName.lastError }
        }
        return nil
    }
}
