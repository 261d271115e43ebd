import Foundation

/// The timelines of a built site as a reader sees them: every page of each timeline, read in page order.
struct TimelinePages {
    /// A timeline's pages by uid (from the pages' `data-timeline` hooks), in order: `index.html`, `page-2.html`, …
    var files: [String: [String]] = [:]
    /// Every timeline's posts (`data-post` hooks), its pages concatenated in order.
    var posts: [String: [String]] = [:]

    /// Page 1 is `index.html`; page N is `page-N.html`; nil for any other file.
    static func pageNumber(_ file: String) -> Int? {
        let name = (file as NSString).lastPathComponent
        if name == "index.html" || name == "index.md" { return 1 }
        guard let match = name.wholeMatch(of: /page-([0-9]+)\.(html|md)/) else { return nil }
        return Int(match.output.1)
    }

    /// Reads the timeline pages of the site in `site` (a folder of `cli`), checking each page carries one
    /// `data-timeline` hook and lives in a user's folder.
    init(_ cli: CLI, site: String) throws {
        var pages: [String: [(Int, String)]] = [:]
        for file in cli.files(under: site) where file.hasSuffix(".html") {
            let html = try cli.read("\(site)/\(file)")
            let marks = html.matches(of: /data-timeline="([^"]*)"/).map { String($0.output.1) }
            guard let uid = marks.first else { continue }
            guard marks.count == 1, file.hasPrefix("users/"), let number = Self.pageNumber(file) else {
                throw Problem(message: "\(file) is not a timeline page but has data-timeline")
            }
            pages[uid, default: []].append((number, file))
        }
        for (uid, list) in pages {
            let ordered = list.sorted { $0.0 < $1.0 }
            guard ordered.map(\.0) == Array(1...ordered.count) else {
                throw Problem(message: "timeline \(uid) has pages \(ordered.map(\.0))")
            }
            files[uid] = ordered.map(\.1)
            posts[uid] = try ordered.flatMap { try EndToEndTests.dataPosts(cli.read("\(site)/\($0.1)")) }
        }
    }

    struct Problem: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
