// Next to a version, what a user expects. Two versions side by side with the picture of what
// changed (the strokes `diff` counts: green where added, red where removed or erased, the rest
// faded); the command lines that restore it and revert to it, which run as shown in a shell
// whatever the draft is called; and every version of a draft in one zip that unpacks to what
// `restore --all-versions` writes, byte for byte.

import Foundation
import InklingArchive
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingServer

@Suite struct CompareAndDownloadTests {
  /// A draft called `name` saved twice: strokes 0 and 1 of a device drawing, then stroke 0 as
  /// it was, stroke 1 erased and stroke 2 added.
  static func twoSaves(_ served: ServedArchive, name: String) throws -> (DraftID, [VersionID]) {
    var full = try Drawing(bytes: try DeviceSamples.drawing("three-pen-strokes"))
    for index in full.strokes.indices {
      full.strokes[index].path?.varyingProperties.remove(.threshold)
      full.strokes[index].path?.constantProperties.remove(.threshold)
    }
    #expect(full.strokes.count == 3)
    var first = full
    first.strokes = Array(full.strokes.prefix(2))
    var second = full
    second.strokes[1].isHidden = true
    let folder = served.folder + "/two-saves"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (index, drawing) in [first, second].enumerated() {
      let base64 = Data(try DrawingWriter.write(drawing)).base64EncodedString()
      try #"{"drawingData":"\#(base64)","color":{"r":1,"g":1,"b":1,"a":1}}"#.write(
        toFile: folder + "/\(name)-2025-10-0\(index + 1)T12:00:00Z.inkling", atomically: true, encoding: .utf8)
    }
    let archive = try Archive(path: served.archivePath)
    _ = try archive.importFiles(at: [folder])
    let draft = try #require(try archive.drafts(matching: DraftQuery(name: name)).first { $0.name == name })
    return (draft.id, try archive.timeline(of: name).map(\.id))
  }

  @Test func twoVersionsSideBySideWithWhatChanged() throws {
    let served = try ServedArchive()
    let (draft, versions) = try Self.twoSaves(served, name: "Harbour")
    let page = try served.get("/draft?id=\(draft)&version=2")
    #expect(page.text.contains("href=\"/draft/compare?id=\(draft)&amp;from=1&amp;version=2\""))
    let compare = try served.get("/draft/compare?id=\(draft)&from=1&version=2")
    #expect(compare.status == 200)
    #expect(compare.text.contains("<span class=\"added\">+1 added</span>, <span class=\"removed\">1 erased</span>"))
    #expect(compare.text.contains("/versions/\(versions[0])/render.png"))
    #expect(compare.text.contains("/versions/\(versions[1])/render.png"))
    let source = try #require(
      Markup.attributes("src", in: compare.text).first { $0.contains("changes.png") }.map(Markup.unescape))
    #expect(source.hasPrefix("/versions/\(versions[1])/changes.png?from=\(versions[0])"))

    let picture = try served.get(source)
    #expect(picture.status == 200)
    #expect(picture.header("Content-Type") == "image/png")
    let image = try PNG.decode(picture.body)
    var green = 0
    var red = 0
    var dark = 0
    for pixel in stride(from: 0, to: image.rgba.count, by: 4) {
      let (r, g, b) = (Int(image.rgba[pixel]), Int(image.rgba[pixel + 1]), Int(image.rgba[pixel + 2]))
      if g > r + 80 && g > b + 40 { green += 1 }
      if r > g + 80 && r > b + 80 { red += 1 }
      if r + g + b < 200 { dark += 1 }
    }
    #expect(green > 100, "the added stroke in green")
    #expect(red > 100, "the erased stroke in red")
    // The stroke that did not change is faded: no pixel is as dark as the pen's ink.
    #expect(dark == 0)
    // The same picture is not drawn again for a client that has it.
    let tag = try #require(picture.header("ETag"))
    #expect(try served.get(source, headers: [("If-None-Match", tag)]).status == 304)

    // The pair asked for must be two versions of the draft.
    #expect(try served.get("/draft/compare?id=\(draft)&version=1").status == 400)
    #expect(try served.get("/draft/compare?id=\(draft)&from=2&version=2").status == 400)
    #expect(try served.get("/draft/compare?id=\(draft)&from=1&version=3").status == 404)
    #expect(try served.get("/versions/\(versions[1])/changes.png").status == 400)
  }

  /// The restore and revert lines of a version page, run in sh as the page shows them, do
  /// what they say and nothing else, for a name made to run code.
  @Test(arguments: ["Harbour", #"Q$(touch PWNED)'x\ `id` "q""#, "-rf \u{202E}gnp"])
  func theCommandsBesideAVersionRunAsShown(name: String) throws {
    let served = try ServedArchive()
    let (draft, versions) = try Self.twoSaves(served, name: name)
    let page = try served.get("/draft?id=\(draft)&version=1")
    let block = try #require(page.text.components(separatedBy: "aria-label=\"Command lines\"><code>").dropFirst().first)
    // What a reader copies: the text, without the isolates around each line.
    let code = try #require(block.components(separatedBy: "</code></pre>").first)
    let lines = Markup.unescape(code.replacingOccurrences(of: "</?bdi>", with: "", options: .regularExpression))
      .components(separatedBy: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.hasPrefix("inkling-archive --archive \(served.archivePath) ") })
    let work = try TemporaryFolder("commands")
    let binaries = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path
    let script = "cd \(Escape.shellWord(work.path)) && PATH=\(Escape.shellWord(binaries)):$PATH && \(lines[0])"
    let restored = try ChildProcess.run(["/bin/sh", "-c", script], timeout: 60)
    #expect(restored.status == 0, "\(restored.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: work.path)
    #expect(files.count == 1)
    let history = try served.archive().history(of: name)
    #expect(files.first == history[0].fileName)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: work.path + "/" + (files.first ?? ""))))
    #expect(bytes == (try served.archive().originalFile(of: versions[0]).bytes))
    #expect(!FileManager.default.fileExists(atPath: work.path + "/PWNED"))

    let reverted = try ChildProcess.run(
      ["/bin/sh", "-c", "PATH=\(Escape.shellWord(binaries)):$PATH && \(lines[1])"], timeout: 60)
    #expect(reverted.status == 0, "\(reverted.stderr)")
    let after = try served.archive().history(of: name)
    #expect(after.count == 3)
    #expect(after.last?.drawingSHA256 == history[0].drawingSHA256)
  }

  @Test func everyVersionInOneZip() throws {
    let served = try ServedArchive()
    let archive = try served.archive()
    let draft = try #require(try archive.drafts().first { $0.versionCount >= 3 })
    let page = try served.get("/draft?id=\(draft.id)")
    #expect(page.text.contains("<a class=\"download\" href=\"/draft/versions.zip?id=\(draft.id)\" download>"))
    let zip = try served.get("/draft/versions.zip?id=\(draft.id)")
    #expect(zip.status == 200)
    #expect(zip.header("Content-Type") == "application/zip")
    #expect(zip.header("Accept-Ranges") == "bytes")

    // What `restore --all-versions` writes, unpacked by Python's zipfile: bytes and times,
    // under names any system unpacks (`:` is `_`) that the manifest inside maps back.
    let work = try TemporaryFolder("zip")
    try Data(zip.body).write(to: URL(fileURLWithPath: work.path("versions.zip")))
    let restore = try Binary.run([
      "--archive", served.archivePath, "restore", "--all-versions", "--to", work.path("restored"), "--", draft.name,
    ])
    #expect(restore.status == 0, "\(restore.stderr)")
    let unzip = try ChildProcess.run(
      [
        "python3", "-c",
        """
        import sys, zipfile, os, calendar
        with zipfile.ZipFile(sys.argv[1]) as z:
            assert z.testzip() is None
            z.extractall(sys.argv[2])
            for info in z.infolist():
                path = os.path.join(sys.argv[2], info.filename)
                os.utime(path, (0, calendar.timegm(info.date_time)))
        """,
        work.path("versions.zip"), work.path("unzipped"),
      ], timeout: 60)
    #expect(unzip.status == 0, "\(unzip.stderr)")
    let restored = try FileManager.default.contentsOfDirectory(atPath: work.path("restored")).sorted()
    let unzipped = try FileManager.default.contentsOfDirectory(atPath: work.path("unzipped")).sorted()
    #expect(unzipped.count == draft.versionCount + 1)
    #expect(!unzipped.contains { $0.contains(":") }, "\(unzipped)")
    let manifest = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: work.path("unzipped/inkling-export.json"))))
        as? [String: Any])
    let files = try #require(manifest["files"] as? [[String: Any]])
    #expect(files.count == draft.versionCount)
    var originals: [String] = []
    for file in files {
      let name = try #require(file["file"] as? String)
      let original = (file["renamedFrom"] as? String) ?? name
      originals.append(original)
      let a = try FileManager.default.attributesOfItem(atPath: work.path("restored/" + original))
      let b = try FileManager.default.attributesOfItem(atPath: work.path("unzipped/" + name))
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: work.path("restored/" + original)))
          == Data(contentsOf: URL(fileURLWithPath: work.path("unzipped/" + name))), "\(name)")
      // The zip's MS-DOS time is in two-second steps.
      let restoredTime = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      let unzippedTime = (b[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -10
      #expect(abs(restoredTime.rounded(.down) - unzippedTime) <= 2, "\(name)")
    }
    #expect(originals.sorted() == restored)
  }

  @Test func aDraftTooLargeToZipIsRefusedWithASentence() throws {
    var limits = ServerLimits()
    limits.zipBytes = 1000
    let served = try ServedArchive(limits: limits)
    let draft = try #require(try served.archive().drafts().first)
    let refused = try served.get("/draft/versions.zip?id=\(draft.id)")
    #expect(refused.status == 403)
    #expect(refused.text.contains("more than this server puts in one zip file"))
  }
}

