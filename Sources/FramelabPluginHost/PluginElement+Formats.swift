import FramelabCore

extension PluginElement {
    /// The filter's output format for `input`, or nil when it does not accept it: what the
    /// plugin's output_format answered when the element was described (the format is kept
    /// when it has none).
    public func outputFormat(for input: PixelFormat) -> PixelFormat? {
        info.outputFormats[input]
    }
}
