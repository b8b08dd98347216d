import FramelabCore
import FramelabDetection
import FramelabElements

extension PluginCatalog {
    /// The built-in detectors plus every plugin detector, in one `DetectorRegistry`, so
    /// `--detector NAME` means the same for both. As with filters, a name defined twice
    /// (two plugins, or a plugin and a built-in detector) stays out of the registry and is
    /// reported in `clashes`, one line naming every origin.
    public func detectorRegistry(isolation: IsolationOptions? = nil) -> (registry: DetectorRegistry, clashes: [String: String]) {
        var registry = DetectorRegistry.builtIns
        registry.unknownNameHint = unknownNameHint
        let clashes = nameClashes()
        for e in elements where e.info.kind == .detector && clashes[e.info.name] == nil {
            // Unique by the check above, so registering cannot clash.
            try? registry.register(Self.detectorDescriptor(e, isolation: isolation))
        }
        return (registry, clashes)
    }

    /// A detector element as a registry entry, with the parameters its plugin declares;
    /// instances run in-process or, with `isolation`, in a worker process each.
    public static func detectorDescriptor(_ element: PluginElement, isolation: IsolationOptions?) -> DetectorDescriptor {
        let info = element.info
        return DetectorDescriptor(name: info.name, summary: "\(info.summary) (plugin \(info.version))",
                                  parameters: info.parameters, origin: info.path) { p in
            if let isolation {
                return try IsolatedPluginDetector(element: element, values: p.values, options: isolation)
            }
            return try PluginDetector(element: element, values: p.values)
        }
    }
}
