// Export as the salvage path of an archive with a damaged page: every version that verifies
// is written and in the manifest, each one lost is named on stderr and in the JSON, and the
// status is 1, as for a damaged row.

import Foundation
import InklingTestSupport
import Testing

@Suite struct DamagedExportTests {
  @Test func aDamagedPageOfBlobsLosesOnlyItsVersions() throws {
    let runner = try BinaryRunner(fresh: "damaged-page")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 51)
    for index in 0..<32 {
      for _ in 0..<4 { try corpus.save("D\(index)") }
    }
    #expect(try runner.run(["import", "Drafts"]).status == 0)
    let page = Int(
      try sqlite3(
        runner.archive,
        "SELECT pageno FROM dbstat WHERE name = 'blob' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 5"))
    let pageSize = Int(try sqlite3(runner.archive, "PRAGMA page_size")) ?? 4096
    #expect(page != nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: runner.archive))
    try handle.seek(toOffset: UInt64(((page ?? 2) - 1) * pageSize))
    handle.write(Data([UInt8](repeating: 0xEE, count: pageSize)))
    try handle.close()

    let exported = try runner.run(["export", "--all-versions", "--to", "out"])
    #expect(exported.status == 1, "\(exported.stdout)\(exported.stderr)")
    let lost = exported.stderr.split(separator: "\n").filter { $0.contains(": not written: ") }
    #expect(!lost.isEmpty && lost.count < 16, "\(exported.stderr)")
    #expect(lost.allSatisfy { $0.hasPrefix("out/D") && $0.contains(" is damaged") }, "\(exported.stderr)")
    let written = filesUnder(runner.workingDirectory + "/out").filter { $0.hasSuffix(".inkling") }
    #expect(written.count + lost.count == 128, "\(written.count) written, \(lost.count) lost")
    #expect(exported.stdout.contains("\(written.count) files written"), "\(exported.stdout)")
    #expect(exported.stdout.contains("\(lost.count) damaged, not written"), "\(exported.stdout)")
    // The manifest lists exactly the files written, each with its bytes.
    let manifest = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: runner.workingDirectory + "/out/inkling-export.json")))
    let files = (manifest as? [String: Any])?["files"] as? [[String: Any]] ?? []
    #expect(files.compactMap { $0["file"] as? String }.sorted() == written.sorted())
    for file in written {
      #expect(
        Array(try Data(contentsOf: URL(fileURLWithPath: runner.workingDirectory + "/out/" + file)))
          == corpus.files[file], "\(file)")
    }

    let json = try runner.run(["--json", "export", "--all-versions", "--to", "again"])
    #expect(json.status == 1)
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let problems = report?["problems"] as? [[String: Any]] ?? []
    #expect(problems.count == lost.count, "\(json.stdout)")
    #expect(problems.allSatisfy { $0["kind"] as? String == "damaged" }, "\(json.stdout)")
  }
}
