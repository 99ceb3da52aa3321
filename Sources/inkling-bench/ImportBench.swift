// An import through the library, with the drawing index (what `inkling-archive import` does)
// or without it (`ImportOptions.indexDrawings = false`), for scripts/bench's rounds that
// measure what indexing adds to an import. The index is the library's promise to every
// import, so the command line offers no way to skip it; this benchmark is the one caller
// that does.

import Foundation
import InklingArchive

enum ImportBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "import", abstract: "Import files and folders through the library, with or without the drawing index.",
    usage: "--archive FILE [--no-index] PATH...", flags: ["--no-index"], run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let path = arguments.required("--archive")
    var options = ImportOptions()
    options.indexDrawings = !arguments.flag("--no-index")
    arguments.finish(operands: 1...Int.max)
    options.onEvent = { event in
      if case .rejected(let path, let reason) = event {
        FileHandle.standardError.write(Data("\(path): \(reason)\n".utf8))
      }
    }
    let summary = try Archive(path: path).importFiles(at: arguments.operands, options: options)
    print(
      "imported \(summary.versionsImported) versions (\(summary.draftsCreated) new drafts), "
        + "\(summary.alreadyArchived) already archived, \(summary.rejected) rejected, "
        + "drawing index \(options.indexDrawings ? "built" : "not built") in "
        + String(format: "%.2f s", summary.seconds))
    return summary.rejected > 0 ? 1 : 0
  }
}
