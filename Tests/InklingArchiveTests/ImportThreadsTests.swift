import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive

/// The import's threads: the workers yield the cores to the writer, the one thread that
/// cannot be parallel.
@Suite struct ImportThreadsTests {
  /// The nice value of thread `tid` of this process (field 19 of /proc/self/task/TID/stat).
  private static func niceness(ofThread tid: String) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return nil }
    // After the name in parentheses: state is field 3, so nice (19) is the 17th.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    return fields.count > 16 ? Int(fields[16]) : nil
  }

  /// The nice values of this process's threads.
  private static func threadNiceness() -> [Int] {
    let tids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tids.compactMap(niceness(ofThread:))
  }

  @Test func theWorkersRunAtALowerPriorityThanTheWriter() throws {
    let folder = try TemporaryFolder("threads")
    // More drafts than the results queue holds: the workers are still there, waiting to
    // hand over, when the writer stores the first version.
    for draft in 0..<80 {
      try folder.write(
        "Drafts/draft-\(draft)-2025-10-01T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(500, seed: UInt64(draft))))
    }
    let base = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    final class Seen: @unchecked Sendable {
      var writer: Int?
      /// The most threads seen yielding at once, over the events.
      var yielding = 0
    }
    let seen = Seen()
    var options = ImportOptions()
    options.workers = 2
    options.onEvent = { event in
      // Events come on the writer's thread, the one that called the import. On a loaded
      // machine a worker may not have run yet at the first one: the threads are looked at
      // at every event.
      guard case .archived = event else { return }
      if seen.writer == nil { seen.writer = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) }
      seen.yielding = max(seen.yielding, Self.threadNiceness().filter { $0 == min(19, base + 10) }.count)
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")], options: options)
    #expect(summary.versionsImported == 80)

    #expect(seen.writer == base)
    // Other tests' imports may be running too: at least this import's two workers yield.
    #expect(seen.yielding >= 2)
    #expect(Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) == base)
  }
}
