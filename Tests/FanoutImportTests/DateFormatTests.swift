import Foundation
import Testing

@testable import FanoutImport

/// Date strings in apps' own formats, read against Foundation's calendar for the same fields.
@Suite struct DateFormatTests {
    static func expected(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, offset: Int = 0) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset)!
        let date = calendar.date(
            from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
        return date.timeIntervalSince1970
    }

    @Test(
        arguments: [
            ("%Y/%m/%d %H:%M:%S", "2023/12/21 15:39:16", nil, expected(2023, 12, 21, 15, 39, 16)),
            ("%Y-%m-%d %H:%M", "2023-12-21 15:39", nil, expected(2023, 12, 21, 15, 39, 0)),
            ("%Y/%m/%d %H:%M:%S", "2023/1/5 8:00:00", "+01:00", expected(2023, 1, 5, 8, 0, 0, offset: 3600)),
            ("%d %b %Y %I:%M %p", "05 Jan 2023 08:30 PM", nil, expected(2023, 1, 5, 20, 30, 0)),
            ("%d %B %Y %I:%M %p", "5 January 2023 12:05 am", nil, expected(2023, 1, 5, 0, 5, 0)),
            ("%FT%T%z", "2024-02-29T23:59:59-0530", nil, expected(2024, 2, 29, 23, 59, 59, offset: -19800)),
            ("%m/%d/%y %H:%M %Z", "12/21/23 15:39 UTC", "+02:00", expected(2023, 12, 21, 15, 39, 0)),
        ] as [(String, String, String?, Double)])
    func readsTheFieldsAsFoundationsCalendarDoes(_ format: String, _ text: String, _ zone: String?, _ seconds: Double)
        throws
    {
        #expect(try DateFormat(format).seconds(text, zone: DateFormat.zone(zone)) == seconds)
    }

    @Test func fractionsOfASecond() throws {
        let seconds = try #require(try DateFormat("%Y-%m-%d %H:%M:%S.%f").seconds("2023-12-21 15:39:16.25", zone: 0))
        #expect(seconds == Self.expected(2023, 12, 21, 15, 39, 16) + 0.25)
    }

    @Test(arguments: ["2023/02/30 10:00:00", "2023/13/01 10:00:00", "2023/12/21 15:39", "2023/12/21 15:39:16 x", ""])
    func textThatIsNoDateOfTheFormatIsNil(_ text: String) throws {
        #expect(try DateFormat("%Y/%m/%d %H:%M:%S").seconds(text, zone: 0) == nil)
    }

    @Test func formatsAndZonesThatCannotBeReadAreErrors() {
        #expect(throws: DateFormat.Invalid.self) { try DateFormat("%Y-%m-%d %Q") }
        #expect(throws: DateFormat.Invalid.self) { try DateFormat("%H:%M") }
        #expect(throws: DateFormat.Invalid.self) { try DateFormat.zone("Europe/Paris") }
    }

    @Test func iso8601WithoutAZoneIsInTheSchemasZone() {
        #expect(ISO8601.seconds("2023-12-21T15:39:16") == nil, "strict without a zone")
        #expect(ISO8601.seconds("2023-12-21T15:39:16", zone: 3600) == Self.expected(2023, 12, 21, 14, 39, 16))
    }
}
