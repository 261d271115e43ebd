import FanoutTestSupport
import Foundation
import Testing

/// Runs that end before their output is complete leave the previous output as it was and, sooner or later,
/// nothing else: a build stopped by a signal deletes its temporary folder, one killed outright leaves it to the
/// next run, which deletes it, and a run that cannot write says where and why, naming the output as the user did.
///
/// Each test stops a real `fanout build` of a generated export (large enough to be caught while it renders)
/// with a real signal.
@Suite struct InterruptedOutputTests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// A folder with a built demo site in `site` (the previous output, which must survive) and a generated
    /// export `big.json` whose build takes seconds.
    static func setUp() throws -> CLI {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "200", "--seed", "3", "--out", "big.json").code == 0)
        #expect(try cli.run("build", Self.demo, "--out", "site").code == 0)
        return cli
    }

    /// The temporaries Fanout names `.NAME.fanout-PURPOSE-PID` in the test's folder (`in: ".fanout-cache"`: in the
    /// folder of the site's cache, where its cache is staged), leaving out what a build keeps: the cache and the
    /// site's marker beside it.
    static func temporaries(_ cli: CLI, in folder: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cli.url(folder).path)) ?? []).filter {
            $0.contains(".fanout-") && $0 != ".fanout-cache" && !$0.hasSuffix(".fanout-output")
        }.sorted()
    }

    /// Starts `fanout build big.json --out site`, waits until it is writing its staging folder, sends `signal`
    /// and waits for the end. Fails the test when the build ended before it could be stopped.
    static func stopBuild(_ cli: CLI, with signal: Int32) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["build", "big.json", "--out", "site"]
        process.currentDirectoryURL = cli.folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let staging = ".site.fanout-tmp-\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(300)
        // Pages are being written once a folder below the staging folder exists.
        while !cli.exists("\(staging)/users") && process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(process.isRunning, "the build ended before it could be stopped")
        process.stop(with: signal, within: 120)
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
            "ended by the signal, as a shell reports it (128 + \(signal)): \(process.terminationReason) \(process.terminationStatus)"
        )
        return process
    }

    /// The files of the demo site, as a build of it leaves them.
    static let demoSite: [String] = {
        guard let cli = try? CLI(), (try? cli.run("build", demo, "--out", "site"))?.code == 0 else { return [] }
        return cli.files(under: "site")
    }()

    /// The demo site built first is still in place, whole.
    static func expectPreviousSite(_ cli: CLI, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!demoSite.isEmpty && cli.files(under: "site") == demoSite, sourceLocation: sourceLocation)
        #expect(
            (try? cli.read("site/index.html"))?.contains("demo-export.json") == true, sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(10)))
    func aBuildStoppedBySIGTERMOrSIGINTDeletesItsTemporaryFolder() throws {
        let cli = try Self.setUp()
        for signal in [SIGTERM, SIGINT] {
            _ = try Self.stopBuild(cli, with: signal)
            #expect(Self.temporaries(cli) == [] && Self.temporaries(cli, in: ".fanout-cache") == [], "signal \(signal)")
            Self.expectPreviousSite(cli)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aBuildKilledOutrightLeavesItsFolderToTheNextRunWhichDeletesIt() throws {
        let cli = try Self.setUp()
        // The next run writing a file next to it (a report) deletes it …
        let first = try Self.stopBuild(cli, with: SIGKILL)
        // Its lock file too, which no process holds any more (docs/commands.md "How outputs are written").
        let left = [".site.fanout-lock", ".site.fanout-tmp-\(first.processIdentifier)"]
        #expect(Self.temporaries(cli) == left, "SIGKILL cannot be handled")
        #expect(Self.temporaries(cli, in: ".fanout-cache") == left, "nor in the cache's folder")
        Self.expectPreviousSite(cli)
        #expect(
            try cli.run("check", Self.demo, "--format", "json", "--output", "report.json", "--fail-on", "never").code
                == 0)
        #expect(Self.temporaries(cli) == [])
        // … and so does the next build, in both folders.
        let second = try Self.stopBuild(cli, with: SIGKILL)
        #expect(Self.temporaries(cli) == [".site.fanout-lock", ".site.fanout-tmp-\(second.processIdentifier)"])
        #expect(try cli.run("build", Self.demo, "--out", "site").code == 0)
        #expect(Self.temporaries(cli) == [] && Self.temporaries(cli, in: ".fanout-cache") == [])
        Self.expectPreviousSite(cli)
    }

    @Test func aDiskFullFromTheStartLeavesNothingBehind() throws {
        let cli = try CLI()
        #expect(try cli.run("build", Self.demo, "--out", "site").code == 0)
        // No file may grow past 0 bytes: the first write, the staging folder's marker, fails with EFBIG as it
        // would with ENOSPC (SIGXFSZ ignored, so the write fails instead of killing the process).
        let result = try cli.shell("trap '' XFSZ; ulimit -f 0; exec \"$FANOUT\" build \"$DEMO\" --out site")
        #expect(result.code == 2, "\(result.stderr)")
        #expect(result.stderr.contains("site: cannot write: File too large; nothing was written"), "\(result.stderr)")
        #expect(!result.stderr.contains("fanout-tmp"))
        #expect(Self.temporaries(cli) == [] && Self.temporaries(cli, in: ".fanout-cache") == [])
        Self.expectPreviousSite(cli)
    }

    /// A read-only volume as a container mounts one. Tests run as root, which permission bits do not stop, so
    /// the folder is bind-mounted read-only in a private mount namespace (`unshare`), where writes really fail
    /// (`EROFS`), whoever runs them.
    @Test(.enabled(if: CLI.canMountReadOnly, "needs unshare -rm and mount (util-linux) with user namespaces"))
    func anUnwritableParentNamesTheOutputAndTheReason() throws {
        let cli = try CLI()
        try FileManager.default.createDirectory(at: cli.url("volume"), withIntermediateDirectories: true)
        let mounted = "mount --bind -o ro volume volume && "
        let build = try cli.shell(mounted + "exec \"$FANOUT\" build \"$DEMO\" --out volume/site", readOnlyMount: true)
        #expect(build.code == 2, "\(build.stderr)")
        #expect(
            build.stderr.contains("volume/site: cannot write in volume: Read-only file system; nothing was written"),
            "\(build.stderr)")
        #expect(!build.stderr.contains("fanout-tmp"), "the message names --out, not the temporary folder")
        let report = try cli.shell(
            mounted + "exec \"$FANOUT\" check \"$DEMO\" --format json --output volume/report.json",
            readOnlyMount: true)
        #expect(
            report.code == 2 && report.stderr.contains("volume/report.json: cannot write: Read-only file system"),
            "\(report.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.url("volume").path) == [])
    }
}

extension CLI {
    /// Whether this machine lets a process mount a folder read-only in a namespace of its own.
    static let canMountReadOnly: Bool = {
        guard let cli = try? CLI(),
            (try? FileManager.default.createDirectory(at: cli.url("probe"), withIntermediateDirectories: true)) != nil,
            let result = try? cli.shell(
                "mount --bind -o ro probe probe && ! touch probe/x 2>/dev/null", readOnlyMount: true)
        else { return false }
        return result.code == 0
    }()

    /// Runs `script` with `sh` in the folder, with `$FANOUT` the binary and `$DEMO` the demo export; with
    /// `readOnlyMount`, in a private user and mount namespace (`unshare -rm`), so that it may mount.
    func shell(_ script: String, readOnlyMount: Bool = false) throws -> Result {
        try runProcess(
            URL(fileURLWithPath: readOnlyMount ? "/usr/bin/unshare" : "/bin/sh"),
            (readOnlyMount ? ["-rm", "sh"] : []) + ["-c", script],
            in: folder,
            environment: [
                "FANOUT": Self.binary.path,
                "DEMO": Self.repository.appendingPathComponent("Content/demo-export.json").path,
            ])
    }
}
