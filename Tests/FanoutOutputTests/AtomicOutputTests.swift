import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutOutput

/// Files and folders appear whole or not at all, and nothing of the user's is replaced by accident.
@Suite struct AtomicOutputTests {
    let temporary: TemporaryFolder
    var folder: URL { temporary.url }

    init() throws { temporary = try TemporaryFolder("output") }

    func path(_ name: String) -> String { temporary.path(name) }
    func contents() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

    @Test func aFileAppearsOnlyWhenCommittedAndAnAbandonedOneLeavesNothing() throws {
        try AtomicFile.write("old\n", to: path("report.json"))
        let file = try AtomicFile(path: path("report.json"))
        try "new\n".utf8.withContiguousStorageIfAvailable { try file.append(UnsafeRawBufferPointer($0)) }
        #expect(try String(contentsOfFile: path("report.json"), encoding: .utf8) == "old\n", "not yet committed")
        #expect(contents().count == 2, "the temporary sibling exists while writing")
        try file.commit()
        #expect(try String(contentsOfFile: path("report.json"), encoding: .utf8) == "new\n")
        #expect(contents() == ["report.json"])

        do {
            let abandoned = try AtomicFile(path: path("report.json"))
            try "half".utf8.withContiguousStorageIfAvailable { try abandoned.append(UnsafeRawBufferPointer($0)) }
        }
        #expect(contents() == ["report.json"], "a file dropped before commit leaves no temporary file")
        #expect(try String(contentsOfFile: path("report.json"), encoding: .utf8) == "new\n")
    }

    @Test func aFileInAMissingFolderCreatesItAndAnUnwritablePlaceIsOneError() throws {
        try AtomicFile.write("x", to: path("a/b/c.txt"))
        #expect(FileManager.default.fileExists(atPath: path("a/b/c.txt")))
        try AtomicFile.write("x", to: path("plain"))
        #expect(throws: OutputError.self) { try AtomicFile.write("y", to: path("plain/inside.txt")) }
    }

    /// A named pipe (likewise a device: `/dev/null`, `/dev/stdout`) is written into, as a shell's `>` would, and stays
    /// a pipe: a file renamed over it would replace it.
    @Test func aPipeIsWrittenIntoNotReplaced() throws {
        let fifo = path("out.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading first, without waiting for a writer, so the writer's open does not block.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write("through the pipe\n", to: fifo)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(reader, &buffer, buffer.count)
        #expect(n > 0 && String(decoding: buffer.prefix(max(0, n)), as: UTF8.self) == "through the pipe\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a pipe")
        #expect(contents() == ["out.fifo"], "no temporary left beside it")
    }

    /// An update in place moves the staged files named, deletes the others named and the folders they leave
    /// empty, leaves every other file as it was, and leaves no temporary behind.
    @Test func anUpdateInPlaceMovesAndDeletesOnlyWhatItIsTold() throws {
        let site = path("site")
        let first = try StagedFolder(path: site)
        for file in ["a.html", "keep/b.html", "gone/deep/c.html", "gone/d.html", "stays/e.html"] {
            try first.write("old \(file)", to: file)
        }
        try first.commit()
        let linked =
            try FileManager.default.attributesOfItem(atPath: path("site/stays/e.html"))[.systemFileNumber] as? Int

        let update = try StagedFolder(path: site)
        try update.write("new a", to: "a.html")
        try update.write("new f", to: "new/folder/f.html")
        try update.write("dropped", to: "unnamed.html")
        try update.commitInPlace([
            .move(from: "a.html", to: "a.html"), .move(from: "new/folder/f.html", to: "new/folder/f.html"),
            .delete("gone/deep/c.html"), .delete("gone/d.html"), .delete("keep/missing.html"),
        ])
        func read(_ file: String) throws -> String { try String(contentsOfFile: path("site/\(file)"), encoding: .utf8) }
        #expect(try read("a.html") == "new a")
        #expect(try read("new/folder/f.html") == "new f")
        #expect(try read("keep/b.html") == "old keep/b.html")
        #expect(!FileManager.default.fileExists(atPath: path("site/gone")), "emptied folders go")
        #expect(!FileManager.default.fileExists(atPath: path("site/unnamed.html")))
        #expect(
            try FileManager.default.attributesOfItem(atPath: path("site/stays/e.html"))[.systemFileNumber] as? Int
                == linked,
            "a file no step names is not touched")
        #expect(contents() == ["site"], "no temporary left")
    }

