import Testing

@testable import FanoutCore

/// Names as they are (docs/site.md "Names as they are") and what they look like (docs/checks.md "Look-alike
/// usernames").
@Suite struct VisibleTextTests {
    @Test func invisibleScalarsAreSpelledOut() {
        #expect(VisibleText.shown("alice") == "alice")
        #expect(VisibleText.shown("al\u{200B}ice") == "al⟨U+200B⟩ice")
        #expect(VisibleText.shown("alice\u{200D}") == "alice⟨U+200D⟩")
        #expect(VisibleText.shown("\u{202E}ecila") == "⟨U+202E⟩ecila")
        #expect(VisibleText.shown("a\u{AD}b\u{2066}c\u{FEFF}d\u{E0041}") == "a⟨U+00AD⟩b⟨U+2066⟩c⟨U+FEFF⟩d⟨U+E0041⟩")
        #expect(VisibleText.shown("Zoë 中文 עברית") == "Zoë 中文 עברית", "visible scripts stay as they are")
    }

    /// A joiner between two emoji and a variation selector after one draw one picture; anywhere else they hide.
    @Test func emojiSequencesStayWhole() {
        let family = "👩\u{200D}👩\u{200D}👧", heart = "❤\u{FE0F}"
        #expect(VisibleText.shown(family) == family)
        #expect(VisibleText.shown(heart) == heart)
        #expect(VisibleText.shown("a\u{200D}👩") == "a⟨U+200D⟩👩")
        #expect(VisibleText.shown("1\u{200D}2") == "1⟨U+200D⟩2", "digits are emoji, but no picture")
        #expect(VisibleText.shown("a\u{FE0F}") == "a⟨U+FE0F⟩")
    }

    @Test func lookAlikesShareASkeleton() {
        let alike = [
            "alice", "Alice", "ALICE", "al\u{200B}ice", "alice\u{200D}", "\u{202E}ecila", "\u{430}lice",
            "\u{410}l\u{456}ce", "\u{FF41}lice", "\u{3B1}lice",
        ]
        for name in alike { #expect(LookAlike.skeleton(name) == "alice", "\(name.debugDescription)") }
        #expect(LookAlike.skeleton("b0b") == "bob")
        #expect(LookAlike.skeleton("paypa1") == "paypal")
        for name in ["alicia", "al ice", "alicé", "bob"] {
            #expect(LookAlike.skeleton(name) != "alice", "\(name.debugDescription)")
        }
    }

    /// The table maps one scalar to one, as SQL's `translate` does, and to nothing that is mapped again.
    @Test func theTableIsOneScalarForOne() {
        let from = Array(LookAlike.mapped.unicodeScalars), to = Array(LookAlike.latin.unicodeScalars)
        #expect(from.count == to.count)
        #expect(Set(from).count == from.count, "each scalar once")
        #expect(to.allSatisfy { $0.isASCII && !"ABCDEFGHIJKLMNOPQRSTUVWXYZ01".unicodeScalars.contains($0) })
        #expect(from.allSatisfy { !VisibleText.isInvisible($0) })
    }
}
