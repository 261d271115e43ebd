import FanoutCore
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

/// Gzip exports (Firebase's automated backups) read exactly like the plain file, whatever they are called.
@Suite struct GzipInputTests {
    let export = """
        {"users": {"u1": {"username": "alice"}, "u2": {"username": "bob"}},
         "posts": {"u1": {"-Kx": {"created_at": 1490119356, "image_url": "https://x", "image_height": 1, "like_count": 1,
                                   "poster": {"uid": "u1", "username": "alice"}}}},
         "postLikes": {"-Kx": {"u2": true}}, "following": {"u2": {"u1": true}}}
        """

    func gzip(_ folder: TemporaryFolder, _ text: String) throws -> Data {
        try folder.run("gzip", "-c", "-n", input: Data(text.utf8))
    }

    @Test func gzipFilesDecompressToTheSameBytes() throws {
        let folder = try TemporaryFolder()
        let compressed = try gzip(folder, export)
        #expect(compressed.count > 2 && compressed[0] == 0x1F)
        // Named .json.gz, or named like a plain file: the magic number decides, not the name.
        for name in ["backup.json.gz", "backup.json"] {
            try folder.write(compressed, to: name)
            let bytes = try ExportBytes(path: folder.path(name))
            #expect(bytes.wasCompressed)
            #expect(Array(bytes.buffer) == Array(export.utf8))
            let d = try ExportLoader.load(path: folder.path(name), schema: nil)
            #expect(d.schema.name == "makestagram" && d.users.count == 2 && d.likes.count == 1)
        }
        try folder.write(export, to: "plain.json")
        #expect(try !ExportBytes(path: folder.path("plain.json")).wasCompressed)
    }

    @Test func concatenatedMembersReadAsOneExport() throws {
        let folder = try TemporaryFolder()
        let half = export.index(export.startIndex, offsetBy: export.count / 2)
        var data = try gzip(folder, String(export[..<half]))
        data.append(try gzip(folder, String(export[half...])))
        try folder.write(data, to: "parts.json.gz")
        let bytes = try ExportBytes(path: folder.path("parts.json.gz"))
        #expect(Array(bytes.buffer) == Array(export.utf8))
    }

    @Test func truncatedAndCorruptGzipAreClearErrors() throws {
        let folder = try TemporaryFolder()
        let compressed = try gzip(folder, String(repeating: export, count: 50))
        try folder.write(compressed.prefix(compressed.count / 2), to: "cut.json.gz")
        #expect {
            try ExportBytes(path: folder.path("cut.json.gz"))
        } throws: { error in
            "\(error)"
                == "cannot read \(folder.path("cut.json.gz")): truncated gzip data: the file ends inside the compressed stream"
        }
        var corrupt = compressed
        for i in 20..<40 { corrupt[i] ^= 0x5A }
        try folder.write(corrupt, to: "bad.json.gz")
        #expect {
            try ExportBytes(path: folder.path("bad.json.gz"))
        } throws: { error in
            "\(error)".hasPrefix("cannot read \(folder.path("bad.json.gz")): corrupt gzip data (")
        }
    }
}
