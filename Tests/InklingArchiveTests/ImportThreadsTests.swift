import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive

/// The import's threads: the workers run at the priority of the process, as the writer does
/// (niced, they would yield to every process of a busy machine, not only to the writer).
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

  /// This process's threads.
  private static func threads() -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [])
  }

  @Test func theWorkersRunAtTheProcesssPriority() throws {
    let folder = try TemporaryFolder("threads")
    // More drafts than the results queue holds: the workers are still there, waiting to
    // hand over, when the writer stores the first version.
    for draft in 0..<80 {
      try folder.write(
        "Drafts/draft-\(draft)-2025-10-01T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(500, seed: UInt64(draft))))
    }
    let base = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    // The test runner's own threads keep whatever priority it gave them.
    let earlier = Self.threads()
    final class Seen: @unchecked Sendable {
      /// The most threads the import started seen at once over the events, and their nice values.
      var threads = 0
      var niceness = Set<Int>()
    }
    let seen = Seen()
    var options = ImportOptions()
    options.workers = 2
    options.onEvent = { event in
      // Events come on the writer's thread, the one that called the import, while the
      // workers run; the threads are looked at at every event.
      guard case .archived = event else { return }
      let niceness = Self.threads().subtracting(earlier).compactMap(Self.niceness(ofThread:))
      seen.threads = max(seen.threads, niceness.count)
      seen.niceness.formUnion(niceness)
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")], options: options)
    #expect(summary.versionsImported == 80)

    // The lister and the two workers at least (the writer is the caller's thread).
    #expect(seen.threads >= 3)
    #expect(seen.niceness == [base], "\(seen.niceness)")
    #expect(Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) == base)
  }
}
