// Usernames and Markdown captions.

enum Text {
    static let names: [[UInt8]] = bytes(
        """
        alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy \
        rupert sybil trent victor walter xena yusuf zoe amara bruno chiara dmitri elena \
        felix gus hana ines jonas kenji lena marco nadia oscar priya quinn rosa sami \
        tomas uma vera wei ximena yara zane aiko bea cyrus dario esme finn gia hugo \
        iris jade kai luca mira nico otto pia remy sage theo ugo vito wren yuki
        """)

    static let words: [[UInt8]] = bytes(
        """
        sunset coffee morning beach city night light street summer winter mountain \
        river friends dinner brunch weekend travel road trip garden flowers rain snow \
        cat dog puppy kitten skyline bridge market bakery pizza tacos ramen sushi \
        concert festival museum library park lake forest trail hike bike run gym \
        golden hour vibes mood throwback view window rooftop harbor island desert \
        autumn spring cloud storm rainbow sky moon stars fire candle book record vinyl \
        film camera lens portrait selfie family home kitchen studio office campus
        """)

    static let handles: [[UInt8]] = bytes(
        """
        photo pics snaps shots daily life travels eats art studio official real \
        the x lab cam lens
        """)

    static let hashtags: [[UInt8]] = bytes(
        """
        nofilter photooftheday makestagram instagood tbt latergram picoftheday \
        vsco travel foodporn sunset weekend love happy
        """)

    static let emoji: [[UInt8]] = ["🎉", "📸", "🌅", "❤️", "👍🏽", "🇫🇷", "😂", "✨", "🍕", "👨‍👩‍👧"]
        .map { Array($0.utf8) }

    private static func bytes(_ text: String) -> [[UInt8]] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Array($0.utf8) }
    }

    /// A unique-enough lower-case handle from [a-z0-9_]; uniqueness is
    /// enforced by the caller.
    static func username(_ rng: inout Xoshiro256, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        let name = names[rng.below(names.count)]
        switch rng.below(7) {
        case 0:
            out += name
        case 1:
            out += name
            appendNumber(rng.below(10_000), to: &out)
        case 2:
            out += name
            out.append(UInt8(ascii: "_"))
            out += words[rng.below(words.count)]
        case 3:
            out += words[rng.below(words.count)]
            out.append(UInt8(ascii: "_"))
            out += name
        case 4:
            out += name
            out.append(UInt8(ascii: "_"))
            appendNumber(rng.below(100), to: &out)
        case 5:
            out += name
            out.append(UInt8(ascii: "_"))
            out += handles[rng.below(handles.count)]
        default:
            out += Array("the_".utf8)
            out += name
            out += words[rng.below(words.count)]
        }
    }

    static func appendNumber(_ value: Int, to out: inout [UInt8]) {
        var digits: [UInt8] = []
        var v = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        out += digits.reversed()
    }

    /// A Markdown caption (raw, unescaped UTF-8). Occasionally contains
    /// emphasis, a link, an HTML tag, emoji, quotes, backslashes, `&` and
    /// newlines, so that every downstream escaping layer gets exercised.
    static func caption(_ rng: inout Xoshiro256, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        let quoted = rng.chance(0.04)
        if quoted { out.append(UInt8(ascii: "\"")) }
        let sentences = 1 + rng.below(3)
        for s in 0..<sentences {
            if s > 0 {
                if rng.chance(0.06) {
                    out += [0x0A, 0x0A]  // paragraph break
                } else {
                    out.append(UInt8(ascii: " "))
                }
            }
            let count = 2 + rng.below(9)
            let emphasized = rng.chance(0.15) ? rng.below(count) : -1
            for w in 0..<count {
                if w > 0 { out.append(UInt8(ascii: " ")) }
                var word = words[rng.below(words.count)]
                if w == 0, let first = word.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") {
                    word[0] = first - 32
                }
                if w == emphasized {
                    let marker: [UInt8]
                    switch rng.below(3) {
                    case 0: marker = [UInt8(ascii: "*")]
                    case 1: marker = [UInt8(ascii: "*"), UInt8(ascii: "*")]
                    default: marker = [UInt8(ascii: "_")]
                    }
                    out += marker
                    out += word
                    out += marker
                } else {
                    out += word
                }
            }
            out.append(rng.chance(0.8) ? UInt8(ascii: ".") : UInt8(ascii: "!"))
        }
        if quoted { out.append(UInt8(ascii: "\"")) }
        if rng.chance(0.04) {
            out += Array(" & friends".utf8)
        }
        if rng.chance(0.04) {
            out += Array(" [more photos](https://example.com/p/".utf8)
            out += words[rng.below(words.count)]
            out += Array("?ref=makestagram&size=large)".utf8)
        }
        if rng.chance(0.03) {
            out += Array(" <b>".utf8)
            out += words[rng.below(words.count)]
            out += Array("</b>".utf8)
        }
        if rng.chance(0.03) {
            out += Array(" \u{00AF}\\_(\u{30C4})_/\u{00AF}".utf8)  // ¯\_(ツ)_/¯
        }
        if rng.chance(0.01) {
            out += Array(" saved to C:\\Photos\\".utf8)
        }
        if rng.chance(0.15) {
            out.append(UInt8(ascii: " "))
            out += emoji[rng.below(emoji.count)]
        }
        if rng.chance(0.25) {
            let tags = 1 + rng.below(3)
            for _ in 0..<tags {
                out += Array(" #".utf8)
                out += hashtags[rng.below(hashtags.count)]
            }
        }
    }
}
