import FramelabCore
import FramelabRecording

/// The context every recorded run carries (docs/hdf5-schema.md, run attributes),
/// whatever made it: when, where, on which CPU, by which build and command.
public enum RunContext {
    /// `gitCommit`: the commit the binary was built from, when known.
    public static func attributes(commandLine: String, gitCommit: String?) -> [String: AttributeValue] {
        [
            "started_utc": .string(HostInfo.utcNowISO8601()),
            "host": .string(HostInfo.hostName),
            "cpu_model": .string(HostInfo.cpuModel),
            "cpu_cores": .int(Int64(HostInfo.coreCount)),
            "framelab_version": .string(FramelabVersion.string),
            "git_commit": .string(gitCommit ?? "unknown"),
            "command_line": .string(commandLine),
        ]
    }
}
