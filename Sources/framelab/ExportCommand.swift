import ArgumentParser
import FramelabCore
import FramelabDatasets
import FramelabRuns
import Foundation

/// `framelab export`: an eval run's detections as saved predictions another tool (or
/// `framelab eval --predictions`) reads.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the detections of a recorded eval run as WIDER, FDDB or COCO predictions.",
        discussion: """
            Formats (--format; docs/predictions.md):
              wider — a WIDER submission folder: OUT/<event>/<image>.txt per image (name, count, x y w h score lines)
              fddb  — an FDDB detection list file OUT: per image its name without extension, count, x y w h score lines
              coco  — a COCO results file OUT: [{"image_id","category_id","bbox":[x,y,w,h],"score"}]
            With one detector in the run (or --detector LABEL) OUT is that folder or file; with several, OUT is \
            a folder holding one per detector, named by its label with characters other than letters, digits, \
            '.', '-', '_' replaced by '_' (a folder for wider, LABEL.txt for fddb, LABEL.json for coco).
            Image names are the dataset's (the run's --dataset read again, or --dataset here) when its images \
            agree with the run's; otherwise the image paths relative to the run's dataset_root. COCO image ids \
            are the dataset's when the run evaluated a coco: dataset; otherwise they are the frame number + 1 \
            and the matching COCO ground truth is written too (--ground-truth, default OUT without .json + \
            _ground_truth.json, or OUT/ground_truth.json for several detectors), so `framelab eval --dataset \
            coco:GT.json --predictions RESULTS.json` gives the run's metrics back.
            Images that failed for a detector get no entry (they would count as found nothing). Numbers are \
            written exactly (shortest round-trip form): importing gives the same AP, precision and recall.
            """)

    @Argument(help: "An HDF5 file holding an eval run (framelab eval --out).", completion: ShellCompletion.recordings)
    var file: String

    @Option(name: .customLong("run"), help: "The run to export (default: the file's latest eval run).")
    var runID: String?

    @Option(name: .long, help: "The format: wider, fddb or coco.")
    var format: String

    @Option(name: .long, help: "Where to write: a folder (wider, or several detectors) or a file.")
    var out: String

    @Option(name: .long, help: "Export only the detector with this label (as `framelab report` shows it).")
    var detector: String?

    @Option(name: .long, help: "The dataset FORMAT:PATH the run evaluated, for image names and COCO ids (default: the one it recorded).")
    var dataset: String?

    @Option(name: .customLong("ground-truth"), help: "Where COCO ground truth goes when the dataset has no COCO ids.")
    var groundTruth: String?

    @Flag(name: .long, help: "Print one JSON object saying what was written.")
    var json = false

    func validate() throws {
        if PredictionFormat(rawValue: format) == nil {
            throw usageError("--format must be one of \(PredictionFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(format)'")
        }
    }

    func run() throws {
        let chosen = PredictionFormat(rawValue: format) ?? .wider
        let recorded: RecordedPredictions
        let result: PredictionExport.Result
        do {
            guard FileManager.default.fileExists(atPath: file) else { throw FramelabError(.badInput, "'\(file)' does not exist") }
            try RecordingVetting.vet(file)
            recorded = try RecordedPredictions.read(path: file, runID: runID, dataset: dataset)
            var detectors = Array(recorded.labels.indices)
            if let detector {
                guard let k = recorded.labels.firstIndex(of: detector) else {
                    throw FramelabError(.badInput, "run '\(recorded.runID)' has no detector '\(detector)' "
                                        + "(detectors: \(recorded.labels.joined(separator: ", ")))")
                }
                detectors = [k]
            }
            result = try PredictionExport.write(recorded, format: chosen, detectors: detectors, out: out,
                                                groundTruth: groundTruth)
        } catch {
            throw failure(error)
        }
        if json {
            struct Report: Encodable {
                let file: String, run: String, format: String, names: String
                let exports: [PredictionExport.Written]
                @NullWhenAbsent var ground_truth: String?
            }
            let report = Report(file: file, run: recorded.runID, format: chosen.rawValue, names: recorded.namesFrom,
                                exports: result.exports, ground_truth: result.ground_truth)
            try printJSON(report)
            return
        }
        print("run '\(recorded.runID)' of \(file), image names from the \(recorded.namesFrom):")
        for w in result.exports {
            let extra = (w.failed_images > 0 ? ", \(w.failed_images) failed images left out" : "")
                + (w.skipped_detections > 0 ? ", \(w.skipped_detections) non-finite detections left out" : "")
            print("  \(w.detector): \(w.images) images, \(w.detections) detections → \(w.path)\(extra)")
        }
        if let truth = result.ground_truth { print("  COCO ground truth → \(truth)") }
    }
}
