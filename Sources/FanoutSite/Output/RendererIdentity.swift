import CCmark
import FanoutTemplates
import Foundation

/// What renders the pages, beyond their templates and data: this program's own code and the libcmark it links.
/// Part of every page's input key (docs/site.md "Rebuilds, progress and timings"), so that a new build of Fanout, or
/// another libcmark, renders every page once rather than carrying over pages an older renderer wrote: nobody has to
/// remember to bump a version number.
///
/// The executable is known by its file's identity (device, inode, size, modification time), not a hash of its
/// bytes, which a debug build would take a second to compute: a binary built again, copied or installed anew
/// has a new identity, and renders every page once.
enum RendererIdentity {
    static let hash: UInt64 = {
        var hasher = StableHasher()
        hasher.combine(UInt64(cmark_version()))
        var info = stat()
        if let path = Bundle.main.executablePath ?? CommandLine.arguments.first, stat(path, &info) == 0 {
            for field in [UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_size)] { hasher.combine(field) }
            hasher.combine(Int(info.st_mtim.tv_sec))
            hasher.combine(Int(info.st_mtim.tv_nsec))
        } else {
            // An executable that cannot be found: a key that no later run reproduces, so nothing is carried over.
            hasher.combine(Int(getpid()))
            hasher.combine(DispatchTime.now().uptimeNanoseconds)
        }
        return hasher.finalize()
    }()
}
