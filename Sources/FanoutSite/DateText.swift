import FanoutCore

/// Formats post times without Foundation's locale machinery, so output is identical everywhere.
enum DateText {
    /// `2017-03-21T18:02:36Z`.
    static func iso(_ seconds: Double) -> String {
        let (date, time) = parts(seconds)
        return "\(date)T\(time)Z"
    }

    /// `2017-03-21 18:02 UTC`.
    static func display(_ seconds: Double) -> String {
        let (date, time) = parts(seconds)
        return "\(date) \(time.prefix(5)) UTC"
    }

    private static func parts(_ seconds: Double) -> (String, String) {
        let clamped = max(-62_135_596_800, min(253_402_300_799, seconds.isFinite ? seconds : 0))
        let total = Int(clamped.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secs = total - days * 86_400
        let (y, m, d) = CivilDate.date(days: days)
        return (
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))",
            "\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))"
        )
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
