import Foundation
import InklingTestSupport
import Testing

/// `thumbnail`, `render` and `contact-sheet` run as a person would: the files they write,
/// their text chunks, `pngcheck`, usage errors and refusals.
@Suite struct ImageCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "images")
    for (index, (sample, name)) in [
      ("three-pen-strokes", "Strokes"), ("handwritten-half-notes", "Notes: Café"), ("empty", "Empty"),
    ]
    .enumerated() {
      let drawing = Data(try DeviceSamples.drawing(sample))
      let json = #"{"drawingData":"\#(drawing.base64EncodedString())","color":{"r":1,"g":0.9,"b":0.8,"a":1}}"#
      try runner.temporary.write("Drafts/\(name)-2025-10-0\(index + 1)T12:00:00Z.inkling", json)
    }
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
  }

  func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
  }

  /// Width and height from the IHDR chunk.
  func dimensions(_ png: [UInt8]) -> (Int, Int) {
    func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }

  /// The keywords of the tEXt and iTXt chunks.
  func keywords(_ png: [UInt8]) -> [String] {
    var result: [String] = []
    var offset = 8
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      if type == "tEXt" || type == "iTXt" {
        let data = png[(offset + 8)..<(offset + 8 + length)]
        result.append(String(decoding: data.prefix { $0 != 0 }, as: UTF8.self))
      }
      offset += 12 + length
    }
    return result
  }

  /// Whether `pngcheck -q FILE` passes; scripts/setup installs the tool, so its absence fails.
  func pngcheck(_ name: String) throws -> Bool {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/pngcheck"), "scripts/setup installs pngcheck")
    return try ChildProcess.run(["/usr/bin/pngcheck", "-q", folder + "/" + name]).status == 0
  }

  @Test func thumbnailWritesAPNGOfTheSizeAsked() throws {
    let result = try runner.run(["thumbnail", "Strokes", "-o", "s.png"])
    #expect(result.status == 0)
    #expect(result.stdout == "s.png  (Strokes, version 1, saved \(localTime("2025-10-01T12:00:00Z")), 256 × 256 px)\n")
    #expect(result.stderr == "")
    let png = try bytes("s.png")
    #expect(dimensions(png) == (256, 256))
    #expect(keywords(png) == ["Title", "Inkling Version", "Creation Time", "Inkling File", "Software"])
    #expect(try pngcheck("s.png"))

    for size in [128, 512, 1024] {
      #expect(try runner.run(["thumbnail", "Notes: Café", "--size", "\(size)", "-o", "n\(size).png"]).status == 0)
      #expect(dimensions(try bytes("n\(size).png")) == (size, size))
      #expect(try pngcheck("n\(size).png"))
    }
    // A cache hit writes the same bytes.
    #expect(try runner.run(["thumbnail", "Notes: Café", "--size", "128", "-o", "again.png"]).status == 0)
    #expect(try bytes("again.png") == bytes("n128.png"))
  }

  @Test func thumbnailRefusesOtherSizesAndExistingFiles() throws {
    let bad = try runner.run(["thumbnail", "Strokes", "--size", "100", "-o", "x.png"])
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("Error: Invalid value '100' for '--size PX': expected 128, 256, 512 or 1024.\n"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/x.png"))

    #expect(try runner.run(["thumbnail", "Strokes", "-o", "t.png"]).status == 0)
    let again = try runner.run(["thumbnail", "Strokes", "--size", "128", "-o", "t.png"])
    #expect(again.status == 1)
    #expect(again.stderr == "Error: t.png already exists; use --force to replace it\n")
    #expect(dimensions(try bytes("t.png")) == (256, 256))
    #expect(try runner.run(["thumbnail", "Strokes", "--size", "128", "-o", "t.png", "--force"]).status == 0)
    #expect(dimensions(try bytes("t.png")) == (128, 128))

    let missing = try runner.run(["thumbnail", "Nobody", "-o", "n.png"])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: no draft named \"Nobody\""))
    let noVersion = try runner.run(["thumbnail", "Strokes", "--version", "2", "-o", "n.png"])
    #expect(noVersion.status == 1)
    #expect(noVersion.stderr == "Error: \"Strokes\" has 1 version; there is no version 2\n")
  }

  @Test func thumbnailOnAMissingArchiveCreatesNothing() throws {
    let result = try runner.run(["--archive", folder + "/none.sqlite", "thumbnail", "Strokes", "-o", "t.png"])
    #expect(result.status == 3)
    #expect(!FileManager.default.fileExists(atPath: folder + "/none.sqlite"))
  }

  @Test func renderWritesTheShareImage() throws {
    let one = try runner.run(["--json", "render", "Strokes", "--scale", "1", "-o", "r1.png"])
    #expect(one.status == 0)
    #expect(
      one.stdout.hasPrefix(#"{"path":"r1.png","draft":"Strokes","version":1,"saved":"2025-10-01T12:00:00Z","width":"#)
    )
    #expect(try runner.run(["render", "Strokes", "-o", "r2.png"]).status == 0)
    let (w1, h1) = dimensions(try bytes("r1.png"))
    let (w2, h2) = dimensions(try bytes("r2.png"))
    #expect(w1 > 50 && h1 > 50)
    #expect(abs(w2 - 2 * w1) <= 1 && abs(h2 - 2 * h1) <= 1, "the default scale is 2")
    #expect(keywords(try bytes("r1.png")) == ["Software", "Title", "Inkling Version", "Creation Time", "Inkling File"])
    #expect(try pngcheck("r1.png"))
    let bad = try runner.run(["render", "Strokes", "--scale", "0", "-o", "r0.png"])
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("Error: Invalid value '0' for '--scale S': expected a number above 0 and at most 16.\n"))
  }

  @Test func contactSheetIsAGridOfTheMatchingDrafts() throws {
    let all = try runner.run(["contact-sheet", "-o", "all.png"])
    #expect(all.status == 0)
    #expect(all.stdout == "all.png  (3 drafts, 280 × 348 px)\n")
    // 3 drafts: 2 columns and 2 rows of 136 × 170 px cells and an 8 px margin.
    #expect(dimensions(try bytes("all.png")) == (8 + 2 * 136, 8 + 2 * 170))
    #expect(try pngcheck("all.png"))
    #expect(keywords(try bytes("all.png")).contains("Software"))

    #expect(try runner.run(["contact-sheet", "--name", "notes", "--size", "256", "-o", "one.png"]).status == 0)
    #expect(dimensions(try bytes("one.png")) == (16 + 256 + 16, 16 + 256 + 8 + 60 + 16))
    #expect(try runner.run(["contact-sheet", "--since", "2025-10-02", "--columns", "2", "-o", "two.png"]).status == 0)
    #expect(dimensions(try bytes("two.png")) == (8 + 2 * 136, 8 + 170))

    // The filters are list's: --exact is the name itself, --glob matches the whole name.
    #expect(try runner.run(["contact-sheet", "--exact", "STROKES", "-o", "none.png"]).status == 1)
    let exact = try runner.run(["contact-sheet", "--exact", "Strokes", "-o", "exact.png"])
    #expect(exact.stdout == "exact.png  (1 draft, 144 × 178 px)\n", "\(exact.stderr)")
    #expect(try runner.run(["list", "--glob", "*o*", "--paths"]).stdout.split(separator: "\n").count == 2)
    let glob = try runner.run(["contact-sheet", "--glob", "*o*", "-o", "glob.png"])
    #expect(glob.stdout.hasPrefix("glob.png  (2 drafts, "), "\(glob.stderr)")

    let none = try runner.run(["contact-sheet", "--name", "zebra", "-o", "none.png"])
    #expect(none.status == 1)
    #expect(none.stderr == "Error: no drafts match; nothing written\n")
    let bad = try runner.run(["contact-sheet", "--size", "512", "-o", "big.png"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("Error: Invalid value '512' for '--size PX': expected 128 or 256.\n"))
  }

  func localTime(_ iso: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: ISO8601DateFormatter().date(from: iso)!)
  }
}
