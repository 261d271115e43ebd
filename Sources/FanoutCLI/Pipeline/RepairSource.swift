import FanoutCore
import FanoutImport
import Foundation

/// The export `--repair` reads twice, once to plan the patch and once to apply it while streaming.
///
/// A file is simply read again. Standard input can be read only once, so it is first copied to a temporary
/// file, and messages about that copy name `standard input` as the user typed it.
struct RepairSource {
    /// The file to read.
    let path: String
    private let input: ExportInput
    private let spooled: Bool

    init(_ input: ExportInput) throws {
        guard input.path == "-" else {
            self.input = input
            path = input.path
            spooled = false
            return
        }
        let bytes = try ExportBytes(path: "-")
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("fanout-stdin-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).json").path
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes.buffer)) else {
            throw UsageError(message: "cannot copy standard input to \(temporary)")
        }
        var copy = input
        copy.path = temporary
        self.input = copy
        path = temporary
        spooled = true
    }

    /// Reads, derives and audits the export.
    func analysis() throws -> Analysis {
        do {
            return try Analysis(input)
        } catch let error as InputError where spooled {
            throw UsageError(message: error.description.replacingOccurrences(of: path, with: "standard input"))
        }
    }

    /// Deletes the copy of standard input, if one was made.
    func remove() {
        if spooled { try? FileManager.default.removeItem(atPath: path) }
    }
}
