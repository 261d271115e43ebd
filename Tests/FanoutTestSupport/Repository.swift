import Foundation

/// The repository's root (the folder of `Package.swift`), for fixtures, the demo data in `Content/`, the docs and
/// the sources, found from this file's path.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A file or folder of the repository, by its path relative to the root.
public func repositoryFile(_ path: String) -> URL { repositoryRoot.appendingPathComponent(path) }
