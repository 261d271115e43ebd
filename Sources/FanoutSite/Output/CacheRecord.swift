import Foundation

/// Which folder a site cache describes (``SiteCache``), written last by the build that wrote its manifest: the
/// folder's absolute path, and its identity (device and inode). A rebuild trusts the cache
/// only when the folder is still that one: a cache copied from another project, shared with another output, or
/// left from before the folder was deleted or replaced means a full build, never a wrong one (docs/site.md
/// "Rebuilds, progress and timings"). Files added to the folder by hand do not change it: a rebuild leaves them.
///
/// Format (`output` in the cache): the line `fanout-cache 1`, then `<device> <inode>`, then the path. An identity of zeros describes no build: written before a full build moves its folder in.
struct CacheRecord: Equatable {
    static let fileName = "output"
    static let header = "fanout-cache 1"

    /// The folder's absolute path.
    var path: String
    /// The folder's identity: its device and inode (a file system may give a folder made later the inode of one
    /// deleted; Swift's Glibc has no `statx` for the birth time that would tell them apart); all zero when the record
    /// describes no build.
    var identity: [Int64]

    /// The record of the folder at `path` as it is now; nil when it is not a folder.
    static func current(_ path: String) -> CacheRecord? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return CacheRecord(
            path: path, identity: [Int64(bitPattern: UInt64(info.st_dev)), Int64(bitPattern: UInt64(info.st_ino))])
    }

    /// A record naming the folder at `path` and describing no build of it.
    static func unbuilt(_ path: String) -> CacheRecord { CacheRecord(path: path, identity: [0, 0]) }

    /// The record in the cache at `cache`; nil when it has none or it cannot be read.
    static func read(in cache: SiteCache) -> CacheRecord? {
        guard let bytes = FileBytes.contents(of: cache.file(fileName)) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0] == header, lines[3].isEmpty, !lines[2].isEmpty else { return nil }
        let identity = lines[1].split(separator: " ").compactMap { Int64($0) }
        guard identity.count == 2 else { return nil }
        return CacheRecord(path: String(lines[2]), identity: identity)
    }

    var text: String { "\(Self.header)\n\(identity.map(String.init).joined(separator: " "))\n\(path)\n" }

    /// Whether this record describes a build of the folder `now` is: the same folder.
    func describes(_ now: CacheRecord?) -> Bool {
        guard let now, identity != Self.unbuilt(path).identity else { return false }
        return identity == now.identity
    }
}
