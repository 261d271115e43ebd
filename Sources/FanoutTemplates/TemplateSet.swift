import Foundation
import Mustache

/// The Mustache templates and static assets a site is rendered with.
///
/// Built-in templates ship inside the binary; a site project's `Templates/` folder overrides them file by
/// file (a `timeline.mustache` there replaces the built-in one, every other template stays built in).
///
/// Every template, built in or not, is parsed with ``HTMLContentType/pragmaLine`` in front, so values are escaped
/// by ``HTMLText/escape(_:)`` unless the template declares another content type, as the Markdown ones do.
public struct TemplateSet: Sendable {
    /// swift-mustache's parse of every template: what checks the templates' syntax (its messages, with lines),
    /// and renders the templates Fanout's engine leaves to it (``CompiledTemplates``).
    private let library: MustacheLibrary
    /// The same templates compiled for Fanout's own engine, which renders every template it can
    /// (docs/performance.md "Templates").
    private let compiled: CompiledTemplates
    /// Non-template files (such as `style.css`) by name, copied to the site's root.
    package let assets: [String: String]
    /// Where each asset comes from, for messages: `Templates/style.css`, or `style.css (built in)`.
    package let assetOrigins: [String: String]
    /// Records the values each template is rendered with, for the test that checks ``TemplateVariables``.
    package var recorder: TemplateRecorder?
    /// By template name: a hash of its text and of the texts of every template it includes, directly or not
    /// (``TemplateIncludes``), for the input keys of the pages it renders.
    private let inputHashes: [String: UInt64]
    /// The program's own types of values, told apart first when a page's values are converted.
    private let kinds: (any TemplateValueKinds.Type)?
    /// The templates' texts by name and their files as messages name them, for a render that runs out of its
    /// budget (``RenderOverrun``).
    private let texts: [String: String]
    private let shown: [String: String]

    /// The templates `builtIn` (file name → text), overridden by the files in `overrides` when given and present.
    ///
    /// With `variables`, every name a template looks up must be one of those it gives for the template (its name
    /// and the templates that include it), so that a misspelled variable fails the build instead of rendering as
    /// nothing (``TemplateNames``).
    ///
    /// `kinds`: the program's own types of values (``TemplateValueKinds``); `engine`: which engine renders
    /// (``TemplateEngine``).
    package init(
        builtIn: [String: String], overrides: String? = nil,
        variables: ((_ template: String, _ includers: Set<String>) -> Set<String>)? = nil,
        kinds: (any TemplateValueKinds.Type)? = nil, engine: TemplateEngine = .chosen
    ) throws(RenderError) {
        HTMLContentType.registerOnce()
        MarkdownContentType.registerOnce()
        var files = builtIn
        // Where each file comes from, for messages: `Templates/timeline.mustache`, or the built-in one.
        var shown = Dictionary(uniqueKeysWithValues: files.keys.map { ($0, "\($0) (built in)") })
        if let overrides {
            // A folder named that is not there is a mistake in the command, not a site without overrides.
            guard FileManager.default.fileExists(atPath: overrides) else {
                throw RenderError.template(file: overrides, message: "no such folder")
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: overrides)
            } catch {
                throw RenderError.template(
                    file: overrides, message: "cannot list the folder: \(error.localizedDescription)")
            }
            for name in names where !name.hasPrefix(".") {
                let path = (overrides as NSString).appendingPathComponent(name)
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw RenderError.template(file: path, message: "not readable as UTF-8 text")
                }
                files[name] = text
                shown[name] = path
            }
        }
        let texts = Dictionary(
            uniqueKeysWithValues: files.filter { $0.key.hasSuffix(".mustache") }.map { name, text in
                (String(name.dropLast(".mustache".count)), text)
            })
        // Before swift-mustache's parser, which recurses once per open section.
        try TemplateNesting.check(texts, shown: shown)
        var library = MustacheLibrary()
        var assets: [String: String] = [:]
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            guard name.hasSuffix(".mustache") else {
                assets[name] = text
                continue
            }
            do {
                // Parsed alone first, so that a syntax error's line number is the file's own.
                _ = try MustacheTemplate(string: text)
                try library.register(HTMLContentType.pragmaLine + text, named: String(name.dropLast(".mustache".count)))
            } catch {
                let (line, message) = TemplateSyntax.describe(error, in: text)
                throw RenderError.templateLine(file: shown[name] ?? name, line: line, message: message)
            }
        }
        if let variables {
            try TemplateNames.check(files.filter { $0.key.hasSuffix(".mustache") }, shown: shown, variables: variables)
        }
        self.library = library
        self.kinds = kinds
        self.texts = texts
        self.shown = shown
        compiled = engine == .swiftMustache ? CompiledTemplates([:]) : CompiledTemplates(texts)
        self.assets = assets
        assetOrigins = shown.filter { assets[$0.key] != nil }
        inputHashes = TemplateIncludes.closures(texts).mapValues { names in
            var hasher = StableHasher()
            for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                hasher.combine(name)
                if let text = texts[name] { hasher.combine(text) } else { hasher.combine(false) }
            }
            return hasher.finalize()
        }
    }

    /// A hash of the template called `name` and of every template it includes: it changes when any of them does.
    package func inputHash(of name: String) -> UInt64 { inputHashes[name] ?? 0 }

    /// Whether there is a template called `name` (its file name without `.mustache`).
    package func contains(_ name: String) -> Bool { library.getTemplate(named: name) != nil }

    /// Renders `context` with the template called `name` (its file name without `.mustache`).
    package func render(_ context: [String: Any], template name: String) throws(RenderError) -> String {
        recorder?.record(context, template: name)
        if compiled.renders(name) {
            return try withinBudget { () throws(RenderOverrun) in
                try compiled.render(
                    .dictionary(context.mapValues { TemplateValue($0, kinds: kinds) }), template: name,
                    budget: Self.budget(context))
            } ?? ""
        }
        return try swiftMustache(context, template: name)
    }

    /// ``render(_:template:)``'s text as UTF-8 bytes: how `build` renders a page, whose bytes go to its file as they
    /// are (``SiteOutput/write(_:to:inputKey:log:)``).
    package func renderBytes(
        _ context: [String: Any], template name: String, fragments: (any TemplateFragments)? = nil
    ) throws(RenderError) -> [UInt8] {
        recorder?.record(context, template: name)
        if compiled.renders(name) {
            return try withinBudget { () throws(RenderOverrun) in
                try compiled.bytes(
                    .dictionary(context.mapValues { TemplateValue($0, kinds: kinds) }), template: name,
                    capacity: 65_536, fragments: fragments, budget: Self.budget(context))
            } ?? []
        }
        return Array(try swiftMustache(context, template: name).utf8)
    }

    /// The hashes of the bodies of the sections named `list` that rendering `template` with Fanout's engine may reach
    /// (``CompiledTemplates/listBodyHashes(named:in:)``); empty when swift-mustache renders it.
    package func listBodyHashes(named list: String, in template: String) -> [UInt64] {
        compiled.listBodyHashes(named: list, in: template)
    }

    /// Renders `values` with the template called `name` (its file name without `.mustache`).
    package func render(_ values: some TemplateValues, template name: String) throws(RenderError) -> String {
        recorder?.record(values, template: name)
        if compiled.renders(name) {
            return try withinBudget { () throws(RenderOverrun) in try compiled.render(.object(values), template: name) }
                ?? ""
        }
        return try swiftMustache(values, template: name)
    }

    /// The budget of a page rendered with `context`: by the items its lists hold (``RenderBudget/page(listing:)``).
    private static func budget(_ context: [String: Any]) -> RenderBudget {
        .page(listing: context.values.reduce(0) { $0 + (($1 as? any Collection)?.count ?? 0) })
    }

    /// What `render` returns, or the error naming where a render ran out of its budget (``RenderBudget``).
    private func withinBudget<T>(_ render: () throws(RenderOverrun) -> T) throws(RenderError) -> T {
        do {
            return try render()
        } catch {
            throw error.error(texts: texts, shown: shown)
        }
    }

    /// Renders `context` with swift-mustache: the templates Fanout's engine leaves to it, and the differential
    /// tests' oracle.
    package func swiftMustache(_ context: Any, template name: String) throws(RenderError) -> String {
        guard let output = library.render(context, withTemplate: name) else {
            throw RenderError.template(file: "\(name).mustache", message: "no such template")
        }
        return output
    }
}

