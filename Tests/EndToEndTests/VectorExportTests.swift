import Foundation
import InklingCorpus
import InklingFormats
import InklingTestSupport
import Testing

/// `export --svg --pdf` beside `--png`, through the binary: every version exported gets its
/// picture in each format asked, named after its file by the rules of `--png` (names that
/// collide, names that are not safe) and listed in the manifest with its size and hash; each
/// SVG is one rsvg-convert draws as the PNG's page, each PDF one qpdf passes, with the page the
/// drawing's size in points; and the vectors are the ones `render` writes, the same bytes at
/// every export, so exporting again writes nothing.
@Suite(.serialized) struct VectorExportTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "vector-export")
    let pen = try DeviceSamples.drawing("three-pen-strokes")
    let drafts: [(String, [UInt8])] = [
      ("Device-2025-10-01T12:00:00Z", pen),
      ("Device-2025-10-02T12:00:00Z", try DeviceSamples.drawing("handwritten-half-notes")),
      ("Erased-2025-10-03T12:00:00Z", try DrawingWriter.write(try InkedDrawings.edited(.pen))),
      // One name for a case-insensitive folder: the second gets " (2)", and so do its pictures.
      ("Cat-2025-10-04T12:00:00Z", pen), ("cat-2025-10-04T12:00:00Z", pen),
      // Names a synced folder may bring, and two whose file names are changed below to ones
      // a file from elsewhere may carry.
      ("..-2025-10-05T12:00:00Z", pen), ("New\nline\u{1B}[31mRED-2025-10-06T12:00:00Z", pen),
      ("d2-2025-10-07T12:00:00Z", pen), ("d3-2025-10-08T12:00:00Z", pen),
      // Not PencilKit: its pictures are the placeholder, and the export exits 1.
      ("Opaque-2025-10-09T12:00:00Z", SeededRandom.bytes(200, seed: 3)),
    ]
    for (stem, bytes) in drafts {
      let json = #"{"drawingData":"\#(Data(bytes).base64EncodedString())","color":{"r":1,"g":0.97,"b":0.9,"a":1}}"#
      try runner.temporary.write("Drafts/\(stem).inkling", json)
    }
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    _ = try sqlite3(
      runner.archive,
      """
      UPDATE version SET file_name = '../escape.inkling' WHERE draft_id = (SELECT id FROM draft WHERE name = 'd2');
      UPDATE version SET file_name = replace(hex(zeroblob(150)), '0', 'a') || '.inkling'
        WHERE draft_id = (SELECT id FROM draft WHERE name = 'd3');
      """)
  }

  /// The manifest's entries.
  func manifest(_ out: String) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/\(out)/inkling-export.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(object["files"] as? [[String: Any]])
  }

  func bytes(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + relative)) }

  @Test func everyVersionGetsItsSVGAndPDFNamedAndListedAsItsPNG() throws {
    let export = ["export", "--all-versions", "--png", "--svg", "--pdf", "--to", "out"]
    let exported = try runner.run(export)
    #expect(exported.status == 1, "\(exported.stderr)")
    let placeholders = exported.stderr.split(separator: "\n").filter { $0.contains("a placeholder picture") }
    #expect(placeholders.count == 3 && placeholders.allSatisfy { $0.contains("Opaque") }, "\(exported.stderr)")
    #expect(exported.stdout.contains("10 files written") && exported.stdout.contains("30 pictures written"))

    // Every file in the folder is listed with its bytes, and nothing else is there.
    let entries = try manifest("out")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
    #expect(Set(names) == Set(entries.compactMap { $0["file"] as? String } + ["inkling-export.json"]))
    #expect(entries.count == 40)
    let listed = entries.compactMap { $0["file"] as? String }
    let sums = try ChildProcess.run(["/usr/bin/sha256sum"] + listed.map { folder + "/out/" + $0 }).stdout
    let hashes = sums.split(separator: "\n").map { String($0.prefix(64)) }
    #expect(hashes.count == entries.count)
    for (entry, hash) in zip(entries, hashes) {
      let file = try #require(entry["file"] as? String)
      #expect(entry["size"] as? Int == (try bytes("out/" + file)).count, "\(file)")
      #expect(entry["sha256"] as? String == hash, "\(file)")
      #expect(file.utf8.count <= 255 && !file.unicodeScalars.contains { $0.value < 0x20 || $0 == "/" }, "\(file)")
      #expect(file != "." && file != "..")
    }
    // Nothing beside the folder: the hostile names stayed inside it.
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: folder)).subtracting([
        "archive.sqlite-shm", "archive.sqlite-wal",
      ]) == ["Drafts", "archive.sqlite", "out"])

    // Each draft file has a PNG, an SVG and a PDF of its name, listed as that version's.
    let files = entries.filter { $0["kind"] as? String == "inkling" }
    #expect(files.count == 10)
    var checked = 0
    for file in files {
      let name = try #require(file["file"] as? String)
      #expect(name.hasSuffix(".inkling"), "\(name)")
      let stem = String(name.dropLast(".inkling".count))
      for kind in ["png", "svg", "pdf"] {
        let picture = entries.filter { $0["file"] as? String == stem + "." + kind }
        #expect(picture.count == 1, "\(stem).\(kind)")
        #expect(picture.first?["kind"] as? String == kind)
        for key in ["draft", "version", "saved"] {
          #expect("\(picture.first?[key] ?? "")" == "\(file[key] ?? "")", "\(stem).\(kind): \(key)")
        }
      }
      try checkVectors(stem)
      checked += 1
    }
    #expect(checked == 10)
    #expect(names.contains("cat-2025-10-04T12:00:00Z (2).svg") || names.contains("Cat-2025-10-04T12:00:00Z (2).svg"))
    #expect(names.contains("escape.pdf") && names.contains("..-2025-10-05T12:00:00Z.svg"))
    #expect(names.contains("New_line_[31mRED-2025-10-06T12:00:00Z.pdf"))

    // The vectors are the ones `render` writes.
    for ext in ["svg", "pdf"] {
      #expect(try runner.run(["render", "Device", "--version", "1", "-o", "r.\(ext)"]).status == 0)
      #expect(try bytes("r.\(ext)") == bytes("out/Device-2025-10-01T12:00:00Z.\(ext)"), "\(ext)")
    }

    // The same bytes every time: exporting again writes nothing.
    let again = try runner.run(export)
    #expect(again.status == 1)
    #expect(again.stdout.contains("Nothing to write"), "\(again.stdout)")
    #expect(try manifest("out").count == 40)

    // An export of the PNGs alone into the folder keeps the vectors it finds in the manifest.
    let pngs = try runner.run(["--json", "export", "--all-versions", "--png", "--to", "out"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(pngs.stdout.utf8)) as? [String: Any], "\(pngs.stdout)")
    #expect(report["earlierFilesListed"] as? Int == 20, "\(pngs.stdout)")
    #expect(try manifest("out").count == 40)

    // Help and the manual say what the flags do.
    let help = try runner.run(["export", "--help"]).stdout
    #expect(help.contains("--svg") && help.contains("--pdf") && help.contains("NAME.svg"), "\(help)")
  }

  /// The SVG and PDF beside `stem`'s PNG are pictures of its page: rsvg-convert and pdftoppm
  /// draw them at the PNG's size within 30 dB of it (the drawings are pen, and a placeholder's
  /// frame is flat too), qpdf passes the PDF, and its page is the PNG's in points.
  func checkVectors(_ stem: String) throws {
    let base = folder + "/out/" + stem
    let png = try RasterComparison.image(base + ".png")
    let svg = try bytes("out/" + stem + ".svg")
    #expect(String(decoding: svg.prefix(5), as: UTF8.self) == "<?xml", "\(stem).svg")
    let rsvg = try ChildProcess.run([
      try RasterComparison.tool("rsvg-convert"), "-w", "\(png.width)", "-h", "\(png.height)", "-o",
      folder + "/rsvg.png", base + ".svg",
    ])
    #expect(rsvg.status == 0, "rsvg-convert \(stem).svg: \(rsvg.stderr)")
    let pdf = try bytes("out/" + stem + ".pdf")
    #expect(pdf.starts(with: Array("%PDF-".utf8)), "\(stem).pdf")
    let qpdf = try ChildProcess.run([try RasterComparison.tool("qpdf"), "--check", base + ".pdf"])
    #expect(qpdf.status == 0, "qpdf --check \(stem).pdf: \(qpdf.stdout)")
    let poppler = try ChildProcess.run([
      try RasterComparison.tool("pdftoppm"), "-png", "-singlefile", "-aa", "yes", "-aaVector", "yes", "-scale-to-x",
      "\(png.width)", "-scale-to-y", "\(png.height)", base + ".pdf", folder + "/poppler",
    ])
    #expect(poppler.status == 0, "pdftoppm \(stem).pdf: \(poppler.stderr)")
    let fromSVG = RasterComparison.psnr(png, try RasterComparison.image(folder + "/rsvg.png"))
    let fromPDF = RasterComparison.psnr(png, try RasterComparison.image(folder + "/poppler.png"))
    print("PSNR \(stem): SVG \(fromSVG) dB, PDF \(fromPDF) dB")
    #expect(fromSVG >= 30 && fromPDF >= 30, "\(stem): SVG \(fromSVG) dB, PDF \(fromPDF) dB")
    let info = try ChildProcess.run([try RasterComparison.tool("pdfinfo"), base + ".pdf"])
    let size = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("Page size:") }, "\(info.stdout)")
    let numbers = size.split(whereSeparator: { $0 == " " || $0 == "x" }).compactMap { Double($0) }
    #expect(numbers.count >= 2 && abs(numbers[0] - Double(png.width) / 2) < 0.01, "\(stem): \(size)")
    #expect(numbers.count >= 2 && abs(numbers[1] - Double(png.height) / 2) < 0.01, "\(stem): \(size)")
  }
}
