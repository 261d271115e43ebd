import FanoutCore

/// A `strftime`-style format that an app writes its dates in (`%Y/%m/%d %H:%M:%S`, `%Y-%m-%d %H:%M`), read back
/// to seconds since 1970 (`created_at = { field = "…", format = "…", zone = "UTC" }`).
///
/// The directives are the ones apps' date libraries write: `%Y` `%y` `%m` `%d` `%e` `%H` `%I` `%M` `%S` `%f`
/// (a fraction of a second, any number of digits) `%p` (AM/PM) `%b` `%B` (English month names) `%z` (`+hhmm`,
/// `+hh:mm` or `Z`) `%Z` (`UTC`, `GMT`, `Z`) `%T` (`%H:%M:%S`) `%F` (`%Y-%m-%d`) and `%%`. Numbers may drop
/// their leading zeros (`2023/1/5`), as `strptime` reads them. A date without a zone is read in the zone given.
package struct DateFormat: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case literal(UInt8)
        case year, shortYear, month, day, hour, hour12, minute, second, fraction, meridiem, monthName, offset, zoneName
    }

    /// A format or zone that cannot be read, with what is wrong.
    package struct Invalid: Error, Equatable {
        package var message: String
    }

    let pieces: [Piece]

    package init(_ format: String) throws(Invalid) {
        var pieces: [Piece] = []
        var bytes = Array(format.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                pieces.append(.literal(byte))
                continue
            }
            guard let directive = bytes.popFirst() else { throw Invalid(message: "the format ends with a lone %") }
            switch directive {
            case UInt8(ascii: "Y"): pieces.append(.year)
            case UInt8(ascii: "y"): pieces.append(.shortYear)
            case UInt8(ascii: "m"): pieces.append(.month)
            case UInt8(ascii: "d"), UInt8(ascii: "e"): pieces.append(.day)
            case UInt8(ascii: "H"): pieces.append(.hour)
            case UInt8(ascii: "I"): pieces.append(.hour12)
            case UInt8(ascii: "M"): pieces.append(.minute)
            case UInt8(ascii: "S"): pieces.append(.second)
            case UInt8(ascii: "f"): pieces.append(.fraction)
            case UInt8(ascii: "p"): pieces.append(.meridiem)
            case UInt8(ascii: "b"), UInt8(ascii: "B"): pieces.append(.monthName)
            case UInt8(ascii: "z"): pieces.append(.offset)
            case UInt8(ascii: "Z"): pieces.append(.zoneName)
            case UInt8(ascii: "T"): pieces += [.hour, .literal(58), .minute, .literal(58), .second]
            case UInt8(ascii: "F"): pieces += [.year, .literal(45), .month, .literal(45), .day]
            case UInt8(ascii: "%"): pieces.append(.literal(directive))
            default:
                throw Invalid(
                    message:
                        "%\(String(decoding: [directive], as: UTF8.self)) is not a directive Fanout reads; use %Y %y %m %d %e %H %I %M %S %f %p %b %B %z %Z %T %F or %%"
                )
            }
        }
        guard pieces.contains(.year) || pieces.contains(.shortYear),
            pieces.contains(.month) || pieces.contains(.monthName),
            pieces.contains(.day)
        else { throw Invalid(message: "the format needs a year (%Y or %y), a month (%m or %b) and a day (%d)") }
        self.pieces = pieces
    }

    /// The seconds east of UTC of a schema's `zone` (`UTC`, `+02:00`); 0 for none.
    package static func zone(_ text: String?) throws(Invalid) -> Int {
        guard let text else { return 0 }
        guard let offset = offset(Array(text.utf8)[...]), offset.rest.isEmpty else {
            throw Invalid(message: "\"\(text)\" is not a zone; use UTC or an offset such as +02:00")
        }
        return offset.seconds
    }

    /// `text` read with the format, in seconds since 1970, in `zone` (seconds east of UTC) unless it names one;
    /// nil when it does not fit the format or is no date.
    package func seconds(_ text: String, zone: Int) -> Double? {
        var rest = Array(text.utf8)[...]
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
        var fraction = 0.0, pm: Bool?, offset: Int?
        for piece in pieces {
            switch piece {
            case .literal(let byte):
                guard rest.popFirst() == byte else { return nil }
            case .year: guard let n = Self.number(&rest, digits: 4, exactly: true) else { return nil }; year = n
            case .shortYear:
                guard let n = Self.number(&rest, digits: 2, exactly: true) else { return nil }
                year = n < 69 ? 2000 + n : 1900 + n
            case .month: guard let n = Self.number(&rest, digits: 2) else { return nil }; month = n
            case .day:
                if rest.first == UInt8(ascii: " ") { rest.removeFirst() }
                guard let n = Self.number(&rest, digits: 2) else { return nil }
                day = n
            case .hour, .hour12: guard let n = Self.number(&rest, digits: 2) else { return nil }; hour = n
            case .minute: guard let n = Self.number(&rest, digits: 2) else { return nil }; minute = n
            case .second: guard let n = Self.number(&rest, digits: 2) else { return nil }; second = n
            case .fraction:
                var scale = 0.1
                let start = rest.startIndex
                while let d = rest.first, d >= 48, d <= 57 {
                    fraction += Double(d - 48) * scale
                    scale /= 10
                    rest.removeFirst()
                }
                guard rest.startIndex > start else { return nil }
            case .meridiem:
                let word = rest.prefix(2).map { $0 | 0x20 }
                guard word == Array("am".utf8) || word == Array("pm".utf8) else { return nil }
                pm = word[0] == UInt8(ascii: "p")
                rest.removeFirst(2)
            case .monthName:
                let lower = Array(rest.prefix(9).map { $0 | 0x20 })
                guard
                    let (index, name) = Self.months.enumerated().first(where: {
                        lower.starts(with: $0.element.utf8.prefix(3))
                    })
                else { return nil }
                let full = Array(name.utf8)
                rest.removeFirst(lower.starts(with: full) ? full.count : 3)
                month = index + 1
            case .offset, .zoneName:
                guard let found = Self.offset(rest) else { return nil }
                offset = found.seconds
                rest = found.rest
            }
        }
        guard rest.isEmpty else { return nil }
        if let pm {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard (1...12).contains(month), (1...Self.daysIn(month, year)).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - (offset ?? zone)) + fraction
    }

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Up to `digits` digits (exactly that many with `exactly`).
    private static func number(_ rest: inout ArraySlice<UInt8>, digits: Int, exactly: Bool = false) -> Int? {
        var n = 0, count = 0
        while count < digits, let d = rest.first, d >= 48, d <= 57 {
            n = n * 10 + Int(d - 48)
            count += 1
            rest.removeFirst()
        }
        return count == 0 || (exactly && count < digits) ? nil : n
    }

    /// A zone at the start of `text`: `Z`, `UTC`, `GMT`, or `±hh[:mm]`, `±hhmm`; its seconds east of UTC.
    static func offset(_ text: ArraySlice<UInt8>) -> (seconds: Int, rest: ArraySlice<UInt8>)? {
        var rest = text
        for name in ["UTC", "GMT", "Z"] where rest.starts(with: name.utf8) {
            rest.removeFirst(name.utf8.count)
            if rest.first != UInt8(ascii: "+"), rest.first != UInt8(ascii: "-") { return (0, rest) }
        }
        guard let sign = rest.popFirst(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        guard let hours = number(&rest, digits: 2, exactly: true), hours <= 14 else { return nil }
        var minutes = 0
        if rest.first == UInt8(ascii: ":") { rest.removeFirst() }
        if let m = number(&rest, digits: 2, exactly: true) { minutes = m }
        guard minutes < 60 else { return nil }
        return ((hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1), rest)
    }
}
