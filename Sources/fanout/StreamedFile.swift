import FanoutRender
import Foundation

/// Writes a large file in chunks to a temporary name next to it, renamed into place by ``commit(_:)``, so an
/// interrupted run never leaves a half-written file under the final name.
enum StreamedFile {
    /// The temporary name `path` is written under until committed.
    static func temporary(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).fanout-tmp").path
    }

    /// Calls `body` with a function that appends bytes to the temporary file of `path`.
    static func write(to path: String, _ body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let url = URL(fileURLWithPath: temporary(path))
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw RenderError.output(path: path, message: "cannot write: \(error.localizedDescription)")
        }
        let handle = try FileHandle(forWritingTo: url)
        do {
            try body { chunk in try handle.write(contentsOf: Data(chunk)) }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Moves the finished temporary file of `path` into place.
    static func commit(_ path: String) throws {
        if rename(temporary(path), path) != 0 {
            throw RenderError.output(path: path, message: "cannot write: \(String(cString: strerror(errno)))")
        }
    }
}
