import Foundation

/// Where outputs are written before they are complete: a hidden sibling of the final path, named after it and
/// after this process (`.report.json.fanout-tmp-4242`), so that a reader never sees a half-written output under
/// the final name, and two runs never write into each other's temporary files.
enum TemporaryName {
    /// The temporary sibling of `url` for `purpose` (`tmp` while writing, `old` for the output being replaced).
    static func sibling(of url: URL, _ purpose: String = "tmp") -> URL {
        url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).fanout-\(purpose)-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// The text of the current `errno`.
    static var lastError: String { String(cString: strerror(errno)) }
}
