import Foundation

/// Run ids: UTC time to the second plus four random hex digits, e.g. 20261122T120501Z-3fa2.
public enum RunIdentifier {
    public static func make() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date()) + "-" + String(format: "%04x", UInt16.random(in: 0...UInt16.max))
    }
}
