import FanoutCore
import FanoutOutput
import Foundation

/// Reading and appending history files: `check --history FILE`, `fanout history`, and the trend a site's report
/// page shows (docs/diff-and-history.md, "History").
struct HistoryFile {
    let path: String
    /// The file's text as read ("" for a file not made yet), kept so that an append writes it back unchanged.
    private let text: String
    let records: [HistoryRecord]

    /// Reads the history at `path`; a file that does not exist yet is an empty history when `mayBeMissing` (a
    /// first `check --history`), else an error. Any problem is a usage error naming the file and the line.
    init(_ path: String, mayBeMissing: Bool) throws {
        self.path = path
        var isDirectory: ObjCBool = false
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
    func append(_ record: HistoryRecord) throws {
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
