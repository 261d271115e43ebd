extension JSONReader {
    /// Reads the next value as a number. Throws "expected a number" for another kind of value.
    ///
    /// Integers without fraction or exponent that fit `Int64` are exact in `int64`; `double` is the correctly
    /// rounded nearest `Double` (±infinity for out-of-range literals such as `1e999`).
    public mutating func readNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = try valueStart()
        let scanner = input
        let first = scanner.base[start]
        guard first == Byte.minus || Byte.isDigit(first) else {
            throw scanner.unexpected("expected a number", at: start)
        }
        let (end, number) = try scanner.parseNumber(at: start)
        completeValue(at: end)
        return number
    }
}

extension ByteScanner {
    /// Validates the number literal starting at `start` (a `-` or a digit) without computing its value;
    /// returns the index just past it.
    @inline(__always)
    func scanNumber(at start: Int) throws(JSONSyntaxError) -> Int {
        let p = base
        let n = count
        var i = start
        if p[i] == Byte.minus { i &+= 1 }
        guard i < n else { throw endOfInput() }
        let first = p[i]
        if first == Byte.zero {
            i &+= 1
            if i < n && Byte.isDigit(p[i]) { throw error("leading zero in number", at: i &- 1) }
        } else if Byte.isDigit(first) {
            i &+= 1
            while i < n && Byte.isDigit(p[i]) { i &+= 1 }
        } else {
            throw unexpected("expected a digit after '-'", at: i)
        }
        if i < n && p[i] == Byte.dot {
            i &+= 1
            guard i < n && Byte.isDigit(p[i]) else { throw unexpected("expected a digit after '.'", at: i) }
            i &+= 1
            while i < n && Byte.isDigit(p[i]) { i &+= 1 }
        }
        if i < n && p[i] | 0x20 == Byte.lowerE {
            i &+= 1
            if i < n && (p[i] == Byte.plus || p[i] == Byte.minus) { i &+= 1 }
            guard i < n && Byte.isDigit(p[i]) else { throw unexpected("expected a digit in exponent", at: i) }
            i &+= 1
            while i < n && Byte.isDigit(p[i]) { i &+= 1 }
        }
        return i
    }

    /// Validates and converts the number literal starting at `start`; returns the index just past it and the value.
    func parseNumber(at start: Int) throws(JSONSyntaxError) -> (Int, JSONNumber) {
        let p = base
        let n = count
        var i = start
        let negative = p[i] == Byte.minus
        if negative { i &+= 1 }
        // Up to 19 significant digits go into `mantissa` (10^19 - 1 < 2^64); the value is mantissa * 10^exponent.
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var droppedNonZero = false  // a digit that did not fit the mantissa was not zero: inexact
        var isInteger = true

        guard i < n else { throw endOfInput() }
        let first = p[i]
        if first == Byte.zero {
            i &+= 1
            if i < n && Byte.isDigit(p[i]) { throw error("leading zero in number", at: i &- 1) }
        } else if Byte.isDigit(first) {
            while i < n {
                let digit = p[i] &- Byte.zero
                if digit >= 10 { break }
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significant &+= 1
                } else {
                    exponent &+= 1
                    if digit != 0 { droppedNonZero = true }
                }
                i &+= 1
            }
        } else {
            throw unexpected("expected a digit after '-'", at: i)
        }

        if i < n && p[i] == Byte.dot {
            isInteger = false
            i &+= 1
            guard i < n && Byte.isDigit(p[i]) else { throw unexpected("expected a digit after '.'", at: i) }
            while i < n {
                let digit = p[i] &- Byte.zero
                if digit >= 10 { break }
                if significant < 19 {
                    if mantissa != 0 || digit != 0 { significant &+= 1 }  // leading zeros are not significant
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    exponent &-= 1
                } else if digit != 0 {
                    droppedNonZero = true
                }
                i &+= 1
            }
        }

        if i < n && p[i] | 0x20 == Byte.lowerE {
            isInteger = false
            i &+= 1
            var exponentNegative = false
            if i < n && (p[i] == Byte.plus || p[i] == Byte.minus) {
                exponentNegative = p[i] == Byte.minus
                i &+= 1
            }
            guard i < n && Byte.isDigit(p[i]) else { throw unexpected("expected a digit in exponent", at: i) }
            var explicit = 0
            while i < n {
                let digit = p[i] &- Byte.zero
                if digit >= 10 { break }
                if explicit < 1_000_000 { explicit = explicit &* 10 &+ Int(digit) }  // saturates: far out of range
                i &+= 1
            }
            exponent = exponentNegative ? exponent &- explicit : exponent &+ explicit
        }

        var int64: Int64? = nil
        if isInteger && exponent == 0 {
            if negative {
                if mantissa <= UInt64(Int64.max) {
                    int64 = -Int64(mantissa)
                } else if mantissa == UInt64(Int64.max) &+ 1 {
                    int64 = Int64.min
                }
            } else if mantissa <= UInt64(Int64.max) {
                int64 = Int64(mantissa)
            }
        }

        let double: Double
        if !droppedNonZero, let magnitude = DecimalConversion.fastPath(mantissa: mantissa, exponent: exponent) {
            double = negative ? -magnitude : magnitude
        } else {
            double = DecimalConversion.slowPath(p + start, count: i &- start)  // the literal includes its sign
        }
        return (i, JSONNumber(double: double, int64: int64))
    }
}
