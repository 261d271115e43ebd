import FanoutTestSupport
import Foundation
import Testing

/// The pipeline's first two stages stay free of Foundation (CONTRIBUTING.md "Architecture"): the reader and the
/// core use the standard library, the C scanners and the system's C library only, so that the core can do no I/O of
/// its own and builds wherever Swift's standard library does. A Foundation import in one file would make its
/// members visible to every file of the module, which is how `Audit.swift`'s once hid a use elsewhere.
///
/// The template engine knows nothing of what it renders: `FanoutTemplates` imports neither the site nor the reports
/// nor the core (the site's values reach it through `TemplateValues` and `TemplateValueKinds`), and the reports do
/// not import the site, which imports them.
@Suite struct ModuleImportsTests {
    static let allowed: [String: Set<String>] = [
        "FanoutJSON": ["CPrefetch", "CScan", "Darwin", "Glibc", "Musl"],
        "FanoutCore": [
            "FanoutJSON", "FanoutLocked", "CPrefetch", "Dispatch", "Synchronization", "Darwin", "Glibc", "Musl",
        ],
        "FanoutTemplates": ["FanoutLocked", "Mustache", "Foundation", "Darwin", "Glibc", "Musl"],
        "FanoutReports": ["FanoutCore", "FanoutJSON", "FanoutTemplates", "Foundation", "Darwin", "Glibc", "Musl"],
    ]

    nonisolated(unsafe) static let importLine =
        /\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(?<module>[\w.]+)\s*/

    @Test(arguments: ["FanoutJSON", "FanoutCore", "FanoutTemplates", "FanoutReports"])
    func importsOnlyWhatItMay(module: String) throws {
        let folder = repositoryFile("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "the module's sources are under \(folder.path)")
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                // `import X`, `@preconcurrency import X`, `package import X`, `import struct X.Y`
                guard let match = line.wholeMatch(of: Self.importLine) else { continue }
                let imported = String(match.output.module.split(separator: ".")[0])
                #expect(Self.allowed[module]!.contains(imported), "\(file.lastPathComponent) imports \(imported)")
            }
        }
    }
}
