import Foundation

/// The CLIs' folders, deleted when the test process exits, so that a run leaves nothing in the temporary directory
/// (a run of every test used to leave hundreds of folders there). At exit rather than when a test's CLI is
/// released, since a test may still use paths in its folder after its last use of the CLI.
/// `FANOUT_KEEP_TEST_FOLDERS=1` keeps them, to look at what the tests wrote.
enum TestFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: [URL] = []
    private static let removedAtExit: Void = { atexit { TestFolders.removeAll() } }()

    static func add(_ folder: URL) {
        _ = removedAtExit
        lock.withLock { folders.append(folder) }
    }

    private static func removeAll() {
        guard ProcessInfo.processInfo.environment["FANOUT_KEEP_TEST_FOLDERS"] == nil else { return }
        lock.withLock { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
    }
}
