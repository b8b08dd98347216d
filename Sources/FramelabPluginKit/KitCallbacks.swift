#if canImport(Glibc)
import Glibc
#endif
import CFramelabPlugin

/// One created instance behind the opaque pointer the host holds.
final class InstanceBox {
    let factory: ElementFactory
    let filter: (any FramelabFilterPlugin)?
    let detector: (any FramelabDetectorPlugin)?
    init(factory: ElementFactory, filter: (any FramelabFilterPlugin)?, detector: (any FramelabDetectorPlugin)?) {
        self.factory = factory
        self.filter = filter
        self.detector = detector
    }
}

/// The C functions every Swift element shares; user_data and the instance pointer say
/// which Swift object to call.
enum KitCallbacks {
    static let create: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fl_plugin_value>?,
                                       UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutablePointer<CChar>?, Int) -> Int32 = {
        userData, values, instance, err, errLength in
        let factory = Unmanaged<ElementFactory>.fromOpaque(userData!).takeUnretainedValue()
        do {
            let v = factory.values(values)
            let box = InstanceBox(factory: factory, filter: try factory.makeFilter?(v), detector: try factory.makeDetector?(v))
            instance?.pointee = Unmanaged.passRetained(box).toOpaque()
            return Int32(FL_PLUGIN_OK)
        } catch {
            return report(error, err, errLength)
        }
    }

    /// ABI 2's set_parameter: the element's `update`, or FL_PLUGIN_UNSUPPORTED (the host
    /// then re-creates the instance) when it does not take the change live.
    static let setParameter: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<fl_plugin_value>?,
                                             UnsafeMutablePointer<CChar>?, Int) -> Int32 = {
        instance, index, value, err, errLength in
        let box = Unmanaged<InstanceBox>.fromOpaque(instance!).takeUnretainedValue()
        guard let value, let i = Int(exactly: index), box.factory.parameters.indices.contains(i) else {
            return report(PluginFailure.badParameter("no parameter #\(index)"), err, errLength)
        }
        let name = box.factory.parameters[i].name
        let values = box.factory.value(of: i, value.pointee)
        do {
            let taken = try box.filter?.update(name, values) ?? box.detector?.update(name, values) ?? false
            return Int32(taken ? FL_PLUGIN_OK : FL_PLUGIN_UNSUPPORTED)
        } catch {
            return report(error, err, errLength)
        }
    }

    static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { instance in
        guard let instance else { return }
        Unmanaged<InstanceBox>.fromOpaque(instance).release()
    }

    static let outputFormat: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { userData, input in
        let factory = Unmanaged<ElementFactory>.fromOpaque(userData!).takeUnretainedValue()
        guard let format = PluginPixelFormat(rawValue: input) else { return 0 }
        return factory.outputFormat?(format)?.rawValue ?? 0
    }

    static let process: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fl_plugin_image>?,
                                        UnsafeMutablePointer<fl_plugin_image>?, UnsafeMutablePointer<CChar>?, Int) -> Int32 = {
        instance, input, output, err, errLength in
        let box = Unmanaged<InstanceBox>.fromOpaque(instance!).takeUnretainedValue()
        guard let filter = box.filter, let i = input.flatMap({ PluginImage($0.pointee) }),
              let o = output.flatMap({ PluginImage($0.pointee) }) else {
            return report(PluginFailure.unsupportedFormat("unknown pixel format"), err, errLength)
        }
        do {
            try filter.process(i, into: o)
            return Int32(FL_PLUGIN_OK)
        } catch {
            return report(error, err, errLength)
        }
    }

    static let detect: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fl_plugin_image>?,
                                       UnsafeMutablePointer<fl_plugin_detection>?, Int32, UnsafeMutablePointer<Int32>?,
                                       UnsafeMutablePointer<CChar>?, Int) -> Int32 = {
        instance, input, detections, capacity, count, err, errLength in
        let box = Unmanaged<InstanceBox>.fromOpaque(instance!).takeUnretainedValue()
        guard let detector = box.detector, let i = input.flatMap({ PluginImage($0.pointee) }) else {
            return report(PluginFailure.unsupportedFormat("unknown pixel format"), err, errLength)
        }
        do {
            let found = try detector.detect(i)
            let n = min(found.count, Int(capacity))
            for k in 0..<n { detections?[k] = found[k].cValue }
            count?.pointee = Int32(n)
            return Int32(FL_PLUGIN_OK)
        } catch {
            return report(error, err, errLength)
        }
    }

    /// Writes the error's message into the host's buffer and returns its status.
    static func report(_ error: Error, _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int32 {
        let (status, text): (Int32, String)
        switch error {
        case PluginFailure.unsupportedFormat(let m): (status, text) = (Int32(FL_PLUGIN_UNSUPPORTED), m)
        case PluginFailure.badParameter(let m): (status, text) = (Int32(FL_PLUGIN_BAD_PARAMETER), m)
        case PluginFailure.failed(let m): (status, text) = (Int32(FL_PLUGIN_ERROR), m)
        default: (status, text) = (Int32(FL_PLUGIN_ERROR), "\(error)")
        }
        if let buffer, length > 0 {
            let bytes = Array(text.utf8.prefix(length - 1))
            for (k, b) in bytes.enumerated() { buffer[k] = CChar(bitPattern: b) }
            buffer[bytes.count] = 0
        }
        return status
    }
}

extension PluginDetection {
    var cValue: fl_plugin_detection {
        var d = fl_plugin_detection()
        d.x = Float(x); d.y = Float(y); d.width = Float(width); d.height = Float(height); d.score = Float(score)
        if let eyes {
            d.landmarks |= UInt32(FL_DETECTION_HAS_EYES)
            d.left_eye = fl_plugin_point(x: Float(eyes.left.x), y: Float(eyes.left.y))
            d.right_eye = fl_plugin_point(x: Float(eyes.right.x), y: Float(eyes.right.y))
        }
        if let mouth {
            d.landmarks |= UInt32(FL_DETECTION_HAS_MOUTH)
            d.mouth = fl_plugin_point(x: Float(mouth.x), y: Float(mouth.y))
        }
        return d
    }
}
