import FanoutCore
import FanoutOutput
import Foundation

/// Reading and appending history files: `check --history FILE`, `fanout history`, and the trend a site's report
/// page shows (docs/diff-and-history.md, "History").
struct HistoryFile {
    let path: String
    let records: [HistoryRecord]

    /// Reads the history at `path`; a file that does not exist yet is an empty history when `mayBeMissing` (a
    /// first `check --history`), else an error. Any problem is a usage error naming the file and the line.
    init(_ path: String, mayBeMissing: Bool) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        let text: String
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard mayBeMissing else { throw UsageError(message: "cannot read history \(path): no such file") }
            text = ""
        } else {
            guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
                throw UsageError(
                    message: "cannot read history \(path): "
                        + (isDirectory.boolValue ? "a folder, not a file" : "permission denied"))
            }
            text = String(decoding: data, as: UTF8.self)
        }
        do {
            records = try HistoryRecord.parse(text)
        } catch {
            throw UsageError(message: "\(path): \(error.description)")
        }
    }

    /// Writes the file with `record` as its last line, atomically: an interrupted run leaves the history as it was.
    /// The file is read again under its lock, so that runs appending at once each add their record to the others'.
    func append(_ record: HistoryRecord) throws {
        let lock = OutputLock.taking(path)
        defer { lock.release() }
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let separator = text.isEmpty || text.hasSuffix("\n") ? "" : "\n"
        try AtomicFile.write(text + separator + record.line(), to: path)
    }

    /// The time of a run now, as history records hold it: ISO 8601 in UTC, to the second.
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
