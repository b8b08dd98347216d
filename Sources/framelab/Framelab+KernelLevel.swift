import ArgumentParser
import FramelabFilters

extension Framelab {
    /// Checks `FRAMELAB_ISA` before any command runs: an unknown level, or one this CPU
    /// cannot run, is a one-line error (exit 1), never a crash in the first kernel.
    static func main() {
        if case .failure(let error) = KernelLevel.chosen {
            exit(withError: failure(error))
        }
        main(nil)
    }
}