/// Which engine renders a ``TemplateSet``'s templates (docs/performance.md "Templates").
public enum TemplateEngine: Sendable {
    /// Fanout's own wherever it can (``CompiledTemplates``), swift-mustache for the templates it leaves.
    case fanout
    /// swift-mustache alone, as before Fanout had its own: the differential tests' oracle and the benchmark's
    /// comparison.
    case swiftMustache

    /// `.swiftMustache` when the environment sets `FANOUT_SWIFT_MUSTACHE` (so that the benchmark can compare both
    /// engines with one binary), else `.fanout`.
    public static var chosen: TemplateEngine { getenv("FANOUT_SWIFT_MUSTACHE") != nil ? .swiftMustache : .fanout }
}

/// Escapes text for Markdown output, for templates that start with `{{%CONTENT_TYPE:MARKDOWN}}`.
///
/// Usernames and captions must not turn into links, emphasis, headings, HTML or table cells in the
/// Markdown twin pages, so every character with inline meaning is backslash-escaped and line breaks fold.
struct MarkdownContentType: MustacheContentType {
    private static let register: Void = MustacheContentTypes.register(MarkdownContentType(), named: "MARKDOWN")

    package static func registerOnce() { _ = register }

    package func escapeText(_ text: String) -> String { MarkdownText.escape(text) }
}

/// Markdown escaping shared by templates and report writers.
package enum MarkdownText {
    /// `text` with Markdown syntax characters escaped, line breaks folded into spaces, and characters no document
    /// may hold spelled out (``VisibleCharacters``).
    package static func escape(_ text: String) -> String {
        let text = VisibleCharacters.forDocuments(text)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        var onlyDigits = true
        for byte in text.utf8 {
            let atStart = out.isEmpty
            switch byte {
            case 0x0A, 0x0D:
                out.append(0x20)
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
                UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "!"),
                UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "~"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "("), UInt8(ascii: ")"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "="):
                // At the start these would open a list, or underline a heading.
                if atStart { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            case UInt8(ascii: "."):
                // "1. text" at the start would become a list item.
                if onlyDigits && !atStart { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            default:
                out.append(byte)
            }
            onlyDigits = onlyDigits && byte >= 0x30 && byte <= 0x39
        }
        return String(decoding: out, as: UTF8.self)
    }
}
