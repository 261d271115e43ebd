import FanoutImport
import FanoutOutput

/// One part file of a table being written: NDJSON, plain or gzip, or Parquet made from the NDJSON rows.
final class TablePart {
    private let file: StagedFolder.StreamedFile
    private let gzip: GzipStream?
    private let parquet: ParquetFileWriter?

    init(_ file: StagedFolder.StreamedFile, table: Table, format: TableExport.Format, gzip: Bool) throws(OutputError) {
        self.file = file
        self.gzip = gzip ? try GzipStream(file: file) : nil
        parquet =
            format == .parquet
            ? try ParquetFileWriter(schema: ParquetSchema(table: table), name: file.relativePath) {
                (bytes) throws(OutputError) in try file.append(bytes)
            } : nil
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        if let parquet {
            try parquet.append(bytes)
        } else if let gzip {
            try gzip.append(bytes)
        } else {
            try file.append(bytes)
        }
    }

    func finish() throws(OutputError) {
        if let parquet {
            try parquet.finish()
            try file.close()
        } else if let gzip {
            try gzip.finish()
        } else {
            try file.close()
        }
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
                current[table.index] = try TablePart(
                    folder.stream(to: name), table: table, format: folder.format, gzip: folder.gzip)
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
