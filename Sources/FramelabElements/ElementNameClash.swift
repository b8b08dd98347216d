/// The one name-clash rule of every registry: a name defined by more than one origin —
/// built-in or plugin, filter or detector — is refused, never resolved by a silent choice.
public enum ElementNameClash {
    /// The one-line message for `name` defined by every origin in `origins`.
    public static func message(_ name: String, origins: [String]) -> String {
        "element name '\(name)' is defined more than once (\(origins.joined(separator: ", "))); "
            + "rename one or drop it from the plugin path"
    }

    /// The names defined more than once among `entries` (name, origin), each with its message.
    public static func find(_ entries: [(name: String, origin: String)]) -> [String: String] {
        var origins: [String: [String]] = [:]
        for (name, origin) in entries { origins[name, default: []].append(origin) }
        var clashes: [String: String] = [:]
        for (name, from) in origins where from.count > 1 { clashes[name] = message(name, origins: from) }
        return clashes
    }
}
