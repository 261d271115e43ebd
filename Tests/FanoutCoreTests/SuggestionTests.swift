import FanoutCore
import Testing

/// "Did you mean …?": the nearest known name within a typo's distance, and nothing for another word.
@Suite struct SuggestionTests {
    @Test func typosFindTheirName() {
        #expect(Suggestion.nearest(to: "buidl", among: ["build", "check", "export"]) == "build", "a swap")
        #expect(Suggestion.nearest(to: "makestagam", among: ["makestagram", "instaclone"]) == "makestagram")
        #expect(
            Suggestion.nearest(to: "like-count-mismatc", among: RuleCatalog.descriptors.map(\.id))
                == "like-count-mismatch")
        #expect(
            Suggestion.nearest(to: "Timeline-Stale", among: RuleCatalog.descriptors.map(\.id)) == "timeline-stale",
            "case ignored")
        #expect(Suggestion.nearest(to: "shw", among: ["list", "show"]) == "show")
    }

    @Test func otherWordsFindNothing() {
        #expect(Suggestion.nearest(to: "deploy", among: ["build", "check", "export"]) == nil)
        #expect(Suggestion.nearest(to: "x", among: ["init"]) == nil)
        #expect(Suggestion.didYouMean("myspace", among: ["makestagram", "instaclone", "friendlypix", "parse"]) == "")
    }

    @Test func messagesNameTheNearest() {
        #expect(
            RuleCatalog.unknownMessage("folow-self").hasPrefix(
                "unknown rule \"folow-self\" (did you mean \"follow-self\"?); known rules: "))
        #expect(RuleCatalog.unknownMessage("x").hasPrefix("unknown rule \"x\"; known rules: like-count-mismatch, "))
    }
}
