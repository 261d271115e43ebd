import Foundation
import Testing

/// The demo site in a real browser: headless Chromium (Debian's `chromium`) loads the index, a timeline and the
/// report and must log no console error. Screenshots are kept in `$FANOUT_SCREENSHOTS` when set, for a person to
/// look at. Skipped where Chromium is not installed.
/// Where the browser is.
enum Chromium {
    /// `$CHROMIUM`, else the first of the usual names on the PATH.
    static let path: String? = {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"] { return path }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()
}

@Suite(.enabled(if: Chromium.path != nil, "needs chromium (apt-get install -y chromium)"))
struct ChromiumTests {
    /// Runs Chromium headless on `page` with `extra` arguments; returns its stdout and stderr.
    func chromium(_ page: URL, _ extra: [String], profile: URL) throws -> (stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Chromium.path!)
        process.arguments =
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=\(profile.path)", "--window-size=1000,1400",
            ] + extra + [page.absoluteString]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A hung browser must not hang the suite.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func demoSiteLoadsWithoutConsoleErrors() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content")
        let build = try cli.run(
            "build", demo.appendingPathComponent("demo-export.json").path, "--out", "site",
            "--content", demo.path, "--per-page", "3")
        #expect(build.code == 0, "\(build.stderr)")
        let timeline = try #require(try TimelinePages(cli, site: "site").files.values.first { $0.count > 1 })
        // Kept where FANOUT_SCREENSHOTS says, for a person to look at; otherwise deleted with the test's folder.
        let shots =
            ProcessInfo.processInfo.environment["FANOUT_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? cli.url("screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let pages: [(name: String, file: String, mustShow: String)] = [
            ("index", "index.html", "<table class=\"users\">"),
            ("timeline", timeline[0], "data-timeline="),
            ("report", "report.html", "<svg class=\"chart\""),
        ]
        for page in pages {
            let url = cli.url("site/\(page.file)")
            let dom = try chromium(url, ["--dump-dom"], profile: cli.url("profile-\(page.name)"))
            #expect(dom.stdout.contains(page.mustShow), "\(page.name): Chromium rendered the page")
            for line in dom.stderr.split(separator: "\n") {
                #expect(
                    !line.contains("Uncaught") && !line.contains("ERROR:CONSOLE") && !line.contains(":CONSOLE("),
                    "\(page.name): \(line)")
            }
            let shot = shots.appendingPathComponent("\(page.name).png")
            try? FileManager.default.removeItem(at: shot)
            _ = try chromium(url, ["--screenshot=\(shot.path)"], profile: cli.url("profile-\(page.name)-shot"))
            #expect(FileManager.default.fileExists(atPath: shot.path), "\(page.name): screenshot taken")
        }
    }
}
