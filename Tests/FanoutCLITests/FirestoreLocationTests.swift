import FanoutTestSupport
import Foundation
import Testing

/// Findings of a Cloud Firestore export located by file and byte offset: each report that shows where a finding
/// is names the `output-N` file and the offset of the record of the document the finding's path names (the
/// document itself, or its nearest ancestor that the export has), computed here from the file's bytes alone: the
/// records found by a log walker of the test's own, and each document's record by its key's bytes.
@Suite struct FirestoreLocationTests {
    static let triply = FirestoreCLITests.exports.appendingPathComponent("triply/export")
    static let dataFile = "firestore_export/all_namespaces/all_kinds/output-0"
    static let schema = FirestoreCLITests.schemas.appendingPathComponent("triply.toml").path

    /// The emulator's folder, copied into the test's folder (the files only, so that it can be deleted).
    static func copyEmulatorFolder(into cli: CLI, as name: String) throws {
        for file in [
            "firebase-export-metadata.json", "firestore_export/firestore_export.overall_export_metadata", dataFile,
        ] {
            let target = cli.url("\(name)/\(file)")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contentsOf: triply.appendingPathComponent(file)).write(to: target)
        }
    }

    @Test(.enabled(if: FirestoreCLITests.names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func reportsNameTheRecordOfEachFindingsDocument() throws {
        let cli = try CLI()
        try Self.copyEmulatorFolder(into: cli, as: "emulator-data")
        let log = try LogFile(Data(contentsOf: Self.triply.appendingPathComponent(Self.dataFile)))
        #expect(log.records.count == 19)

        // SARIF, of the folder named relative to where fanout runs (as in a repository's CI): the artifact is the
        // output-0 file, relative too; the region the record's byte offset, and the line and column of that byte.
        let sarif = try cli.run("check", "emulator-data", "--schema", Self.schema, "--format", "sarif")
        #expect(sarif.code == 1, "\(sarif.stderr)")
        let sarifLog = try #require(try JSONSerialization.jsonObject(with: sarif.stdoutData) as? [String: Any])
        let run = try #require((sarifLog["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        var located: Set<String> = []
        for result in results {
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let path = try #require((location["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"])
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            let artifact = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String
            #expect(artifact == "emulator-data/\(Self.dataFile)", "\(path)")
            let region = try #require(physical["region"] as? [String: Any])
            let document = try #require(log.document(for: "\(path)"), "\(path) has a document in output-0")
            #expect(document.path == "\(path)", "every finding of Triply names a document that exists")
            #expect(region["byteOffset"] as? Int == document.offset, "\(path)")
            let position = log.position(of: document.offset)
            #expect(region["startLine"] as? Int == position.line, "\(path)")
            #expect(region["startColumn"] as? Int == position.column, "\(path)")
            located.insert("\(path)")
        }
        #expect(
            located == [
                "posts/CrU6IxiAkSJdJdCuqVNY", "posts/dzrPFjT0RTIyfN0UcAwo",
                "posts/CrU6IxiAkSJdJdCuqVNY/comments/DE63BUzKeiza164UaIs0",
            ])

        // The JSON report carries the same places; the export named by its absolute path names the file so.
        let json = try cli.jsonReport(Self.triply.path, ["--schema", Self.schema])
        #expect(json.code == 1 && json.findings.count == 3)
        for finding in json.findings {
            let path = try #require((finding["paths"] as? [String])?.first)
            let document = try #require(log.document(for: path))
            #expect(finding["file"] as? String == Self.triply.appendingPathComponent(Self.dataFile).path, "\(path)")
            #expect(finding["byte_offset"] as? Int == document.offset, "\(path)")
            #expect(finding["line"] as? Int == log.position(of: document.offset).line, "\(path)")
            #expect(finding["column"] as? Int == log.position(of: document.offset).column, "\(path)")
        }

        // `fanout report` renders check's JSON report into the same SARIF, byte for byte.
        let saved = try cli.run(
            "check", "emulator-data", "--schema", Self.schema, "--format", "json", "--output", "check.json")
        #expect(saved.code == 1, "\(saved.stderr)")
        let rendered = try cli.run("report", "check.json", "--format", "sarif", "--fail-on", "never")
        #expect(rendered.code == 0, "\(rendered.stderr)")
        #expect(rendered.stdout == sarif.stdout)

        // The text report: `FILE: byte N: PATH: MESSAGE`.
        let text = try cli.run("check", "emulator-data", "--schema", Self.schema)
        let comment = try #require(log.document(for: "posts/CrU6IxiAkSJdJdCuqVNY/comments/DE63BUzKeiza164UaIs0"))
        #expect(
            text.stdout.contains(
                "  emulator-data/\(Self.dataFile): byte \(comment.offset): "
                    + "posts/CrU6IxiAkSJdJdCuqVNY/comments/DE63BUzKeiza164UaIs0: comment DE63BUzKeiza164UaIs0"),
            "\(text.stdout)")
    }

    /// A finding whose path is below a document (a counter field) points at that document's record, and one whose
    /// document the export lacks (a mirror's missing entry) at its nearest ancestor's; one `output-N` file given
    /// alone names itself.
    @Test(.enabled(if: FirestoreCLITests.names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func missingDocumentsAndFieldsPointAtTheirNearestDocument() throws {
        let cli = try CLI()
        let original = try LogFile(Data(contentsOf: Self.triply.appendingPathComponent(Self.dataFile)))
        // Without one follower (its mirror in users/L10Sj…/following stays) and one like (its post's likeCount stays).
        let follower = "users/58ROB8VRHmM83fVr9QJqK4RZlYAJ/followers/L10SjJH7DNVUIasTlGKNchO2vKKA"
        let like = "posts/asxv1qqrWywZxUu7yU2B/likes/58ROB8VRHmM83fVr9QJqK4RZlYAJ"
        let dropped = try original.without([follower, like])
        try Data(dropped).write(to: cli.url("output-0"))
        let log = try LogFile(Data(dropped))
        #expect(log.records.count == 17)
        #expect(log.document(for: follower)?.path == "users/58ROB8VRHmM83fVr9QJqK4RZlYAJ")

        let json = try cli.jsonReport("output-0", ["--schema", Self.schema])
        let byRule = Dictionary(grouping: json.findings) { $0["rule"] as? String ?? "" }
        let mirror = try #require(byRule["follow-mirror-missing"]?.first)
        #expect((mirror["paths"] as? [String])?.first == follower)
        let likes = try #require(byRule["like-count-mismatch"]?.first)
        #expect((likes["paths"] as? [String])?.first == "posts/asxv1qqrWywZxUu7yU2B/likeCount")
        for finding in json.findings {
            let path = try #require((finding["paths"] as? [String])?.first)
            let document = try #require(log.document(for: path), "\(path)")
            #expect(finding["file"] as? String == "output-0", "\(path)")
            #expect(finding["byte_offset"] as? Int == document.offset, "\(path) at \(document.path)")
        }
        let sarif = try cli.run("check", "output-0", "--schema", Self.schema, "--format", "sarif")
        let run = try #require(
            ((try JSONSerialization.jsonObject(with: sarif.stdoutData) as? [String: Any])?["runs"] as? [[String: Any]])?
                .first)
        for result in try #require(run["results"] as? [[String: Any]]) {
            let physical = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            #expect((physical?["artifactLocation"] as? [String: Any])?["uri"] as? String == "output-0")
            #expect((physical?["region"] as? [String: Any])?["byteOffset"] is Int)
        }
    }
}

