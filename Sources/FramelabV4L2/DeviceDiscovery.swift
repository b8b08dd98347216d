#if canImport(Glibc)
import Glibc
#endif

/// A video capture device as `framelab devices` lists it.
public struct DeviceDescription: Sendable, Codable, Equatable {
    public let path: String
    public let driver: String
    public let card: String
    public let bus: String
    public let driverVersion: String
    public let formats: [FormatOffer]
}

/// Finds the video capture devices on this machine.
public enum DeviceDiscovery {
    /// /dev/video0 … /dev/video{limit-1} are tried: udev names capture nodes this way,
    /// and opening a path answers for both real and emulated devices.
    public static let probeLimit = 64

    public struct Probe: Sendable {
        public var devices: [DeviceDescription] = []
        /// Nodes that exist but could not be described (busy, no permission, …), with why.
        public var problems: [String] = []
        /// Nodes that are not capture devices (metadata nodes and such), with what they are.
        public var skipped: [String] = []
    }

    /// Describes every capture device among `paths` (default: /dev/video0…63).
    public static func probe(_ paths: [String]? = nil) -> Probe {
        var probe = Probe()
        for path in paths ?? (0..<probeLimit).map({ "/dev/video\($0)" }) {
            do {
                let device = try V4L2Device(path: path)
                let caps = try device.capabilities()
                guard caps.canCapture else {
                    probe.skipped.append("\(path): \(caps.card) — \(caps.kindDescription), not video capture")
                    continue
                }
                probe.devices.append(DeviceDescription(path: path, driver: caps.driver, card: caps.card,
                                                       bus: caps.busInfo, driverVersion: caps.version,
                                                       formats: try device.formatOffers()))
            } catch {
                // A probed path that does not exist is simply not a device.
                if paths == nil, error.code == ENOENT { continue }
                probe.problems.append(CameraErrors.explain(error).message)
            }
        }
        return probe
    }
}
