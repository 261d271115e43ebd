import FanoutCore

/// Converts stored timestamps to seconds since 1970.
enum Timestamp {
    /// How a field's date strings are read: in its format (none for ISO 8601), and in its zone when they name none.
    struct Reader {
        var format: DateFormat?
        /// Seconds east of UTC.
        var zone: Int
    }

    /// The field's value in seconds, or nil when it is not a timestamp of `unit`; `reader` reads date strings.
    static func seconds(_ value: FieldValue, unit: TimeField.Unit, reader: Reader?) -> Double? {
        switch unit {
        case .seconds: return value.double.flatMap { $0.isFinite ? $0 : nil }
        case .milliseconds: return value.double.flatMap { $0.isFinite ? $0 / 1000 : nil }
        case .microseconds: return value.double.flatMap { $0.isFinite ? $0 / 1_000_000 : nil }
        case .iso8601: return value.string.flatMap { ISO8601.seconds($0, zone: reader?.zone ?? 0) }
        case .formatted:
            guard let text = value.string, let reader, let format = reader.format else { return nil }
            return format.seconds(text, zone: reader.zone)
        }
    }

    /// The reader of `time`'s date strings; nil for numbers. The schema file's parser has checked the format and
    /// the zone.
    static func reader(_ time: TimeField?) -> Reader? {
        guard let time, time.unit == .formatted || time.unit == .iso8601 else { return nil }
        return Reader(format: time.format.flatMap { try? DateFormat($0) }, zone: (try? DateFormat.zone(time.zone)) ?? 0)
    }

    /// The JSON type a timestamp of `unit` has.
    static func typeName(_ unit: TimeField.Unit?) -> String {
        unit == .iso8601 || unit == .formatted ? "string" : "number"
    }

    /// What a date in `field` must be, as `post-field` says it: "string in the format %Y/%m/%d", "number of
    /// milliseconds since 1970".
    static func described(_ field: TimeField?) -> String {
        switch field?.unit {
        case .iso8601?: "string in ISO 8601 (2023-12-21T15:39:16Z)"
        case .formatted?: "string in the format \(field?.format ?? "")"
        case .milliseconds?: "number of milliseconds since 1970"
        case .microseconds?: "number of microseconds since 1970"
        case .seconds?, nil: "number of seconds since 1970"
        }
    }
}

/// A reader of ISO 8601 timestamps: `2017-03-21T18:02:36.786Z` as Parse writes them, offsets allowed, and with
/// a `zone` (seconds east of UTC) also dates that name none (`2023-12-21T15:39:16`).
package enum ISO8601 {
    package static func seconds(_ text: String, zone: Int? = nil) -> Double? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard b.count >= 19, let year = digits(0, 4), b[4] == 45, let month = digits(5, 2), b[7] == 45,
            let day = digits(8, 2), b[10] == 84 || b[10] == 116 || b[10] == 32, let hour = digits(11, 2), b[13] == 58,
            let minute = digits(14, 2), b[16] == 58, let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 48 && b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        var offset = 0
        if i < b.count, b[i] == 90 || b[i] == 122 {
            i += 1
        } else if i < b.count, b[i] == 43 || b[i] == 45 {
            // +hh:mm, +hhmm or +hh
            let sign = b[i] == 45 ? -1 : 1
            guard let oh = digits(i + 1, 2) else { return nil }
            i += 3
            var om = 0
            if i < b.count, b[i] == 58 {
                guard let m = digits(i + 1, 2) else { return nil }
                om = m
                i += 3
            } else if let m = digits(i, 2) {
                om = m
                i += 2
            }
            offset = sign * (oh * 3600 + om * 60)
        } else if let zone, i == b.count {
            offset = zone
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}
