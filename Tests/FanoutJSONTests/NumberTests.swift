import FanoutTestSupport
import Testing

@testable import FanoutJSON

@Suite("Numbers")
struct NumberTests {
    private func number(_ text: String) throws -> JSONNumber {
        try withReader(text) { reader in
            let value = try reader.readNumber()
            try reader.finish()
            return value
        }
    }

    @Test(
        "integers are exact",
        arguments: [
            ("0", Int64(0)), ("-0", 0), ("7", 7), ("-7", -7), ("1490119356", 1_490_119_356),
            ("9007199254740993", 9_007_199_254_740_993),
            ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
        ])
    func integers(_ text: String, _ expected: Int64) throws {
        let value = try number(text)
        #expect(value.int64 == expected)
        #expect(value.double == Double(expected))
    }

    @Test("integers outside Int64 keep only the double")
    func outsideInt64() throws {
        let above = try number("9223372036854775808")
        #expect(above.int64 == nil)
        #expect(above.double == 9_223_372_036_854_775_808.0)
        let below = try number("-9223372036854775809")
        #expect(below.int64 == nil)
        #expect(below.double == -9_223_372_036_854_775_808.0)
        let hundredDigits = String(repeating: "1234567890", count: 10)
        let huge = try number(hundredDigits)
        #expect(huge.int64 == nil)
        #expect(huge.double == Double(hundredDigits))
        let twentyDigits = try number("18446744073709551616")
        #expect(twentyDigits.int64 == nil)
        #expect(twentyDigits.double == 18_446_744_073_709_551_616.0)
    }

    @Test("negative zero")
    func negativeZero() throws {
        let value = try number("-0")
        #expect(value.int64 == 0)
        #expect(value.double == 0 && value.double.sign == .minus)
        let real = try number("-0.0e5")
        #expect(real.int64 == nil)
        #expect(real.double.sign == .minus && real.double == 0)
    }

    @Test(
        "fractions and exponents are correctly rounded",
        arguments: [
            "1.5", "374.9999999999999", "1490119356.786182", "0.1", "0.2", "0.30000000000000004", "-2.5e-3",
            "1E22", "1e23", "1e-7", "123.456e-78", "1.7976931348623157e308", "2.2250738585072014e-308",
            "4.9e-324", "5e-324", "2.4703282292062327e-324", "0.000001", "12345678901234567890.5",
            "3.141592653589793238462643383279", "1.0", "100e-2", "7e0", "1e+2", "1E-2", "9007199254740993.0",
            "2.2250738585072011e-308", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "1e30", "123456789e20", "8.98846567431158e307",
        ])
    func reals(_ text: String) throws {
        let value = try number(text)
        let expected = try #require(Double(text))  // the standard library's conversion as an independent oracle
        #expect(value.double == expected, "\(text): \(value.double) vs \(expected)")
        #expect(value.int64 == nil)
    }

    @Test("round trips the Firebase-style literals exactly")
    func firebaseLiterals() throws {
        #expect(try number("1490119356.786182").double.description == "1490119356.786182")
        #expect(try number("374.9999999999999").double.description == "374.9999999999999")
        #expect(try number("1.5").double == 1.5)
    }

    @Test("huge and tiny magnitudes saturate")
    func extremes() throws {
        #expect(try number("1e999").double == .infinity)
        #expect(try number("-1e999").double == -.infinity)
        #expect(try number("1e-999").double == 0)
        #expect(try number("0e999999999999999999999").double == 0)
        #expect(try number("1" + String(repeating: "0", count: 400)).double == .infinity)
        #expect(try number("0." + String(repeating: "0", count: 400) + "1").double == 0)
        #expect(try number("1.5e9999999999999999999999999").double == .infinity)
    }

    @Test("generated literals agree with the standard library")
    func generatedLiterals() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<5_000 {
            let integerDigits = Int(generator.next() % 20) + 1
            let fractionDigits = Int(generator.next() % 20)
            var text = generator.next() % 2 == 0 ? "-" : ""
            for position in 0..<integerDigits {
                let digit = generator.next() % 10
                text += String(position == 0 && integerDigits > 1 ? max(digit, 1) : digit)
            }
            if fractionDigits > 0 {
                text += "."
                for _ in 0..<fractionDigits { text += String(generator.next() % 10) }
            }
            if generator.next() % 3 == 0 {
                text += "e" + String(Int(generator.next() % 700) - 350)
            }
            let value = try number(text)
            let expected = try #require(Double(text))
            #expect(value.double == expected, "\(text)")
            if !text.contains("."), !text.contains("e"), let exact = Int64(text) {
                #expect(value.int64 == exact, "\(text)")
            } else {
                #expect(value.int64 == nil, "\(text)")
            }
        }
    }

    @Test("numbers inside containers end at the delimiter")
    func delimiters() throws {
        let value = try JSONValue.parse(#"[1,-2,3.5,4e1,{"a":-0.5}]"#)
        #expect(value == [1, -2, 3.5, .number(JSONNumber(double: 40, int64: nil)), ["a": -0.5]])
    }
}
