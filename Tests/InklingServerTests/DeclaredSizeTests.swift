// A version whose drawing declares a huge size (an archive merged from someone else: a tiny
// zstd frame that unpacks to 512 MiB, more than any file import accepts) is refused by
// `serve` before anything is decoded, for the whole file and for `Range: bytes=0-0`, and by
// every route that draws it or packs its file, quickly and with the server's memory bounded (its VmHWM, read from /proc while it runs); and a
// range of an ordinary file is cut from it as it is rebuilt, byte for byte the file's.

import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized) struct DeclaredSizeTests {
  static let declared = 512 << 20

  /// One zstd frame of `size` zero bytes, made of RLE blocks: 4 bytes a block of 128 KiB.
  static func zeroFrame(size: Int) -> [UInt8] {
    // Magic; a single-segment frame with a 4-byte content size (descriptor 0b1010_0000).
    var frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xA0]
    frame += withUnsafeBytes(of: UInt32(size).littleEndian, Array.init)
    let block = 128 << 10
    var left = size
    while left > 0 {
      let count = min(block, left)
      left -= count
      let header = UInt32(count) << 3 | 1 << 1 | (left == 0 ? 1 : 0)  // RLE block, last or not
      frame += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF), 0]
    }
    return frame
  }

  /// A peak resident memory of process `pid` so far, in bytes (VmHWM).
  static func peakMemory(_ pid: pid_t) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
    let kilobytes = try #require(line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) })
    return kilobytes * 1024
  }

  @Test func aHugeDeclaredDrawingIsRefusedQuicklyWithMemoryBounded() throws {
    let folder = try TemporaryFolder("declared")
    let archivePath = folder.path("archive.sqlite")
    _ = try writeCorpus(
      CorpusSpec(drafts: 2, versionsPerDraft: 1...1, seed: 6), to: URL(fileURLWithPath: folder.path("Drafts")))
    let archive = try Archive(path: archivePath)
    _ = try archive.importFiles(at: [folder.path("Drafts")])
    let names = try archive.drafts().map(\.name)
    let hostile = try archive.timeline(of: .name(names[0])).versions[0].id
    let ordinary = try archive.timeline(of: .name(names[1])).versions[0].id
    let ordinaryFile = try archive.originalFile(of: ordinary).bytes
    let hex = Self.zeroFrame(size: Self.declared).map { String(format: "%02x", $0) }.joined()
    let altered = try ChildProcess.run([
      "sqlite3", archivePath,
      "UPDATE blob SET encoding = 1, streams = 0, layout = 0, depth = 0, size = \(Self.declared), "
        + "data = x'\(hex)' WHERE id = (SELECT blob_id FROM version WHERE id = \(hostile.rawValue))",
    ])
    #expect(altered.status == 0, "\(altered.stderr)")

    let token = "declared-size-token"
    let bearer = ("Authorization", "Bearer \(token)")
    let child = try ChildProcess([Binary.path, "--archive", archivePath, "serve", "--port", "0", "--token", token])
    defer { if child.poll() == nil { _ = child.killNow() } }
    let deadline = Date().addingTimeInterval(30)
    while !child.stdout.contains("\n") && child.poll() == nil && Date() < deadline { usleep(20_000) }
    let url = try #require(URL(string: String(child.stdout.prefix { $0 != "\n" })))
    let port = try #require(url.port.flatMap { UInt16(exactly: $0) })
    let before = try Self.peakMemory(child.pid)

    for headers in [[("Range", "bytes=0-0")], [("Range", "bytes=0-0")], []] {
      let started = Date()
      let response = try HTTPClient.get(port, "/versions/\(hostile.rawValue)/file", headers: headers + [bearer])
      let seconds = Date().timeIntervalSince(started)
      #expect(response.status == 403, "\(headers): \(response.status) \(response.text.prefix(300))")
      #expect(response.text.contains("more than this server builds in memory"))
      #expect(seconds < 2, "\(headers): \(seconds) s")
    }
    // What draws the drawing, or packs the file, refuses it as quickly.
    let draft = try archive.timeline(of: .name(names[0])).id.rawValue
    for target in [
      "/versions/\(hostile.rawValue)/thumbnail.png", "/versions/\(hostile.rawValue)/render.png?scale=1",
      "/versions/\(hostile.rawValue)/changes.png?from=\(ordinary.rawValue)", "/draft/versions.zip?id=\(draft)",
      "/draft/timelapse.mp4?id=\(draft)",
    ] {
      let started = Date()
      let response = try HTTPClient.get(port, target, headers: [bearer])
      let seconds = Date().timeIntervalSince(started)
      #expect((400..<600).contains(response.status), "\(target): \(response.status)")
      #expect(seconds < 2, "\(target): \(seconds) s")
    }
    #expect(try HTTPClient.get(port, "/", headers: [bearer]).status == 200)
    let peak = try Self.peakMemory(child.pid)
    print("serve with a drawing declaring 512 MiB: VmHWM \(before >> 20) MiB at start, \(peak >> 20) MiB after")
    #expect(peak - before < 64 << 20, "VmHWM grew from \(before >> 20) to \(peak >> 20) MiB")

    // An ordinary file's range is its bytes, cut as it is rebuilt, and its whole is the file.
    let part = try HTTPClient.get(
      port, "/versions/\(ordinary.rawValue)/file", headers: [("Range", "bytes=10-29"), bearer])
    #expect(part.status == 206)
    #expect(part.body == Array(ordinaryFile[10...29]))
    #expect(part.header("Content-Range") == "bytes 10-29/\(ordinaryFile.count)")
    #expect(part.header("ETag") != nil)
    let whole = try HTTPClient.get(port, "/versions/\(ordinary.rawValue)/file", headers: [bearer])
    #expect(whole.status == 200)
    #expect(whole.body == ordinaryFile)
    let past = try HTTPClient.get(
      port, "/versions/\(ordinary.rawValue)/file", headers: [("Range", "bytes=\(ordinaryFile.count)-"), bearer])
    #expect(past.status == 416)
    kill(child.pid, SIGTERM)
    #expect(child.wait(timeout: 30).status == 0)
  }
}
