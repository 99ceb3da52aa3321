// A drawing's stroke list as the index keeps it: runs of consecutive stroke ids
// (`StrokeRuns`), left as runs.
//
// A save repeats the strokes of the save before it, in order, and its new strokes get the next
// ids, so a long history's lists are mostly one long run each, and two consecutive lists share
// a long first part. Comparing them run by run costs the runs, not the strokes: a draft saved
// thousands of times, a stroke a save, is compared in time linear in its saves.

/// The stroke ids of one drawing, in drawing order, as runs.
package struct StrokeRunList: Sendable, Equatable {
  /// (first id, length), in drawing order; no run is empty.
  package private(set) var runs: [(first: Int64, length: Int)]
  /// How many ids in all.
  package private(set) var count: Int

  package static let empty = StrokeRunList(runs: [])

  init(runs: [(first: Int64, length: Int)]) {
    self.runs = runs
    count = runs.reduce(0) { $0 + $1.length }
  }

  /// The list `bytes` encode (`StrokeRuns.encode`), or nil when they are not a valid run list.
  package init?(_ bytes: [UInt8]) {
    guard let runs = StrokeRuns.runs(bytes) else { return nil }
    self.init(runs: runs)
  }

  package static func == (a: StrokeRunList, b: StrokeRunList) -> Bool {
    a.count == b.count && a.runs.elementsEqual(b.runs) { $0.first == $1.first && $0.length == $1.length }
  }

  /// How many ids this list and `other` share at their start.
  package func commonPrefixCount(with other: StrokeRunList) -> Int {
    var shared = 0
    for (a, b) in zip(runs, other.runs) {
      guard a.first == b.first else { break }
      shared += Swift.min(a.length, b.length)
      guard a.length == b.length else { break }
    }
    return shared
  }

  /// The ids from place `start` (from 0) to the end.
  package func ids(from start: Int) -> [Int64] {
    var ids: [Int64] = []
    ids.reserveCapacity(Swift.max(0, count - start))
    var place = 0
    for run in runs {
      defer { place += run.length }
      guard place + run.length > start else { continue }
      let skip = Swift.max(0, start - place)
      for offset in skip..<run.length { ids.append(run.first &+ Int64(offset)) }
    }
    return ids
  }
}
