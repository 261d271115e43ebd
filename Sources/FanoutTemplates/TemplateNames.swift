import Foundation

/// `--strict`: every name a template looks up must be one the code may give it (``TemplateVariables``), and
/// every partial it includes must exist, so that `{{usernmae}}` fails the build instead of rendering as nothing.
enum TemplateNames {
    /// Checks the templates `files` (file name → text); `shown` names each file in messages.
    static func check(
        _ files: [String: String], shown: [String: String],
        variables: (_ template: String, _ includers: Set<String>) -> Set<String>
    ) throws(RenderError) {
        let tags = files.mapValues { TemplateTags($0) }
        func template(_ file: String) -> String { String(file.dropLast(".mustache".count)) }
        // Who includes whom, as a partial or a parent.
        var includedBy: [String: Set<String>] = [:]
        for (file, scan) in tags.sorted(by: { $0.key < $1.key }) {
            for tag in scan.tags where tag.kind == .partial || tag.kind == .parent {
                guard files["\(tag.name).mustache"] != nil else {
                    throw RenderError.templateLine(
                        file: shown[file] ?? file, line: tag.line,
                        message: "there is no template \"\(tag.name)\" (\(tag.name).mustache)")
                }
                includedBy[tag.name, default: []].insert(template(file))
            }
        }
        for (file, scan) in tags.sorted(by: { $0.key < $1.key }) {
            let name = template(file)
            let known = variables(name, includers(of: name, includedBy))
            for tag in scan.tags where tag.kind == .variable || tag.kind == .section {
                for part in lookedUp(tag.name) where !known.contains(part) {
                    throw RenderError.templateLine(
                        file: shown[file] ?? file, line: tag.line,
                        message: "\"\(part)\" is a value no page gives \(file) (--strict); it gets "
                            + known.sorted().joined(separator: ", ") + " (see docs/template-variables.md)")
                }
            }
        }
    }

    /// The templates that include `name`, directly or through others.
    static func includers(of name: String, _ includedBy: [String: Set<String>]) -> Set<String> {
        var found = Set<String>(), queue = [name]
        while let next = queue.popLast() {
            for parent in includedBy[next, default: []] where found.insert(parent).inserted { queue.append(parent) }
        }
        found.remove(name)
        return found
    }

    /// The names a tag's name looks up: `a.b` looks up `a`, then `b` in it; a transform `count(posts)` looks up
    /// `posts`; `.` is the current item.
    static func lookedUp(_ name: String) -> [String] {
        var name = Substring(name)
        while let open = name.firstIndex(of: "("), let close = name.lastIndex(of: ")"), open < close {
            name = name[name.index(after: open)..<close]
        }
        return name.split(separator: ".").map(String.init)
    }
}
