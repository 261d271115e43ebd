import FanoutImport
import FanoutOutput

/// One part file of a table being written, plain or gzip.
final class TablePart {
    private let file: StagedFolder.StreamedFile
    private let gzip: GzipStream?

    init(_ file: StagedFolder.StreamedFile, gzip: Bool) throws(OutputError) {
        self.file = file
        self.gzip = gzip ? try GzipStream(file: file) : nil
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        if let gzip { try gzip.append(bytes) } else { try file.append(bytes) }
    }

    func finish() throws(OutputError) {
        if let gzip { try gzip.finish() } else { try file.close() }
    }
}

/// The part files one walker's sink writes, per table, under names of its own (`users/.w1-0.ndjson`) until
/// ``TableFolder/finish(_:)`` numbers every table's parts in order.
final class PartWriter: RowOutput {
    private let folder: TableFolder
    private let walker: Int
    private var current: [TablePart?] = Array(repeating: nil, count: Table.allCases.count)
    /// Per table, the parts started, in order.
    private(set) var parts: [[String]] = Array(repeating: [], count: Table.allCases.count)

    init(folder: TableFolder, walker: Int) {
        self.folder = folder
        self.walker = walker
    }

    func append(_ bytes: UnsafeRawBufferPointer, to table: Table) -> Bool {
        do throws(OutputError) {
            if current[table.index] == nil {
                let name = "\(table.name)/.w\(walker)-\(parts[table.index].count)\(folder.partExtension)"
                parts[table.index].append(name)
                current[table.index] = try TablePart(folder.stream(to: name), gzip: folder.gzip)
            }
            try current[table.index]!.append(bytes)
            return true
        } catch {
            folder.record(error)
            return false
        }
    }

    func endPart(of table: Table) -> Bool {
        guard let part = current[table.index] else { return true }
        current[table.index] = nil
        do throws(OutputError) {
            try part.finish()
            return true
        } catch {
            folder.record(error)
            return false
        }
    }

    func append(_ other: any RowOutput) {
        guard let other = other as? PartWriter else { return }
        for t in parts.indices { parts[t] += other.parts[t] }
    }
}
