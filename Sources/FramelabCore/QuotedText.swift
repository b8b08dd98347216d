/// Text from a file or a plugin's description for an error message, in quotes: at most
/// `maxQuoted` characters, with control characters and line separators escaped, so a
/// message stays one short line.
public func quoted(_ text: some StringProtocol) -> String {
    let maxQuoted = 60
    let unprintable: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
    var out = ""
    for scalar in text.prefix(maxQuoted).unicodeScalars {
        if unprintable.contains(scalar.properties.generalCategory) {
            out += scalar.escaped(asASCII: true)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return "'" + out + (text.count > maxQuoted ? "…'" : "'")
}
