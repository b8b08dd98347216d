/// Text from a file or a plugin's description for an error message, in quotes: at most 60
/// characters, with control characters and line separators escaped, so a message stays one
/// short line (`printable`).
public func quoted(_ text: some StringProtocol) -> String { "'" + printable(text) + "'" }

/// `quoted`'s text without the quotes, for messages that frame it themselves (an XML name
/// as `<name>`): at most 60 characters (then "…"), control characters and line separators
/// escaped.
public func printable(_ text: some StringProtocol) -> String {
    let maxShown = 60
    let unprintable: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
    var out = ""
    for scalar in text.prefix(maxShown).unicodeScalars {
        if unprintable.contains(scalar.properties.generalCategory) {
            out += scalar.escaped(asASCII: true)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + (text.count > maxShown ? "…" : "")
}
