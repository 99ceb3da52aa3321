import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

/// `contact-sheet` of more drafts than one PNG sheet holds (576 of 128 px): numbered sheets,
/// each a whole grid, in `list`'s order, refused on standard output and over existing files.
@Suite(.serialized) struct ContactSheetPagesTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  static let drafts = 600

  init() throws {
    runner = try BinaryRunner(fresh: "sheets")
    try generateCorpus(
      CorpusSpec(drafts: Self.drafts, versionsPerDraft: 1...1, seed: 52, strokesPerVersion: 1...2)
    ) { file in
      _ = try runner.temporary.write("Drafts/" + file.fileName, file.contents)
    }
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
  }

  /// Width and height from the IHDR chunk.
  func dimensions(_ name: String) throws -> (Int, Int) {
    let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }

  /// The value of the Description text chunk (tEXt, or uncompressed iTXt).
  func description(_ name: String) throws -> String? {
    let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    var offset = 8
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      let data = Array(png[(offset + 8)..<(offset + 8 + length)])
      if type == "tEXt" || type == "iTXt", let end = data.firstIndex(of: 0),
        String(decoding: data[..<end], as: UTF8.self) == "Description"
      {
        var rest = Array(data[(end + 1)...])
        if type == "iTXt" {
          // compression flag and method, then the language and translated keyword, each ended by NUL.
          rest.removeFirst(2)
          for _ in 0..<2 { rest = Array(rest[((rest.firstIndex(of: 0) ?? -1) + 1)...]) }
        }
        return String(decoding: rest, as: UTF8.self)
      }
      offset += 12 + length
    }
    return nil
  }

  @Test func moreThanASheetHoldsAreNumberedSheets() throws {
    let result = try runner.run(["contact-sheet", "-o", "all.png"])
    #expect(result.status == 0, "\(result.stderr)")
    // 576 in a 24 × 24 grid of 136 × 170 px cells, then 24 in 5 columns and 5 rows.
    #expect(
      result.stdout == "all-1.png  (576 drafts, 3272 × 4088 px)\nall-2.png  (24 drafts, 688 × 858 px)\n")
    #expect(try dimensions("all-1.png") == (3272, 4088))
    #expect(try dimensions("all-2.png") == (688, 858))
    #expect(!FileManager.default.fileExists(atPath: folder + "/all.png"))

    // The sheets follow list's order: the second holds list's last 24 drafts.
    let list = try runner.run(["--json", "list"])
    let drafts = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["drafts"]
    let listed = (drafts as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(listed.count == Self.drafts)
    #expect(try description("all-2.png") == listed.suffix(24).joined(separator: "\n"))

    // Over existing sheets only with --force, and then nothing is written before the refusal.
    let again = try runner.run(["contact-sheet", "-o", "all.png"])
    #expect(again.status != 0)
    #expect(again.stderr.contains("all-1.png"), "\(again.stderr)")
    let json = try runner.run(["--json", "contact-sheet", "--force", "-o", "all.png"])
    #expect(json.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["drafts"] as? Int == Self.drafts)
    let sheets = object?["sheets"] as? [[String: Any]] ?? []
    #expect(sheets.map { $0["path"] as? String } == ["all-1.png", "all-2.png"])
    #expect(sheets.map { $0["drafts"] as? Int } == [576, 24])
  }

  /// The process's own peak memory running `arguments`.
  func peakMemory(_ arguments: [String]) throws -> Int {
    let child = try BinaryRunner.start(["--archive", runner.archive] + arguments, outputFolder: folder)
    let outcome = child.wait(timeout: 600)
    #expect(
      outcome.status == 0, "\(arguments): \((try? String(contentsOfFile: child.stderrPath, encoding: .utf8)) ?? "")")
    return outcome.maxResidentBytes
  }

  /// A full sheet, 576 thumbnails on 3272 × 4088 px (51 MiB of RGBA), is drawn a row of cells
  /// at a time and handed to libpng as it is: the process peaks within a strip's and the
  /// sheet's compressed bytes' memory of a sheet of one draft.
  @Test func aFullSheetTakesTheMemoryOfAStrip() throws {
    let list = try runner.run(["--json", "list"])
    let drafts = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["drafts"]
    let name = try #require((drafts as? [[String: Any]])?.first?["name"] as? String)
    let one = try peakMemory(["contact-sheet", "--exact", name, "-o", folder + "/one.png"])
    let all = try peakMemory(["contact-sheet", "-o", folder + "/all.png"])
    #expect(try dimensions("all-1.png") == (3272, 4088))
    #expect(one > 0 && all > 0)
    #expect(all - one < 24 << 20, "one draft: \(one >> 20) MiB, 600 drafts: \(all >> 20) MiB")
  }

  @Test func oneSheetKeepsItsNameAndStandardOutputHoldsOne() throws {
    // 256 px: 144 a sheet; --columns 1 at 256 px, 48 (a column as tall as a sheet may be).
    let columns = try runner.run(["contact-sheet", "--size", "256", "--columns", "1", "-o", "col.png"])
    #expect(columns.status == 0, "\(columns.stderr)")
    let lines = columns.stdout.split(separator: "\n")
    #expect(lines.count == 13, "\(columns.stdout)")  // 600 / 48, rounded up
    #expect(lines.first == "col-1.png  (48 drafts, 288 × 16336 px)")

    let piped = try runner.run(["contact-sheet", "-o", "-"])
    #expect(piped.status == 1)
    #expect(piped.stdout == "")
    #expect(
      piped.stderr
        == "Error: 600 drafts take more than one sheet (576 at 128 px) and standard output holds one: name a file, "
        + "and FILE-1.png, FILE-2.png, … are written, or choose fewer drafts (--name, --since, …)\n")
  }
}