    @Test func aFolderReplacesOnlyItsOwnOutputAndOnlyWhenCommitted() throws {
        let site = path("site")
        let first = try StagedFolder(path: site)
        try first.write("one", to: "deep/page.html")
        #expect(!FileManager.default.fileExists(atPath: site), "nothing in place before commit")
        try first.commit()
        #expect(try String(contentsOfFile: path("site/deep/page.html"), encoding: .utf8) == "one")
        #expect(FileManager.default.fileExists(atPath: path("site/\(StagedFolder.markerName)")))

        let second = try StagedFolder(path: site)
        try second.write("two", to: "other.html")
        second.abandon()
        #expect(contents() == ["site"], "an abandoned folder leaves nothing behind")
        #expect(try String(contentsOfFile: path("site/deep/page.html"), encoding: .utf8) == "one")

        try FileManager.default.createDirectory(atPath: path("mine"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path("mine/notes.txt")))
        #expect(throws: OutputError.self) { try StagedFolder(path: path("mine")) }
        #expect(throws: OutputError.self) { try StagedFolder(path: path("mine"), claim: .newFolder) }
        #expect(throws: OutputError.self) { try StagedFolder(path: path("mine/notes.txt")) }
        #expect(try String(contentsOfFile: path("mine/notes.txt"), encoding: .utf8) == "keep")
    }

    @Test func aNewFolderIsCreatedWithoutAMarker() throws {
        let project = try StagedFolder(path: path("project"), claim: .newFolder)
        try project.write("x = 1\n", to: "fanout.toml")
        try project.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("project")) == ["fanout.toml"])
    }

    /// A site's folder holds only what it publishes: its marker is beside it, written when the folder is put in
    /// place, and a folder marked so, marked inside by an earlier Fanout, or recorded by the caller is Fanout's.
    @Test func aFolderMarkedBesideHoldsNoMarkerAndIsReplacedOnlyWhenMarkedOrRecorded() throws {
        let site = path("site")
        let first = try StagedFolder(path: site, claim: .markedBeside(recorded: false))
        try first.write("one", to: "index.html")
        #expect(contents().count == 1, "only the staging folder before the commit")
        try first.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: site) == ["index.html"])
        #expect(contents() == [".site.fanout-output", "site"])
        let second = try StagedFolder(path: site, claim: .markedBeside(recorded: false))
        try second.write("two", to: "index.html")
        try second.commitInPlace([.move(from: "index.html", to: "index.html")])
        #expect(try String(contentsOfFile: path("site/index.html"), encoding: .utf8) == "two")

        // Without the marker beside it, the folder is refused unless recorded or marked inside.
        try FileManager.default.removeItem(atPath: path(".site.fanout-output"))
        #expect(throws: OutputError.self) { try StagedFolder(path: site, claim: .markedBeside(recorded: false)) }
        try StagedFolder(path: site, claim: .markedBeside(recorded: true)).abandon()
        try Data().write(to: URL(fileURLWithPath: path("site/\(StagedFolder.markerName)")))
        try StagedFolder(path: site, claim: .markedBeside(recorded: false)).abandon()
        #expect(contents() == ["site"], "nothing left by the folders abandoned")
    }

    /// The id of a process that has ended.
    static func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func temporariesOfEndedRunsAreSweptAndAPreviousOutputMovedAsideIsPutBack() throws {
        let dead = try Self.deadPID()
        #expect(TemporaryName.parse(".my.site.fanout-tmp-42") == .init(name: "my.site", purpose: .tmp, pid: 42))
        #expect(TemporaryName.parse(".site.fanout-old-7")?.purpose == .old)
        #expect(TemporaryName.parse("site.fanout-tmp-42") == nil && TemporaryName.parse(".site.fanout-tmp-x") == nil)
        // A killed build's staging folder and report, and the previous site it had moved aside before dying.
        for name in [".blog.fanout-tmp-\(dead)", ".blog.fanout-old-\(dead)", ".report.json.fanout-tmp-\(dead)"] {
            try FileManager.default.createDirectory(atPath: path("\(name)/deep"), withIntermediateDirectories: true)
        }
        try Data("previous".utf8).write(to: URL(fileURLWithPath: path(".blog.fanout-old-\(dead)/index.html")))
        // A live process's temporaries are not touched.
        let live = ".other.fanout-tmp-\(getppid())"
        try FileManager.default.createDirectory(atPath: path(live), withIntermediateDirectories: true)
        try AtomicFile.write("x", to: path("unrelated.txt"))
        #expect(contents() == [live, "blog", "unrelated.txt"])
        #expect(try String(contentsOfFile: path("blog/index.html"), encoding: .utf8) == "previous")
    }
}
