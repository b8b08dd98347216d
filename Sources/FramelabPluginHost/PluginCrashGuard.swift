import CFramelabCrashGuard

/// Marks every call into plugin code made in this process, so that a plugin that crashes
/// the host (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) or calls exit() ends it with one line
/// naming the element and suggesting `--isolate`, not a backtrace of the host
/// (Sources/CFramelabCrashGuard says how).
enum PluginCrashGuard {
    private static let installed: Void = fl_crash_guard_install()

    /// Never install the guard in this process (the plugin worker, whose host reports its end).
    static func forgo() { fl_crash_guard_forgo() }

    /// Runs `body` marked as a call into `label`'s code, doing `doing`. `label` must stay
    /// valid during the call (the element owns it).
    @inline(__always)
    static func call<T>(_ label: UnsafePointer<CChar>, doing: StaticString, _ body: () throws -> T) rethrows -> T {
        _ = installed
        // A string literal's bytes are static: the pointer outlives the call.
        let previous = fl_crash_guard_enter(label, UnsafeRawPointer(doing.utf8Start).assumingMemoryBound(to: CChar.self))
        defer { fl_crash_guard_leave(previous) }
        return try body()
    }
}

/// A C string that lives as long as its owner: element labels the crash guard prints.
final class OwnedCString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>
    init(_ text: String) { pointer = strdupText(text) }
    deinit { pointer.deallocate() }
}

private func strdupText(_ text: String) -> UnsafeMutablePointer<CChar> {
    let utf8 = Array(text.utf8)
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
    for (i, b) in utf8.enumerated() { p[i] = CChar(bitPattern: b) }
    p[utf8.count] = 0
    return p
}
