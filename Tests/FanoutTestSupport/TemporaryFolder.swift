import Foundation

/// A new empty folder under the system's temporary folder, deleted with everything in it when the last reference to
/// it goes (`deinit`): keep the value in a local for as long as the test uses the folder (debug builds keep locals to
/// the end of their scope), or use `withTemporaryFolder { }`. Its name starts with `fanout-test-` so that a leftover
/// is recognisable in `/tmp`.
public final class TemporaryFolder: @unchecked Sendable {
    /// The start of every temporary folder's name.
    public static let prefix = "fanout-test-"

    public let url: URL
    public var path: String { url.path }

    /// A new empty folder named `fanout-test-<label>-<UUID>`.
    public init(_ label: String = "") throws {
        let name = Self.prefix + (label.isEmpty ? "" : "\(label)-") + UUID().uuidString
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A folder that lives until the test process exits, for helpers that hand out only its path.
    public static func untilExit(_ label: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder(label)
        KeptFolders.shared.keep(folder)
        return folder
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func url(_ name: String) -> URL { url.appendingPathComponent(name) }

    public func path(_ name: String) -> String { url(name).path }

    /// Writes `text` to `name` (a relative path), creating the folders on the way.
    public func write(_ text: String, to name: String) throws { try write(Data(text.utf8), to: name) }

    public func write(_ data: Data, to name: String) throws {
        let file = url(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// Writes each file of `files` (relative path → text).
    public func write(_ files: [String: String]) throws {
        for (name, text) in files { try write(text, to: name) }
    }

    public func read(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }

    public func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Every file (not folder) under `name`, relative to it, sorted.
    public func files(under name: String = "") -> [String] {
        let base = name.isEmpty ? url : url(name)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    /// The text of every file under `name`, by path relative to it.
    public func texts(under name: String = "") -> [String: String] {
        let base = name.isEmpty ? url : url(name)
        var texts: [String: String] = [:]
        for file in files(under: name) {
            if let text = try? String(contentsOf: base.appendingPathComponent(file), encoding: .utf8) {
                texts[file] = text
            }
        }
        return texts
    }
}

/// Runs `body` with a new temporary folder, deleted when `body` returns or throws.
public func withTemporaryFolder<T>(_ label: String = "", _ body: (TemporaryFolder) throws -> T) throws -> T {
    let folder = try TemporaryFolder(label)
    return try withExtendedLifetime(folder) { try body(folder) }
}

/// Runs `body` with a new temporary folder, deleted when `body` returns or throws.
public func withTemporaryFolder<T>(_ label: String = "", _ body: (TemporaryFolder) async throws -> T) async throws -> T
{
    let folder = try TemporaryFolder(label)
    defer { withExtendedLifetime(folder) {} }
    return try await body(folder)
}

/// The folders of `TemporaryFolder.untilExit`, deleted when the process exits.
private final class KeptFolders: @unchecked Sendable {
    static let shared: KeptFolders = {
        atexit { KeptFolders.shared.removeAll() }
        return KeptFolders()
    }()

    private let lock = NSLock()
    private var folders: [TemporaryFolder] = []

    func keep(_ folder: TemporaryFolder) { lock.withLock { folders.append(folder) } }

    func removeAll() { lock.withLock { folders.removeAll() } }
}

/// A folder of template files, for `TemplateSet(overrides:)`, deleted when the tests end.
public func templateFolder(_ files: [String: String]) throws -> String {
    let folder = try TemporaryFolder.untilExit("templates")
    try folder.write(files)
    return folder.path
}
