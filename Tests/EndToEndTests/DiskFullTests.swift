// A disk that fills during an import, on a real small file system: the sentence names the
// versions committed, which `stats` then finds, and the same import run again, with room, adds
// the rest.

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whether this process may mount a small tmpfs (root with CAP_SYS_ADMIN), the one way to
/// fill a disk without filling the machine's.
private let smallDisksCanBeMounted: Bool = {
  guard getuid() == 0, let folder = try? TemporaryFolder("mount-probe") else { return false }
  guard (try? ChildProcess.run(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.path]))?.status == 0
  else { return false }
  _ = try? ChildProcess.run(["/usr/bin/umount", folder.path])
  return true
}()

@Suite(.enabled(if: smallDisksCanBeMounted)) struct DiskFullTests {
  @Test func anImportOntoAFullDiskNamesWhatItCommittedAndARerunFinishesIt() throws {
    let runner = try BinaryRunner(fresh: "disk-full", making: ["disk", "room"])
    let drafts = runner.workingDirectory + "/Drafts"
    let corpus = try writeCorpus(
      CorpusSpec(drafts: 120, versionsPerDraft: 3...5, seed: 14), to: URL(fileURLWithPath: drafts))
    let files = corpus.drafts.reduce(0) { $0 + $1.files.count }
    let disk = runner.workingDirectory + "/disk"
    let mounted = try ChildProcess.run(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", disk])
    try #require(mounted.status == 0, "\(mounted.stderr)")
    var isMounted = true
    defer { if isMounted { _ = try? ChildProcess.run(["/usr/bin/umount", disk]) } }

    let onDisk = BinaryRunner(in: runner.temporary, archive: disk + "/archive.sqlite")
    let stopped = try onDisk.run(["import", drafts])
    #expect(stopped.status == 3)
    let sentence = stopped.stderr
    #expect(sentence.contains("is full"), "\(sentence)")
    #expect(sentence.contains("run the same import again to add the rest"), "\(sentence)")

    let stats = try onDisk.run(["stats", "--json"])
    try #require(stats.status == 0, "\(stats.stderr)")
    let numbers = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
    let committed = try #require(numbers["versions"] as? Int)
    #expect(committed < files)
    if committed == 0 {
      #expect(sentence.contains("nothing of this import was committed"), "\(sentence)")
    } else {
      #expect(sentence.contains("the \(committed) version"), "\(sentence)")  // under 1,000: no separator
    }

    // The archive, moved to a disk with room, takes the rest of the same import.
    for name in try FileManager.default.contentsOfDirectory(atPath: disk) {
      try FileManager.default.copyItem(atPath: disk + "/" + name, toPath: runner.workingDirectory + "/room/" + name)
    }
    _ = try ChildProcess.run(["/usr/bin/umount", disk])
    isMounted = false
    let roomy = BinaryRunner(in: runner.temporary, archive: runner.workingDirectory + "/room/archive.sqlite")
    let rerun = try roomy.run(["import", "--json", drafts])
    #expect(rerun.status == 0, "\(rerun.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
    #expect(summary["alreadyArchived"] as? Int == committed)
    #expect(summary["versionsImported"] as? Int == files - committed)
    let check = try roomy.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }
}