/// The version page offers the share image as PNG, SVG and PDF; each address answers with its
/// format, named after the version's file, and a second request for it is answered from the
/// tag alone.
@Suite struct PictureDownloadTests {
  @Test func theVersionPageOffersThePictureAsPNGSVGAndPDF() throws {
    let served = try ServedArchive()
    let (draft, versions) = try CompareAndDownloadTests.twoSaves(served, name: "Quay")
    let page = try served.get("/draft?id=\(draft)&version=2")
    for (format, type, start) in [
      ("png", "image/png", [0x89, 0x50, 0x4E, 0x47]), ("svg", "image/svg+xml", Array("<?xml".utf8)),
      ("pdf", "application/pdf", Array("%PDF-".utf8)),
    ] as [(String, String, [UInt8])] {
      let address = "/versions/\(versions[1])/render.\(format)?scale=2&amp;r="
      #expect(page.text.contains("href=\"\(address)"), "the page links the \(format)")
      #expect(page.text.contains("download=\"Quay-2025-10-02T12:00:00Z.\(format)\""))
      let response = try served.get("/versions/\(versions[1])/render.\(format)?scale=2")
      #expect(response.status == 200)
      #expect(response.header("Content-Type") == type)
      #expect(try response.decodedBody().starts(with: start), "\(format) starts as its format does")
      let tag = try #require(response.header("ETag"))
      let again = try served.get(
        "/versions/\(versions[1])/render.\(format)?scale=2", headers: [("If-None-Match", tag)])
      #expect(again.status == 304)
    }
    let svg = try served.get("/versions/\(versions[1])/render.svg?scale=2").decodedBody()
    #expect(String(decoding: svg, as: UTF8.self).components(separatedBy: "<g>").count - 1 == 2, "two visible strokes")
  }
}
