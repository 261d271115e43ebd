import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension StagedFolder {
    /// A file of the staging folder written piece by piece, for outputs that are never whole in memory (the
    /// parts of `fanout tables`). It becomes visible with the folder, at ``StagedFolder/commit()``.
    public final class StreamedFile {
        /// The path inside the folder.
        public let relativePath: String
        private let url: URL
        private var descriptor: Int32

        fileprivate init(relativePath: String, url: URL) throws(OutputError) {
            self.relativePath = relativePath
            self.url = url
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw OutputError(path: url.path, message: "cannot write: \(TemporaryName.lastError)")
            }
        }

        deinit { if descriptor >= 0 { _ = closeDescriptor(descriptor) } }

        /// Appends `bytes`.
        public func append(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
            guard descriptor >= 0 else {
                throw OutputError(path: url.path, message: "cannot write: the file is already closed")
            }
            guard FileDescriptor.writeAll(descriptor, bytes) else {
                throw OutputError(path: url.path, message: "cannot write: \(TemporaryName.lastError)")
            }
        }

        /// Closes the file; it stays in the staging folder.
        public func close() throws(OutputError) {
            guard descriptor >= 0 else { return }
            let closed = closeDescriptor(descriptor) == 0
            descriptor = -1
            guard closed else { throw OutputError(path: url.path, message: "cannot write: \(TemporaryName.lastError)") }
        }
    }

    /// Starts the file `relativePath` of the folder, creating subfolders, to be written piece by piece.
    public func stream(to relativePath: String) throws(OutputError) -> StreamedFile {
        try StreamedFile(relativePath: relativePath, url: URL(fileURLWithPath: prepare(relativePath)))
    }

    /// Renames the file `relativePath` of the staging folder to `newPath` (in a folder that exists there).
    public func move(_ relativePath: String, to newPath: String) throws(OutputError) {
        let to = staging.appendingPathComponent(newPath).path
        guard rename(staging.appendingPathComponent(relativePath).path, to) == 0 else {
            throw OutputError(path: to, message: "cannot write: \(TemporaryName.lastError)")
        }
    }

    /// Deletes the file `relativePath` of the staging folder.
    public func remove(_ relativePath: String) {
        unlink(staging.appendingPathComponent(relativePath).path)
    }
}

/// `close(2)`; inside ``StagedFolder/StreamedFile`` the name `close` is the method.
private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }
