/// A JSON number as written in the input.
///
/// `double` is always set (the nearest `Double`, `±infinity` when the literal is out of range).
/// `int64` is the exact value when the literal has no fraction and no exponent and fits in `Int64`, `nil` otherwise
/// (so `1.0` and `1e2` have `int64 == nil`, and `-0` has `int64 == 0` with `double == -0.0`).
public struct JSONNumber: Sendable, Equatable {
    /// The nearest `Double` to the literal (correctly rounded); `±infinity` when it overflows.
    public let double: Double
    /// The exact integer when the literal is an integer (no `.` and no exponent) that fits `Int64`, else `nil`.
    public let int64: Int64?

    /// Creates a number from both representations; the writer prefers `int64` when it is set.
    public init(double: Double, int64: Int64?) {
        self.double = double
        self.int64 = int64
    }

    /// An exact integer.
    public init(_ value: Int64) {
        self.double = Double(value)
        self.int64 = value
    }

    /// An exact integer.
    public init(_ value: Int) {
        self.init(Int64(value))
    }

    /// A floating-point number (`int64` is `nil`). Non-finite values are written as `null` by `JSONWriter`.
    public init(_ value: Double) {
        self.double = value
        self.int64 = nil
    }
}