/// A LevelDB log file's records, read from the format (32 KiB blocks; a 7-byte header of checksum, length and
/// type before each fragment), apart from Fanout's reader: where each record starts and its data.
private struct LogFile {
    let bytes: [UInt8]
    /// Each record's start (its first header) and data.
    var records: [(start: Int, data: [UInt8])] = []
    /// Each record's start, header and data included, to its end.
    var spans: [Range<Int>] = []

    init(_ data: Data) throws {
        bytes = [UInt8](data)
        var offset = 0
        var start = 0
        var pieces: [UInt8] = []
        while offset < bytes.count {
            let inBlock = 32_768 - offset % 32_768
            if inBlock < 7 {
                offset += inBlock
                continue
            }
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
            let type = bytes[offset + 6]
            if type == 0, length == 0 {
                offset += inBlock
                continue
            }
            guard (1...4).contains(type), offset + 7 + length <= bytes.count else {
                throw CLIError("not a log record at byte \(offset)")
            }
            if type == 1 || type == 2 {
                start = offset
                pieces = []
            }
            pieces += bytes[(offset + 7)..<(offset + 7 + length)]
            offset += 7 + length
            if type == 1 || type == 4 {
                records.append((start, pieces))
                spans.append(start..<offset)
            }
        }
    }

    /// The record of the document with `segments` (collection and ID by turns): the one whose key's path is
    /// exactly their elements, `Path` (field 14 of the key) holding an `Element` group per pair, each with its
    /// type (2) and name (4).
    func record(of segments: [String]) -> Int? {
        var elements: [UInt8] = []
        for pair in stride(from: 0, to: segments.count, by: 2) {
            elements += [0x0B] + field(2, segments[pair]) + field(4, segments[pair + 1]) + [0x0C]
        }
        let path = [0x72] + varint(elements.count) + elements
        return records.firstIndex { record in
            record.data.count >= path.count
                && (0...(record.data.count - path.count)).contains {
                    record.data[$0..<($0 + path.count)].elementsEqual(path)
                }
        }
    }

    /// The document a finding's `path` is in: the longest prefix of an even number of keys that has a record.
    func document(for path: String) -> (path: String, offset: Int)? {
        let keys = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for count in stride(from: keys.count - keys.count % 2, through: 2, by: -2) {
            if let index = record(of: Array(keys.prefix(count))) {
                return (keys.prefix(count).joined(separator: "/"), records[index].start)
            }
        }
        return nil
    }

    /// The line and column of the byte at `offset`, counted as in a text file: lines after each LF, columns in
    /// bytes that do not continue a UTF-8 sequence.
    func position(of offset: Int) -> (line: Int, column: Int) {
        let before = bytes[..<offset]
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        return (
            before.filter { $0 == 0x0A }.count + 1, bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1
        )
    }

    /// The file without the records of the documents at `paths` (its records are whole, in one block).
    func without(_ paths: [String]) throws -> [UInt8] {
        guard bytes.count < 32_768 else { throw CLIError("more than one block") }
        let gone = try Set(
            paths.map { path in
                guard let index = record(of: path.split(separator: "/").map(String.init)) else {
                    throw CLIError("no record of \(path)")
                }
                return index
            })
        return spans.indices.filter { !gone.contains($0) }.flatMap { bytes[spans[$0]] }
    }

    private func field(_ number: UInt8, _ text: String) -> [UInt8] {
        [number << 3 | 2] + varint(text.utf8.count) + Array(text.utf8)
    }

    private func varint(_ value: Int) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }
}
