import ArgumentParser
import FramelabV4L2
import Foundation

/// `framelab devices`: the video capture devices, with driver, card, bus, formats, sizes and rates.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List video capture devices (V4L2) with their formats, sizes and frame rates.",
        discussion: """
            Without paths, /dev/video0 … /dev/video63 are probed. Nodes that are not video capture \
            (a webcam's metadata node, …) are listed as skipped; nodes that cannot be opened \
            (permission, busy) are reported with how to fix it. Use a listed path in \
            --source camera:PATH (see docs/cameras.md). \
            --json prints {"devices": [{"path", "driver", "card", "bus", "driverVersion", \
            "formats": [{"fourcc", "description", "compressed", "sizes": [{"width", "height", "rates"}]}]}], \
            "skipped": [...], "problems": [...]}.
            """)

    @Argument(help: "Device paths to describe (default: every /dev/videoN).")
    var paths: [String] = []

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    struct Listing: Encodable {
        let devices: [DeviceDescription]
        let skipped: [String]
        let problems: [String]
    }

    func run() throws {
        let probe = DeviceDiscovery.probe(paths.isEmpty ? nil : paths)
        if json {
            try printJSON(Listing(devices: probe.devices, skipped: probe.skipped, problems: probe.problems))
        } else {
            for d in probe.devices {
                print("\(d.path)  \(d.card)  [driver \(d.driver) \(d.driverVersion), bus \(d.bus)]")
                for f in d.formats {
                    print("    \(f.fourcc) (format=\(f.code.userName)) \(f.description)\(f.compressed ? ", compressed" : "")")
                    for s in f.sizes {
                        print("        \(s.width)x\(s.height) @ \(s.rates.map(formatRate).joined(separator: ", ")) fps")
                    }
                }
            }
            for s in probe.skipped { print("skipped \(s)") }
            if probe.devices.isEmpty && probe.problems.isEmpty {
                print("no video capture devices found\(paths.isEmpty ? " (/dev/video0…63)" : "")")
            }
        }
        for p in probe.problems { printToStandardError("framelab: warning: \(p)") }
        // Asked-for paths that could not be described are an error; a probe that found none is not.
        if !paths.isEmpty && probe.devices.isEmpty {
            throw ExitCode(1)
        }
    }
}
