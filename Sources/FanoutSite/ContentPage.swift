import FanoutTemplates
import Foundation

/// A Markdown page from the site project's `Content/` folder.
///
/// Front matter between `---` lines may set `title` and `order` (`key: value`). `index.md` is the
/// introduction shown on the home page; every other `name.md` becomes `name.html`, linked from the navigation
/// in `order`, then by file name.
package struct ContentPage: Sendable, Equatable {
    /// The file name without `.md`.
    package var name: String
    /// The title from front matter, else the first heading, else the name.
    package var title: String
    /// Navigation order; pages without one come last.
    package var order: Int
    /// The Markdown body without front matter.
    package var markdown: String

    /// Reads every `.md` file directly in `directory`; a missing folder has no pages.
    package static func load(from directory: String) throws(RenderError) -> [ContentPage] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var pages: [ContentPage] = []
        for name in names.sorted() where name.hasSuffix(".md") && !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw RenderError.content(file: path, message: "not readable as UTF-8 text")
            }
            pages.append(try parse(text, name: String(name.dropLast(3)), file: path))
        }
        return pages.sorted { ($0.order, $0.name) < ($1.order, $1.name) }
    }

    /// Splits front matter from the body.
    static func parse(_ text: String, name: String, file: String) throws(RenderError) -> ContentPage {
        var body = Substring(text)
        var title: String?
        var order = Int.max
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.first?.trimmingCharacters(in: .whitespaces) == "---" {
            guard let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" })
            else {
                throw RenderError.content(file: file, message: "front matter starts with --- but never ends")
            }
            for (offset, line) in lines[1..<end].enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else {
                    throw RenderError.content(file: file, message: "line \(offset + 2): expected `key: value`")
                }
                let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                switch parts[0] {
                case "title": title = value
                case "order":
                    guard let number = Int(value) else {
                        throw RenderError.content(
                            file: file, message: "line \(offset + 2): order must be a whole number")
                    }
                    order = number
                default: break
                }
            }
            body = lines[(end + 1)...].joined(separator: "\n")[...]
        }
        if title == nil, let heading = body.split(separator: "\n").first(where: { $0.hasPrefix("# ") }) {
            title = String(heading.dropFirst(2)).trimmingCharacters(in: .whitespaces)
        }
        return ContentPage(name: name, title: title ?? name, order: order, markdown: String(body))
    }
}
