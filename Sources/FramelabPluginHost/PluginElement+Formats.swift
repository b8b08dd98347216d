import CFramelabPlugin
import FramelabCore

extension PluginElement {
    /// The filter's output format for `input`, or nil when it does not accept it.
    /// Asks the plugin's output_format when it has one; otherwise the format is kept.
    public func outputFormat(for input: PixelFormat) -> PixelFormat? {
        guard info.formats.contains(input) else { return nil }
        guard let ask = element.pointee.output_format else { return input }
        return PixelFormat(rawValue: ask(element.pointee.user_data, input.rawValue))
    }
}
