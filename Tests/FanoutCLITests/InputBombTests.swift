import FanoutTestSupport
import Foundation
import Testing

/// Decompression and stream bombs (docs/robustness.md "Decompression bombs"): refused with one clear error and
/// exit 2, within bounded memory and time, never an allocation failure or a read of the whole stream.
@Suite struct InputBombTests {
    /// Writes `name`: `text`, then `mebibytes` MiB of spaces, gzipped as `text` in one member and then one member
    /// of 1 MiB of spaces repeated (a gzip reader reads every member), so that Python compresses 1 MiB only.
    static func gzipBomb(_ cli: CLI, _ name: String, text: String = "", mebibytes: Int) throws {
        let script = """
            import gzip, sys
            name, text, count = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
            member = gzip.compress(b' ' * (1 << 20), 9)
            with open(name, 'wb') as out:
                out.write(gzip.compress(text, 9))
                for _ in range(count): out.write(member)
            """
        let result = try runTool("python3", ["-c", script, name, text, String(mebibytes)], in: cli.folder)
        #expect(result.code == 0, "\(result.stderr)")
    }

    /// Runs `script` with `sh` in the folder, `$FANOUT` the binary.
    static func shell(_ cli: CLI, _ script: String, environment: [String: String] = [:]) throws -> CLI.Result {
        var variables = environment
        variables["FANOUT"] = CLI.binary.path
        return try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: cli.folder, environment: variables)
    }

    /// One line on stderr, `Error: cannot read FILE: …` with `text`, exit 2 and nothing on stdout.
    static func expectRefusal(
        _ result: CLI.Result, _ prefix: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.code == 2, "exit \(result.code): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("Error: \(prefix)"), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result.stdout)", sourceLocation: sourceLocation)
    }

    /// 2 MB of gzip holding 2 GiB of spaces, read under a 1 GB address-space limit: before, the doubling buffer
    /// failed to allocate (exit 134, a backtrace); now it stops at 100 times the compressed size.
    @Test func aGzipBombIsRefusedWithinBoundedMemory() throws {
        let cli = try CLI()
        try Self.gzipBomb(cli, "bomb.json.gz", text: "{\"users\": {}", mebibytes: 2048)
        let size = try FileManager.default.attributesOfItem(atPath: cli.url("bomb.json.gz").path)[.size] as? Int ?? 0
        #expect(size < 4 << 20, "\(size) bytes")
        let result = try Self.shell(cli, "ulimit -v 1000000 && exec \"$FANOUT\" check bomb.json.gz")
        Self.expectRefusal(
            result, "cannot read bomb.json.gz: ",
            "its gzip data inflates to more than 205 MiB from 2.1 MiB, over 100 times its size: "
                + "refused as a decompression bomb (if the export is real, set FANOUT_MAX_INFLATED_SIZE")
        // The same through standard input, and for `tables`, which spools gzip to a temporary file.
        let piped = try Self.shell(cli, "ulimit -v 1000000 && exec \"$FANOUT\" check - < bomb.json.gz")
        Self.expectRefusal(piped, "cannot read standard input: ", "inflates to more than 205 MiB")
        let tables = try cli.run("tables", "bomb.json.gz", "--out", "tables")
        Self.expectRefusal(tables, "cannot read bomb.json.gz: ", "refused as a decompression bomb")
        #expect(!cli.exists("tables"))
        #expect(cli.files(under: ".").filter { $0 != "bomb.json.gz" }.isEmpty, "\(cli.files(under: "."))")
    }

    /// Below the allowance (64 MiB), any ratio is read: a small export padded with spaces is an export; past it,
    /// `FANOUT_MAX_INFLATED_SIZE` lets a real export that compresses extremely well through.
    @Test func theAllowanceReadsSmallInputsAndCanBeRaised() throws {
        let cli = try CLI()
        let export = RobustnessCLITests.export()
        try Self.gzipBomb(cli, "small.json.gz", text: export, mebibytes: 32)
        let small = try cli.run("check", "small.json.gz")
        #expect(small.code == 0, "\(small.stderr)")
        try Self.gzipBomb(cli, "padded.json.gz", text: export, mebibytes: 96)
        Self.expectRefusal(try cli.run("check", "padded.json.gz"), "cannot read padded.json.gz: ", "more than 64 MiB")
        let raised = try cli.run(["check", "padded.json.gz"], environment: ["FANOUT_MAX_INFLATED_SIZE": "128M"])
        #expect(raised.code == 0, "\(raised.stderr)")
        let wrong = try cli.run(["check", "padded.json.gz"], environment: ["FANOUT_MAX_INFLATED_SIZE": "lots"])
        Self.expectRefusal(wrong, "cannot read padded.json.gz: ", "FANOUT_MAX_INFLATED_SIZE=lots is not a size")
    }

    /// A Parse zip whose class file states 128 MiB from a few hundred kilobytes: refused from its stated size,
    /// before anything is inflated (before, a 1 GiB one took 3.2 GB and five minutes).
    @Test func aParseZipBombIsRefusedBeforeInflating() throws {
        let cli = try CLI()
        let script = """
            import zipfile
            with zipfile.ZipFile('bomb.zip', 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                with z.open('export/_User.json', 'w') as f:
                    f.write(b'{"results": [')
                    for _ in range(128): f.write(b' ' * (1 << 20))
                    f.write(b']}')
            """
        let made = try runTool("python3", ["-c", script], in: cli.folder)
        #expect(made.code == 0, "\(made.stderr)")
        let result = try Self.shell(cli, "ulimit -v 1000000 && exec \"$FANOUT\" check bomb.zip")
        Self.expectRefusal(
            result, "cannot read bomb.zip: export/_User.json: cannot extract it from the archive: ",
            "it inflates to more than 64 MiB from ")
    }

    /// NUL bytes on standard input and `/dev/zero` are refused at byte 1, as the same bytes in a file are, after
    /// reading the first bytes, where before they were all read (3 GB of them took 4.2 GB of memory).
    @Test func nulBytesAreRefusedAtTheFirstByte() throws {
        let cli = try CLI()
        let expected = "invalid JSON at line 1, column 1: expected a value, found byte 0x00"
        let start = Date()
        let piped = try Self.shell(cli, "head -c 3G /dev/zero | timeout 60 \"$FANOUT\" check -")
        Self.expectRefusal(piped, "standard input: ", expected)
        let device = try Self.shell(cli, "timeout 60 \"$FANOUT\" check /dev/zero")
        Self.expectRefusal(device, "/dev/zero: ", expected)
        let endless = try Self.shell(cli, "timeout 60 \"$FANOUT\" check - < /dev/zero")
        Self.expectRefusal(endless, "standard input: ", expected)
        #expect(Date().timeIntervalSince(start) < 20, "\(Date().timeIntervalSince(start)) s")
        // Fed by a process that writes on after fanout has stopped reading (this test's own), as a shell pipeline.
        let fed = try cli.run("check", "-", stdin: Data(count: 64 << 20))
        Self.expectRefusal(fed, "standard input: ", expected)
        // The same bytes in a file give the same error.
        try Data(count: 1 << 20).write(to: cli.url("zeros.json"))
        Self.expectRefusal(try cli.run("check", "zeros.json"), "zeros.json: ", expected)
    }

    /// Whitespace and a byte order mark before the first bad byte: the stream's error names the line and column
    /// the reader gives for the same bytes in a file; binary input and gzip of binary are refused at their start.
    @Test func aStreamsFirstBadByteIsWhereAFileSaysItIs() throws {
        let cli = try CLI()
        var bytes = Data([0xEF, 0xBB, 0xBF])
        bytes.append(Data(" \n\t\r\n  ".utf8))
        bytes.append(Data([0x89]))
        bytes.append(Data(count: 1 << 16))
        try bytes.write(to: cli.url("odd.json"))
        let file = try cli.run("check", "odd.json")
        Self.expectRefusal(file, "odd.json: ", "invalid JSON at line 3, column 3: expected a value, found byte 0x89")
        let piped = try cli.run("check", "-", stdin: bytes)
        Self.expectRefusal(piped, "standard input: ", String(file.stderr.dropFirst("Error: odd.json: ".count)))
        let elf = try Self.shell(cli, "timeout 60 \"$FANOUT\" check - < \"$FANOUT\"")
        Self.expectRefusal(elf, "standard input: ", "line 1, column 1: expected a value, found byte 0x7F")
        let made = try runTool(
            "python3", ["-c", "import gzip; open('nul.json.gz', 'wb').write(gzip.compress(bytes(1 << 24)))"],
            in: cli.folder)
        #expect(made.code == 0, "\(made.stderr)")
        Self.expectRefusal(
            try cli.run("check", "nul.json.gz"), "nul.json.gz: ", "line 1, column 1: expected a value, found byte 0x00")
    }
}
