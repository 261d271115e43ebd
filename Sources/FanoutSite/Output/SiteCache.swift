import FanoutOutput
import Foundation

/// Where a site's builds keep what the next build reads (the manifest, ``BuildManifest``; the card store,
/// ``CardStore``; the record of the folder they describe, ``CacheRecord``): outside the site's folder, so that the
/// folder holds only the site and deploying it deploys the pages alone (docs/site.md "Rebuilds, progress and
/// timings"). For the output `…/NAME` it is `NAME/` in a folder of caches: `.fanout-cache` beside the output by
/// default, as Hugo keeps its caches in the project rather than in `public/`, or the one `--cache-dir` names.
public struct SiteCache: Sendable, Equatable {
    /// The folder of caches beside an output when none is named.
    public static let defaultRoot = ".fanout-cache"

    /// The cache's own folder, relative when the output or `root` it was made from is, as messages name it.
    public let path: String

    /// The cache of the site at `output`, in the folder of caches `root` (nil: ``defaultRoot`` beside the output).
    public init(output: String, root: String? = nil) {
        let target = URL(fileURLWithPath: output).standardizedFileURL
        let trimmed = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        let last = trimmed.split(separator: "/").last
        // The folder the output goes in as the user wrote it, unless its last part is `.` or `..`.
        let parent =
            last == nil || last == "." || last == ".."
            ? target.deletingLastPathComponent().path
            : trimmed.lastIndex(of: "/").map { $0 == trimmed.startIndex ? "" : String(trimmed[..<$0]) }
        let folder = root ?? parent.map { $0 + "/" + Self.defaultRoot } ?? Self.defaultRoot
        path = (folder.hasSuffix("/") ? folder : folder + "/") + target.lastPathComponent
    }

    var url: URL { URL(fileURLWithPath: path).standardizedFileURL }

    /// The path of `name` in the cache.
    func file(_ name: String) -> String { path + "/" + name }

    /// Fails when the cache's folder holds files and not Fanout's marker: a folder `--cache-dir` named by mistake
    /// is never written into.
    func checkClaim() throws(OutputError) {
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard !contents.isEmpty, !contents.contains(StagedFolder.markerName) else { return }
        throw OutputError(
            path: path,
            message: "refusing to use this folder as the site's cache: it is not empty and was not made by fanout; "
                + "choose another --cache-dir or empty it first. Nothing was written")
    }

    /// Why this cache cannot be the cache of the site at `output`: it is the output, or inside it (the full build
    /// that replaces the folder would delete it, and a deploy would publish it), or the output is inside it.
    public func conflict(withOutput output: String) -> String? {
        let site = URL(fileURLWithPath: output).standardizedFileURL.path, path = url.path
        if path == site || path.hasPrefix(site + "/") { return "is inside the site's folder, \(output)" }
        if site.hasPrefix(path + "/") { return "holds the site's folder, \(output)" }
        return nil
    }
}
