import FanoutTestSupport
import Foundation
import Testing

/// Runs that write one output at once, started as users start them: each output has one writer at a time, the
/// others wait for it, and none loses what another wrote (docs/commands.md "How outputs are written").
@Suite struct ConcurrentOutputTests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// Runs every command line of `runs` in `cli`'s folder at once and returns their results, in order.
    static func together(_ cli: CLI, _ runs: [[String]]) -> [Result<CLI.Result, any Error>] {
        let results = LockedBox<[Int: Result<CLI.Result, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let result = Result { try cli.run(runs[index]) }
            results.withLock { $0[index] = result }
        }
        return results.withLock { results in runs.indices.map { results[$0]! } }
    }

    @Test func tenConcurrentHistoryRunsLeaveTenRecords() throws {
        let cli = try CLI()
        let results = Self.together(cli, Array(repeating: ["check", Self.demo, "--history", "h.ndjson"], count: 10))
        for result in results {
            let run = try result.get()
            #expect(run.code == 0 || run.code == 1, "\(run.stderr)")
        }
        let lines = try cli.read("h.ndjson").split(separator: "\n")
        #expect(lines.count == 10, "\(lines.count) records")
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any]) }
        #expect(try cli.run("history", "h.ndjson").code == 0)
        // No lock file is left beside the history.
        #expect(cli.files(under: ".") == ["h.ndjson"])
    }

    /// Two builds of different exports into one folder at once: both end, one after the other, and the folder is
    /// a clean build of one of them; the next rebuild equals a clean build.
    @Test func twoConcurrentBuildsIntoOneFolder() throws {
        let cli = try CLI()
        for (name, seed) in [("a.json", "1"), ("b.json", "2"), ("c.json", "3")] {
            let generated = try cli.run("generate", "--users", "200", "--seed", seed, "--defects", "20", "--out", name)
            #expect(generated.code == 0, "\(generated.stderr)")
        }
        #expect(try cli.run("build", "a.json", "--out", "cleanA").code == 0)
        #expect(try cli.run("build", "b.json", "--out", "cleanB").code == 0)
        for round in 0..<2 {
            // From a third export's site, so that both builds render and replace pages in place.
            #expect(try cli.run("build", "c.json", "--out", "site").code == 0)
            let results = Self.together(
                cli, [["build", "a.json", "--out", "site"], ["build", "b.json", "--out", "site"]])
            for result in results {
                let run = try result.get()
                #expect(run.code == 0, "round \(round): \(run.stderr)")
            }
            let fromA = try IncrementalBuildPropertyTests.differences(cli, "site", "cleanA")
            let fromB = try IncrementalBuildPropertyTests.differences(cli, "site", "cleanB")
            #expect(
                fromA.isEmpty || fromB.isEmpty,
                "round \(round): \(fromA.count) files differ from a's build, \(fromB.count) from b's: \(fromA.prefix(4))"
            )
            let rebuild = try cli.run("build", "a.json", "--out", "site")
            #expect(rebuild.code == 0, "\(rebuild.stderr)")
            let afterRebuild = try IncrementalBuildPropertyTests.differences(cli, "site", "cleanA")
            #expect(afterRebuild.isEmpty, "round \(round): \(afterRebuild.prefix(8))")
        }
        #expect(!cli.files(under: ".").contains { $0.contains("fanout-lock") })
    }

    /// A run that waits says whom it waits for.
    @Test func aWaitingRunSaysSo() throws {
        let cli = try CLI()
        // A lock held by this test process, as another run would hold it.
        let holder = try OutputLockHolder(cli.url(".site.fanout-lock").path)
        let waiting = LockedBox<CLI.Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            waiting.withLock { $0 = try? cli.run("build", Self.demo, "--out", "site") }
            done.signal()
        }.start()
        // Not finished while the lock is held.
        #expect(done.wait(timeout: .now() + 3) == .timedOut)
        #expect(!cli.exists("site"))
        holder.release()
        done.wait()
        let result = try #require(waiting.withLock { $0 })
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("waiting for process \(getpid()), which is writing site, to finish"),
            "\(result.stderr)")
        #expect(cli.exists("site/index.html"))
    }
}

/// A lock file locked as ``OutputLock`` locks it, by a process that is not `fanout`: the test itself.
private final class OutputLockHolder {
    let fd: Int32
    let path: String

    init(_ path: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0, flock(fd, LOCK_EX) == 0 else { throw CLIError("cannot lock \(path)") }
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    func release() {
        unlink(path)
        close(fd)
    }
}
