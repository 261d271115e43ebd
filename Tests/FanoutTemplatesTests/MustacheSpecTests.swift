import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// Fanout's template engine (``CompiledTemplates``) against the Mustache specification's test suite
/// (`Tests/Fixtures/mustache-spec/`, a copy of github.com/mustache/spec): every test of the required modules and of `~inheritance`, which the built-in templates use.
///
/// Not run: `~lambdas` (a lambda is code in the data; Fanout's values are data only, so no template can meet one)
/// and `~dynamic-names` (`{{>*name}}`: Fanout leaves such templates to swift-mustache, which supports them, as
/// ``dynamicNamesAndTransformsAreLeftToSwiftMustache()`` checks).
@Suite struct MustacheSpecTests {
    static let folder = repositoryFile("Tests/Fixtures/mustache-spec")

    struct Spec: Decodable {
        struct Test: Decodable {
            let name: String
            let data: SpecValue
            let template: String
            let partials: [String: String]?
            let expected: String
        }

        let tests: [Test]
    }

    /// A JSON value of a test's data, as the engine's value.
    struct SpecValue: Decodable {
        let value: TemplateValue

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let flag = try? container.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                value = .int(number)
            } else if let number = try? container.decode(Double.self) {
                value = .double(number)
            } else if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let items = try? container.decode([SpecValue].self) {
                value = .list(items.map(\.value))
            } else {
                value = .dictionary(try container.decode([String: SpecValue].self).mapValues(\.value))
            }
        }
    }

    @Test(arguments: ["comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~inheritance"])
    func passesTheModule(_ module: String) throws {
        let file = Self.folder.appendingPathComponent("\(module).json")
        let data = try #require(try? Data(contentsOf: file), "the specification is missing: \(file.path)")
        let spec = try JSONDecoder().decode(Spec.self, from: data)
        #expect(spec.tests.count > 5)
        for test in spec.tests {
            var texts = test.partials ?? [:]
            texts["__test__"] = test.template
            let output = try CompiledTemplates(texts).render(test.data.value, template: "__test__")
            #expect(output == test.expected, "\(module): \(test.name)\n\(test.template.debugDescription)")
        }
    }

    @Test func dynamicNamesAndTransformsAreLeftToSwiftMustache() throws {
        let compiled = CompiledTemplates([
            "dynamic": "{{>*name}}", "transform": "{{count(posts)}}", "includes": "a {{>transform}}",
            "plain": "{{>other}}",
            "other": "x",
        ])
        #expect(!compiled.renders("dynamic") && !compiled.renders("transform") && !compiled.renders("includes"))
        #expect(compiled.renders("plain") && compiled.renders("other"))
        let set = try TemplateSet(
            overrides: templateFolder(["t.mustache": "{{count(posts)}} {{#first(posts)}}{{.}}{{/first(posts)}}"]))
        #expect(try set.render(["posts": ["a", "b"]], template: "t") == "2 a")
    }
}
