// Restore latency inside one process, through the library as the app would call it: the part
// of a restore that is ours, without starting a process (scripts/bench times the process).
//
// Picks N random versions (seeded) plus the oldest version of the ten longest histories, then
// restores each twice: opening the archive anew every time (open, schema check, lookup, blob
// chain, SHA-256, write) and through one open archive (lookup onwards). Prints two lines that
// start with `restore-in-process `, which scripts/bench copies into its report.

import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport

enum RestoreBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "restore", abstract: "Restore latency inside one process (open + restore, and restore alone).",
    usage: "--archive FILE [--samples N]", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let path = arguments.required("--archive")
    let samples = arguments.int("--samples", default: 300)
    arguments.finish()
    let picks = try picks(archive: path, samples: samples)
    let folder = try TemporaryFolder("bench-restore")
    let output = folder.path("restored.inkling")

    var fresh: [(wall: Double, cpu: Double)] = []
    for (name, number) in picks {
      fresh.append(
        try Clocks.milliseconds {
          let archive = try Archive(path: path, mode: .readOnly)
          _ = try archive.restore(draft: name, version: .number(number), to: .file(output), overwrite: true)
        })
    }
    let archive = try Archive(path: path, mode: .readOnly)
    var warm: [(wall: Double, cpu: Double)] = []
    for (name, number) in picks {
      warm.append(
        try Clocks.milliseconds {
          _ = try archive.restore(draft: name, version: .number(number), to: .file(output), overwrite: true)
        })
    }
    for (label, times) in [("open+restore", fresh), ("restore only", warm)] {
      print(
        "restore-in-process \(label): \(quantiles(times.map(\.wall))) over \(times.count) versions "
          + "(CPU time \(quantiles(times.map(\.cpu))))")
    }
    return 0
  }

  /// `samples` random (draft, version) pairs and the oldest version of the longest histories.
  static func picks(archive path: String, samples: Int) throws -> [(String, Int)] {
    let archive = try Archive(path: path, mode: .readOnly)
    let drafts = try archive.drafts()
    guard !drafts.isEmpty else { BenchArguments.fail("the archive \(path) has no drafts") }
    var random = SeededRandom(seed: 2026)
    var picks: [(String, Int)] = (0..<samples).map { _ in
      let draft = drafts[Int(random.below(UInt64(drafts.count)))]
      return (draft.name, 1 + Int(random.below(UInt64(draft.versionCount))))
    }
    let longest = drafts.sorted { ($0.versionCount, $0.name) > ($1.versionCount, $1.name) }.prefix(10)
    picks += longest.map { ($0.name, 1) }
    return picks
  }

  /// Wall time (with waiting for fsync) and CPU time (what other processes do not inflate).
  static func quantiles(_ values: [Double]) -> String {
    String(
      format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", values.quantile(0.5), values.quantile(0.99),
      values.max() ?? 0)
  }
}
