import ArgumentParser
import FramelabCore
import FramelabDatasets
import FramelabRuns
import Foundation

/// `framelab dataset show`: see a dataset's faces, and a run's detections against them.
struct DatasetShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw a dataset's annotated faces, and an eval run's detections, into PNGs and an HTML contact sheet.",
        discussion: """
            Ground truth is green (ignored faces grey); each detector of --run has its own colour, \
            with its name and score above each box. Open OUT/index.html in a browser. \
            --run takes FILE.h5 or FILE.h5:RUN (default: the file's latest eval run); the run must \
            have been recorded over DATASET. --json prints {"sheet", "images": [{"index", "name", \
            "file", "faces", "ignored", "found": {detector: count or null}, "error"}], "failed"}.
            """)

    @Argument(help: "The dataset, FORMAT:PATH (see `framelab eval --help`).", completion: ShellCompletion.datasets)
    var dataset: String

    @Option(name: .customLong("run"), help: "An eval run over the same dataset whose detections to draw: FILE.h5[:RUN].")
    var runFile: String?

    @Option(name: .long, help: "Folder to write NNNN.png and index.html into (made if missing).")
    var out: String

    @Option(name: .long, help: "Draw at most this many images, in dataset order.")
    var limit = 100

    @Flag(name: .long, help: "Print no progress line and no library warnings (libpng, libjpeg, OpenCV).")
    var quiet = false

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if !(1...100_000).contains(limit) { throw usageError("--limit must be 1…100000, got \(limit)") }
    }

    func run() throws {
        LibraryMessages.isSilenced = quiet
        let result: DatasetSheet.Result
        do {
            let data = try FaceDataset.load(dataset)
            let predictions = try runFile.map { spec -> RecordedPredictions in
                let run = RunReference(parsing: spec)
                try RecordingVetting.vet(run.path)
                return try RecordedPredictions.read(path: run.path, runID: run.runID, dataset: dataset)
            }
            let progress = EvalProgress(enabled: !quiet, job: "dataset show")
            result = try DatasetSheet.render(dataset: data, predictions: predictions, into: out, limit: limit) { done, total in
                progress.update(done: done, total: total)
            }
            progress.finish()
        } catch {
            throw failure(error)
        }
        if json {
            try printJSON(Listing(result))
        } else {
            print("drew \(result.pages.count - result.failed) of \(result.pages.count) images"
                  + (result.detectors.isEmpty ? "" : " with \(result.detectors.joined(separator: ", "))")
                  + "; open \(result.sheet)")
            for page in result.pages where page.error != nil {
                printToStandardError("framelab: warning: \(page.name): \(page.error!)")
            }
        }
        if !result.pages.isEmpty && result.failed == result.pages.count {
            throw failure(FramelabError(.badInput, "dataset '\(dataset)': none of its images could be drawn"))
        }
    }

    struct Listing: Encodable {
        struct Image: Encodable {
            let index: Int, name: String, file: String?, faces: Int, ignored: Int
            let found: [String: Int?]
            let error: String?
        }
        let sheet: String
        let images: [Image]
        let failed: Int

        init(_ r: DatasetSheet.Result) {
            sheet = r.sheet
            failed = r.failed
            images = r.pages.map { p in
                Image(index: p.index, name: p.name, file: p.file, faces: p.faces, ignored: p.ignored,
                      found: Dictionary(uniqueKeysWithValues: zip(r.detectors, p.found)), error: p.error)
            }
        }
    }
}
