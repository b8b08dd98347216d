#if canImport(Glibc)
import Glibc
#endif
@testable import FramelabPluginHost
import Testing

/// The worker channel survives a dead reader without a process-wide SIGPIPE setting.
@Suite struct FileDescriptorIOTests {
    @Test func sendingToAGoneReaderIsFalseNotASignal() throws {
        let channel = try FileDescriptorIO.makeChannel()
        defer { close(channel.host) }
        close(channel.worker)
        let bytes: [UInt8] = Array(repeating: 7, count: 64)
        // With SIGPIPE at its default action, a plain write here would end the test process.
        let sent = try bytes.withUnsafeBytes { try FileDescriptorIO.send(channel.host, from: $0.baseAddress!, count: $0.count) }
        #expect(!sent)
        var action = sigaction()
        sigaction(SIGPIPE, nil, &action)
        #expect(action.__sigaction_handler.sa_handler == nil, "SIGPIPE is no longer at its default action")
    }
}
