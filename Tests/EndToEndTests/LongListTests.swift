// A list longer than one read of it: the table is measured first and printed after, and the
// JSON written as the drafts are found, so neither holds every draft; both read as a short
// list's do.

import Foundation
import InklingTestSupport
import Testing

@Suite struct LongListTests {
  @Test func aLongTableIsAlignedAndItsJSONIsWhole() throws {
    let runner = try BinaryRunner(fresh: "long-list")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 11)
    // More drafts than one read of the table holds; the widest name and count come last by
    // name, so a table measured from its first rows only would slip. (An emoji takes two
    // columns and two UTF-16 units, so offsets below are columns.)
    for index in 0..<1_010 { try corpus.save("Draft \(index)") }
    for _ in 0..<12 { try corpus.save("Zebra, a name wider than the others 🎨") }
    #expect(try runner.run(["import", "Drafts"]).status == 0)

    let table = try runner.run(["list", "--sort", "name"])
    #expect(table.status == 0, "\(table.stderr)")
    let lines = table.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 1_012)
    #expect(lines.first?.hasPrefix("NAME") == true)
    // Every row's date starts in the header's LAST SAVED column, and the counts are aligned
    // to the right of VERSIONS.
    let header = lines[0]
    let saved = header.range(of: "LAST SAVED")!.lowerBound.utf16Offset(in: header)
    let versions = header.range(of: "VERSIONS")!.upperBound.utf16Offset(in: header)
    for line in lines.dropFirst() {
      let characters = Array(line.utf16)
      #expect(characters.count > saved && characters[saved - 2] == 0x20 && characters[saved] != 0x20, "\(line)")
      #expect(characters[versions - 1] != 0x20 && characters[versions] == 0x20, "\(line)")
    }
    #expect(lines.last?.hasPrefix("Zebra") == true && lines.last?.contains(" 12  ") == true)
    #expect(table.stderr.contains("1,011 drafts"))

    let json = try runner.run(["list", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let drafts = object?["drafts"] as? [[String: Any]] ?? []
    #expect(drafts.count == 1_011)
    #expect(Set(drafts.compactMap { $0["name"] as? String }).count == 1_011)
    #expect(try runner.run(["list", "--json", "--name", "nothing like this"]).stdout == "{\"drafts\":[]}\n")
  }
}
