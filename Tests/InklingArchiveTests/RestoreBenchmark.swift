import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport
import Testing

/// Restore latency inside one process, through the library as the app would call it: the
/// part of a restore that is ours, without starting a process (scripts/bench measures that
/// separately). Runs only when scripts/bench names an archive:
///
///     INKLING_BENCH_RESTORE=ARCHIVE [INKLING_BENCH_SAMPLES=N] \
///       swift test -c release --skip-build --filter RestoreBenchmark
///
/// Picks N random versions (seeded) plus the oldest version of the ten longest histories,
/// then restores each twice: opening the archive anew every time (open, schema check,
/// lookup, blob chain, SHA-256, write) and through one open archive (lookup onwards).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["INKLING_BENCH_RESTORE"] != nil), .serialized)
struct RestoreBenchmark {
  static let environment = ProcessInfo.processInfo.environment

  @Test func restoreLatency() throws {
    let path = try #require(Self.environment["INKLING_BENCH_RESTORE"])
    let samples = Int(Self.environment["INKLING_BENCH_SAMPLES"] ?? "") ?? 300
    let picks = try Self.picks(archive: path, samples: samples)
    let folder = try TemporaryFolder()
    let output = folder.path("restored.inkling")

    var fresh: [(wall: Double, cpu: Double)] = []
    for (name, number) in picks {
      fresh.append(
        try Self.milliseconds {
          let archive = try Archive(path: path, mode: .readOnly)
          _ = try archive.restore(draft: name, version: .number(number), to: .file(output), overwrite: true)
        })
    }
    let archive = try Archive(path: path, mode: .readOnly)
    var warm: [(wall: Double, cpu: Double)] = []
    for (name, number) in picks {
      warm.append(
        try Self.milliseconds {
          _ = try archive.restore(draft: name, version: .number(number), to: .file(output), overwrite: true)
        })
    }
    #expect(fresh.count == picks.count && warm.count == picks.count)
    for (label, times) in [("open+restore", fresh), ("restore only", warm)] {
      print(
        "restore-in-process \(label): \(Self.quantiles(times.map(\.wall))) over \(times.count) versions "
          + "(CPU time \(Self.quantiles(times.map(\.cpu))))")
    }
  }

  /// `samples` random (draft, version) pairs and the oldest version of the longest histories.
  static func picks(archive path: String, samples: Int) throws -> [(String, Int)] {
    let archive = try Archive(path: path, mode: .readOnly)
    let drafts = try archive.drafts()
    try #require(!drafts.isEmpty, "the archive \(path) has no drafts")
    var generator = SeededRandom(seed: 2026)  // SearchFixture.swift
    var picks: [(String, Int)] = (0..<samples).map { _ in
      let draft = drafts[Int(generator.next() % UInt64(drafts.count))]
      return (draft.name, 1 + Int(generator.next() % UInt64(draft.versionCount)))
    }
    let longest = drafts.sorted { ($0.versionCount, $0.name) > ($1.versionCount, $1.name) }.prefix(10)
    picks += longest.map { ($0.name, 1) }
    return picks
  }

  /// Wall-clock and thread CPU milliseconds of `body` (on a shared machine the CPU time is
  /// what other processes do not inflate; the wall time includes waiting for fsync).
  static func milliseconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    func cpuNow() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = cpuNow()
    try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, cpuNow() - cpuStart)
  }

  static func quantiles(_ values: [Double]) -> String {
    let sorted = values.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))] }
    return String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", at(0.5), at(0.99), sorted.last ?? 0)
  }
}
