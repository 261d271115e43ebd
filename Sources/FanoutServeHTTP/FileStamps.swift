import Foundation

/// The size and modification time of every file under some paths: what the live reload polls (docs/serve.md). A folder
/// stands for every file in it, at any depth; a path that does not exist is recorded as absent, so that creating it is
/// a change too.
struct FileStamps: Equatable, Sendable {
    struct Stamp: Equatable, Sendable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    private(set) var files: [String: Stamp?] = [:]

    init(_ paths: [String]) {
        for path in paths { add(path) }
    }

    private mutating func add(_ path: String) {
        guard let (stamp, isFolder) = Self.stamp(of: path) else {
            files[path] = .some(nil)
            return
        }
        guard isFolder else {
            files[path] = stamp
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") { add((path as NSString).appendingPathComponent(name)) }
    }

    private static func stamp(of path: String) -> (Stamp, isFolder: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        let stamp = Stamp(size: Int64(info.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
        return (stamp, (info.st_mode & S_IFMT) == S_IFDIR)
    }
}
