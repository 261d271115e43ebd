import FanoutCore
import FanoutOutput
import Foundation

/// Reading and writing baseline files (`--baseline`, `--write-baseline`).
enum BaselineFile {
    /// Reads the baseline at `path`; any problem is a usage error naming the file.
    static func read(_ path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(
                message: "cannot read baseline \(path): "
                    + (FileManager.default.fileExists(atPath: path)
                        ? "permission denied or not a file" : "no such file"))
        }
        do {
            return try Baseline.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw UsageError(message: "\(path): \(error.description)")
        }
    }

    /// Writes the baseline of `findings` to `path`, atomically.
    static func write(_ findings: [Finding], to path: String) throws {
        try AtomicFile.write(Baseline(findings: findings).render(), to: path)
    }
}
