#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Ends the worker when its host is gone. A worker waiting for a request sees the host's
/// end as end-of-file; one stuck in plugin code (a hang, an endless loop) never reads again,
/// so a thread checks the parent instead: when the host dies — even by `kill -9` — the worker
/// is re-parented, and exits within `interval`. (PR_SET_PDEATHSIG would fire when the
/// spawning *thread* ends, which in the host can be any short-lived thread.)
enum ParentWatch {
    static let interval: TimeInterval = 0.25

    static func start() {
        let parent = getppid()
        let thread = Thread {
            while getppid() == parent { Thread.sleep(forTimeInterval: interval) }
            _exit(70)
        }
        thread.name = "parent-watch"
        thread.start()
    }
}
