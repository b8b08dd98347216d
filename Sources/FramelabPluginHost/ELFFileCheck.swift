import Foundation
import FramelabCore

/// What is wrong with a file that should be a shared library for this machine, in words,
/// before `dlopen` sees it: dlopen reports a library for another architecture as "No such
/// file or directory" (the name of a dependency it then looked for), and maps a truncated
/// one and dies of SIGBUS at its first touch past the end.
enum ELFFileCheck {
    /// ELF `e_machine` of the machine Framelab was built for.
    #if arch(x86_64)
    static let machine: UInt16 = 62, machineName = "x86-64"
    #elseif arch(arm64)
    static let machine: UInt16 = 183, machineName = "arm64"
    #else
    static let machine: UInt16 = 0, machineName = "this machine"
    #endif

    static let machineNames: [UInt16: String] = [3: "x86 (32-bit)", 40: "arm (32-bit)", 62: "x86-64", 183: "arm64",
                                                  243: "riscv", 21: "ppc64", 22: "s390"]

    /// nil when the file looks like a complete 64-bit little-endian ELF shared object for this
    /// machine; else why not.
    static func problem(_ path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }  // dlopen says why
        defer { try? file.close() }
        let header = [UInt8]((try? file.read(upToCount: 64)) ?? Data())
        guard header.count >= 4, header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46 else {
            return "not an ELF file (a shared library starts with \\x7fELF)"
        }
        guard header.count == 64 else { return "truncated: its ELF header is cut short (\(header.count) bytes)" }
        func u16(_ o: Int) -> UInt16 { UInt16(header[o]) | UInt16(header[o + 1]) << 8 }
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(header[o + $1]) << (8 * UInt64($1)) } }
        guard header[4] == 2, header[5] == 1 else { return "not a 64-bit little-endian ELF file" }
        let machine = u16(18)
        if Self.machine != 0 && machine != Self.machine {
            let built = machineNames[machine] ?? "ELF machine \(machine)"
            return "built for \(built); this machine is \(machineName)"
        }
        guard u16(16) == 3 else { return "not a shared library (ELF type \(u16(16)); build with -shared -fPIC)" }
        // The section headers come last: a file that ends before them was cut short.
        let end = u64(40) &+ UInt64(u16(60)) &* UInt64(u16(58))
        let size = (try? file.seekToEnd()) ?? 0
        if end > size { return "truncated: \(size) bytes, its section headers end at byte \(end)" }
        return nil
    }
}
