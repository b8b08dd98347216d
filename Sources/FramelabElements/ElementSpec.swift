import FramelabCore

/// `NAME[:key=value,…]` as written after `--filter` and `--detector`.
public struct ElementSpec: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    /// Raw `key=value` pairs in the order given.
    public let arguments: [(key: String, value: String)]

    public static func == (a: ElementSpec, b: ElementSpec) -> Bool {
        a.name == b.name && a.arguments.map(\.key) == b.arguments.map(\.key)
            && a.arguments.map(\.value) == b.arguments.map(\.value)
    }

    public init(name: String, arguments: [(key: String, value: String)] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// Parses `sepia:intensity=0.5,foo=bar`; errors quote the text.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]).trimmingSpaces
        guard !name.isEmpty else { throw FramelabError(.badInput, "'\(text)': missing a name before ':'") }
        var arguments: [(key: String, value: String)] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: ",", omittingEmptySubsequences: true) {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, !kv[0].isEmpty else {
                    throw FramelabError(.badInput, "'\(text)': expected key=value, got '\(pair)'")
                }
                let key = String(kv[0]).trimmingSpaces
                if arguments.contains(where: { $0.key == key }) {
                    throw FramelabError(.badInput, "'\(text)': parameter '\(key)' given twice")
                }
                arguments.append((key, String(kv[1]).trimmingSpaces))
            }
        }
        self.init(name: name, arguments: arguments)
    }

    public var description: String {
        arguments.isEmpty ? name : name + ":" + arguments.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
