import FramelabCore
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// Loading and description validation: each bad file gets one line naming it and the fault.
@Suite struct PluginLibraryTests {
    func expectRejected(_ defect: String, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.broken(defect, in: dir)
        do {
            _ = try PluginLibrary(path: path)
            Issue.record("\(defect): loaded without complaint", sourceLocation: sourceLocation)
        } catch let error as FramelabError {
            #expect(error.message.hasPrefix(path), "\(error.message)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            for m in mentions { #expect(error.message.contains(m), "'\(error.message)' should mention '\(m)'", sourceLocation: sourceLocation) }
        }
    }

    @Test func exampleCPluginLoadsWithItsDescription() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let library = try PluginLibrary(path: PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir))
        #expect(library.name == "c-invert")
        #expect(library.abiVersion == PluginABI.versionText)
        #expect(library.elements.map(\.info.name) == ["negative", "noop", "fade-in"])
        let amount = try #require(library.elements[0].info.parameters.first)
        #expect(amount.name == "amount" && amount.type == .float && amount.rangeText == "0…1" && amount.defaultValue == .float(1))
        #expect(library.elements[0].info.formats == [.gray8, .bgr8, .bgra8])
        #expect(library.elements[1].info.formats.contains(.grayF32))
    }

    @Test func notASharedLibrary() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("libfake.so").path
        try Data("this is text, not ELF".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FramelabError.self) { try PluginLibrary(path: path) }
        do { _ = try PluginLibrary(path: path) } catch let e as FramelabError {
            #expect(e.message.hasPrefix("\(path): cannot load as a shared library"), "\(e.message)")
        }
    }

    @Test func libraryWithoutEntrySymbol() throws {
        try expectRejected("NO_ENTRY", mentions: ["not a Framelab plugin", "framelab_plugin_entry"])
    }

    @Test func abiMajorMismatch() throws {
        try expectRejected("ABI_MAJOR", mentions: ["built for plugin ABI \(PluginABI.major + 1).", "major versions must match"])
    }

    @Test func structSizeBelowABI2IsRefused() throws {
        try expectRejected("SMALL_STRUCT_SIZE", mentions: ["element #0: struct_size 16 is smaller than ABI 2.0's", "sizeof"])
    }

    @Test func strideBelowTheStructSizeIsRefused() throws {
        try expectRejected("SMALL_STRIDE", mentions: ["fl_plugin.element_stride ", "is smaller than ABI 2.0's", "sizeof"])
    }

    @Test func defaultOutsideRange() throws {
        try expectRejected("DEFAULT_OUTSIDE_RANGE", mentions: ["element 'broken'", "parameter 'gain'", "default 5.0 is outside 0…2"])
    }

    @Test func duplicateParameterNames() throws {
        try expectRejected("DUPLICATE_PARAMETER", mentions: ["element 'broken'", "parameter 'gain' is declared twice"])
    }

    @Test func unknownParameterType() throws {
        try expectRejected("UNKNOWN_TYPE", mentions: ["element 'broken'", "parameter 'mode' has unknown type 42"])
    }

    // Found by the plugin-description fuzz target (docs/reliability.md, "Fuzzing"): text from
    // the description was repeated raw, so a line break in it split the diagnosis, and a
    // description with a carriage return or a multi-line parameter description was accepted.

    @Test func nameWithALineBreakIsQuotedOnOneLine() throws {
        try expectRejected("NAME_WITH_LINE_BREAK", mentions: ["element #0", "(got 'bro\\nken')"])
    }

    @Test func enumDefaultWithALineBreakIsQuotedOnOneLine() throws {
        try expectRejected("ENUM_DEFAULT_WITH_LINE_BREAK",
                           mentions: ["parameter 'mode'", "default 'fa\\nst' is not one of 'fast', 'slow'"])
    }

    @Test func descriptionWithACarriageReturnIsRefused() throws {
        try expectRejected("DESCRIPTION_WITH_CR", mentions: ["element 'broken'", "needs a one-line description"])
    }

    @Test func parameterDescriptionOfTwoLinesIsRefused() throws {
        try expectRejected("PARAMETER_DESCRIPTION_LINES", mentions: ["parameter 'gain' needs a one-line description"])
    }
}
