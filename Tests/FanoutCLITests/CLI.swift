import Foundation
import Testing

/// Runs the built `fanout` executable, as a user would, in a temporary folder.
struct CLI {
    struct Result {
        let code: Int32
        let stdout: String
        let stderr: String
    }

    /// The `fanout` binary next to the test bundle (`swift build` puts both in the same folder).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["FANOUT_BINARY"] { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in candidates {
            let url = folder.appendingPathComponent("fanout")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("fanout")
    }()

    /// The repository's root, for the demo data in Content/.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let folder: URL

    /// A new empty temporary folder, deleted when the test process exits (``TestFolders``).
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        TestFolders.add(folder)
    }

    func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func write(_ text: String, to name: String) throws {
        try FileManager.default.createDirectory(at: url(name).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url(name))
    }

    func read(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url(name).path) }

    /// Runs `fanout args…` in the folder.
    @discardableResult
    func run(_ args: String..., stdin: Data? = nil) throws -> Result {
        try run(args, stdin: stdin)
    }

    /// Every file under `name`, relative to it, sorted.
    func files(under name: String) -> [String] {
        let base = url(name)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }
}
