/// The one checked conversion for numbers that come from input (files, specs, flags,
/// decoders): Swift's `Int(_: Double)` traps on NaN, infinity and out-of-range values, so
/// such numbers go through here and a caller turns nil into an error naming the input.
extension FixedWidthInteger {
    /// `value` rounded toward zero, or nil when it is not finite or does not fit.
    @inlinable
    public init?(checked value: Double) {
        guard value.isFinite else { return nil }
        self.init(exactly: value.rounded(.towardZero))
    }
}
