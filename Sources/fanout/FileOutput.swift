import FanoutRender
import Foundation

/// Writes single files atomically (a temporary file renamed into place), creating folders as needed.
enum FileOutput {
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw RenderError.output(path: path, message: "cannot write: \(error.localizedDescription)")
        }
    }
}
