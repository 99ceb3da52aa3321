import Foundation
import InklingTestSupport
import Testing

/// `contact-sheet -o FILE.pdf`, the printable portfolio, judged by tools we did not write:
/// qpdf checks the file, pdfinfo counts its pages and measures them, pdftotext finds every
/// caption in every script, pdffonts says the fonts are embedded.
@Suite(.serialized) struct PortfolioCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  /// Names in every script the PNG sheet draws, short enough not to be cut; one emoji twice on
  /// a page (a picture cairo must not list twice in the page's resources: qpdf warns).
  static let names = ["Кошка", "قطة صغيرة", "猫の絵", "Cat 🐈", "Café", "ねこ", "Ελιά", "Kitten 🐈"]
  /// 18 drafts: more than the 16 an A4 page holds at 4 columns, fewer than an A3 page's 20.
  static let count = 18

  init() throws {
    runner = try BinaryRunner(fresh: "portfolio")
    let samples = ["three-pen-strokes", "handwritten-half-notes", "pen-marker-hidden"]
    for index in 0..<Self.count {
      let name = index < Self.names.count ? Self.names[index] : "Drawing \(index)"
      let drawing = Data(try DeviceSamples.drawing(samples[index % samples.count]))
      let json = #"{"drawingData":"\#(drawing.base64EncodedString())","color":{"r":1,"g":0.97,"b":0.9,"a":1}}"#
      let day = String(format: "%02d", index + 1)
      try runner.temporary.write("Drafts/\(name)-2025-10-\(day)T12:00:00Z.inkling", json)
    }
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
  }

  func tool(_ name: String) throws -> String {
    let path = "/usr/bin/" + name
    try #require(FileManager.default.isExecutableFile(atPath: path), "scripts/setup test installs \(name)")
    return path
  }

  /// What `pdfinfo` says of `file`, by field.
  func info(_ file: String) throws -> [String: String] {
    let result = try ChildProcess.run([try tool("pdfinfo"), folder + "/" + file])
    #expect(result.status == 0, "pdfinfo: \(result.stderr)")
    var fields: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return fields
  }

  @Test func aPortfolioIsAValidPDFWithAPageForEverySixteenDrawingsOnA4() throws {
    let result = try runner.run(["contact-sheet", "-o", "all.pdf"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "all.pdf  (18 drafts, 2 pages of A4)\n")
    #expect(result.stderr == "")
    let check = try ChildProcess.run([try tool("qpdf"), "--check", folder + "/all.pdf"])
    #expect(check.status == 0, "qpdf: \(check.stdout) \(check.stderr)")
    let fields = try info("all.pdf")
    #expect(fields["Pages"] == "2")
    #expect(fields["Page size"]?.hasPrefix("595.276 x 841.89 pts (A4)") == true, "\(fields)")
    #expect(fields["Title"] == "Portfolio of 18 drafts")
  }

  /// Dated by the newest save it draws, not by the clock: the same selection made again, a
  /// second later, is the same bytes.
  @Test func aPortfolioMadeAgainIsTheSameBytes() throws {
    #expect(try runner.run(["contact-sheet", "-o", "first.pdf"]).status == 0)
    Thread.sleep(forTimeInterval: 1.1)
    #expect(try runner.run(["contact-sheet", "-o", "again.pdf"]).status == 0)
    let first = try Data(contentsOf: URL(fileURLWithPath: folder + "/first.pdf"))
    #expect(first == (try Data(contentsOf: URL(fileURLWithPath: folder + "/again.pdf"))))
    let dates = try ChildProcess.run([try tool("pdfinfo"), "-isodates", folder + "/first.pdf"])
    #expect(dates.stdout.contains("CreationDate:    2025-10-18T12:00:00Z"), "\(dates.stdout)")
    // A selection is dated by its own newest save.
    #expect(try runner.run(["contact-sheet", "--until", "2025-10-05", "-o", "early.pdf"]).status == 0)
    let early = try ChildProcess.run([try tool("pdfinfo"), "-isodates", folder + "/early.pdf"])
    #expect(early.stdout.contains("CreationDate:    2025-10-05T12:00:00Z"), "\(early.stdout)")
  }

  @Test func everyCaptionIsTextInEmbeddedFonts() throws {
    #expect(try runner.run(["contact-sheet", "-o", "all.pdf"]).status == 0)
    let text = try ChildProcess.run([try tool("pdftotext"), "-enc", "UTF-8", folder + "/all.pdf", "-"])
    #expect(text.status == 0)
    for name in Self.names + (Self.names.count..<Self.count).map({ "Drawing \($0)" }) {
      #expect(text.stdout.contains(name), "\(name) not in: \(text.stdout)")
    }
    #expect(text.stdout.contains("2025-10-01"))
    #expect(text.stdout.contains("Page 1 of 2") && text.stdout.contains("Page 2 of 2"), "page numbers: \(text.stdout)")

    let fonts = try ChildProcess.run([try tool("pdffonts"), folder + "/all.pdf"])
    #expect(fonts.status == 0)
    let rows = fonts.stdout.split(separator: "\n").dropFirst(2)
    // Latin, Cyrillic and Greek from Noto Sans; Arabic; CJK.
    for family in ["NotoSans-Regular", "NotoSansArabic-Regular", "NotoSansCJK"] {
      #expect(rows.contains { $0.contains(family) }, "\(family) not in: \(fonts.stdout)")
    }
    for row in rows {
      let columns = row.split(separator: " ", omittingEmptySubsequences: true)
      // name, type (one or two words), encoding, then emb sub uni.
      #expect(columns.count >= 6 && columns[columns.count - 5] == "yes", "not embedded: \(row)")
    }
  }

  @Test func thePaperSetsThePageSizeAndHowManyFitOnAPage() throws {
    #expect(try runner.run(["contact-sheet", "--paper", "letter", "-o", "letter.pdf"]).status == 0)
    let letter = try info("letter.pdf")
    #expect(letter["Pages"] == "2")
    #expect(letter["Page size"]?.hasPrefix("612 x 792 pts (letter)") == true, "\(letter)")

    let a3 = try runner.run(["contact-sheet", "--paper", "a3", "-o", "a3.pdf"])
    #expect(a3.stdout == "a3.pdf  (18 drafts, 1 page of A3)\n", "\(a3.stderr)")
    #expect(try info("a3.pdf")["Page size"]?.hasPrefix("841.89 x 1190.55 pts (A3)") == true)

    // A row is as tall as a cell is wide and more: 2 columns of 2 rows on A4 (18 drafts, 5
    // pages), 6 columns of 6 rows (1 page).
    #expect(try runner.run(["contact-sheet", "--columns", "2", "-o", "two.pdf"]).status == 0)
    #expect(try info("two.pdf")["Pages"] == "5")
    #expect(try runner.run(["contact-sheet", "--columns", "6", "-o", "six.pdf"]).status == 0)
    #expect(try info("six.pdf")["Pages"] == "1")
    let check = try ChildProcess.run([try tool("qpdf"), "--check", folder + "/two.pdf"])
    #expect(check.status == 0)
  }

  @Test func standardOutputAndRefusals() throws {
    let piped = try runner.run(["contact-sheet", "--name", "Cat", "--paper", "a4", "-o", "-"])
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.hasPrefix("%PDF-"))
    #expect(piped.stderr == "-  (1 draft, 1 page of A4)\n")

    let png = try runner.run(["contact-sheet", "--paper", "a4", "-o", "sheet.png"])
    #expect(png.status == 2)
    #expect(png.stderr.hasPrefix("Error: --paper is for a PDF: name the file .pdf\n"), "\(png.stderr)")
    let wide = try runner.run(["contact-sheet", "--columns", "13", "-o", "wide.pdf"])
    #expect(wide.status != 0)
    #expect(wide.stderr.contains("--columns must be 1 to 12 on a page, not 13"), "\(wide.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/wide.pdf"))

    #expect(try runner.run(["contact-sheet", "-o", "twice.pdf"]).status == 0)
    let again = try runner.run(["contact-sheet", "-o", "twice.pdf"])
    #expect(again.status != 0)
    #expect(try runner.run(["contact-sheet", "--force", "-o", "twice.pdf"]).status == 0)
  }
}
