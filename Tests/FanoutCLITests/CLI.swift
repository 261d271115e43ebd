import FanoutTestSupport
import Foundation
import Testing

/// Runs the built `fanout` executable, as a user would, in a temporary folder (deleted with the last copy of the value).
struct CLI {
    typealias Result = ProcessResult

    /// The `fanout` binary next to the test bundle (`swift build` puts both in the same folder).
    static let binary = builtExecutable("fanout")

    /// The repository's root, for the demo data in Content/.
    static let repository = repositoryRoot

    let temporary: TemporaryFolder
    var folder: URL { temporary.url }

    /// A new empty temporary folder, deleted when the last copy of the value goes: at the end of the test's scope,
    /// since tests are debug builds, which keep locals to the end of their scope. (Kept until the process exited, the
    /// folders of every test were deleted one after another after the last test: about two minutes of `make test`.)
    init() throws { temporary = try TemporaryFolder("cli") }

    func url(_ name: String) -> URL { temporary.url(name) }

    func write(_ text: String, to name: String) throws { try temporary.write(text, to: name) }

    func read(_ name: String) throws -> String { try temporary.read(name) }

    func exists(_ name: String) -> Bool { temporary.exists(name) }

    /// Runs `fanout args…` in the folder.
    @discardableResult
    func run(_ args: String..., stdin: Data? = nil) throws -> Result {
        try run(args, stdin: stdin)
    }

    /// Every file under `name`, relative to it, sorted.
    func files(under name: String) -> [String] { temporary.files(under: name) }

    /// The cache a build of the site `site` keeps when no `--cache-dir` is given: `.fanout-cache/NAME` beside it
    /// (docs/site.md "Rebuilds, progress and timings").
    static func cache(of site: String) -> String {
        let parts = site.split(separator: "/")
        return (parts.dropLast().map { "\($0)/" }.joined()) + ".fanout-cache/" + parts.last!
    }
}
