// A folder of inputs an import must reject or skip, each for a reason a person can act on,
// plus two good files so that "the rest is done" can be checked. The archive's tests and
// demo use it (`inkling-corpus --bad DIR`).
//
// Invariants:
// 1. Every entry is at the folder's top level and named after what is wrong with it.
// 2. Some entries are traps for an importer that does not check file types before reading:
//    a FIFO blocks `open(O_RDONLY)`, and a symlink to `.` makes a naive recursive walk loop.

import Foundation
import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One entry of the bad-inputs folder.
public struct BadInput: Sendable {
  /// The entry's name as raw bytes (one is not UTF-8).
  public var nameBytes: [UInt8]
  /// The name for display (lossy where it is not UTF-8).
  public var displayName: String { String(decoding: nameBytes, as: UTF8.self) }
  /// What the entry is and what an importer should do with it.
  public var problem: String
  /// True for the entries an importer should import successfully.
  public var isGood: Bool
}

/// Writes the bad-inputs folder into `folder` (created; must be empty) and lists its entries.
///
/// - Throws: `CorpusError` when the folder is not empty or an entry cannot be made.
@discardableResult
public func writeBadInputs(to folder: URL) throws -> [BadInput] {
  let path = folder.path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  guard try FileManager.default.contentsOfDirectory(atPath: path).isEmpty else {
    throw CorpusError(description: "\(path): the folder is not empty; the bad inputs need an empty folder")
  }
  // A valid drawing and envelope to cut from.
  var spec = CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 7)
  spec.strokesPerVersion = 4...4
  var good: CorpusFile?
  generateCorpus(spec) { good = $0 }
  guard let good else { throw CorpusError(description: "no sample draft was generated") }
  let stampSeconds: Int64 = 1_759_673_000  // 2025-10-05T14:03:20Z
  let stamp = Stamp.utc(stampSeconds)
  let validJSON = String(decoding: good.contents, as: UTF8.self)
  let base64 = Data(good.drawingBytes).base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
  let white = "{\"r\":1,\"g\":1,\"b\":1,\"a\":1}"
  var random = SeededRandom(seed: 0xBAD)
  let noise = (0..<2048).map { _ in UInt8(truncatingIfNeeded: random.next()) }

  var entries: [BadInput] = []
  func file(_ name: String, _ contents: [UInt8], _ problem: String, good isGood: Bool = false) throws {
    try FileWriter.writeFile(contents, to: path + "/" + name, modified: stampSeconds * 1000)
    entries.append(BadInput(nameBytes: Array(name.utf8), problem: problem, isGood: isGood))
  }
  func json(_ name: String, _ text: String, _ problem: String) throws {
    try file("\(name)-\(stamp).inkling", Array(text.utf8), problem)
  }
  func fail(_ what: String) -> CorpusError {
    CorpusError(description: "\(path): cannot make \(what): \(String(cString: strerror(errno)))")
  }

  // MARK: Good files
  try file("Good-\(stamp).inkling", good.contents, "a valid draft: import it", good: true)
  let emptyDrawing: [UInt8] = [0x77, 0x72, 0x64, 0xF0, 1, 0, 8, 0]
  try file(
    "Blank canvas-\(stamp).inkling",
    Array("{\"drawingData\":\"\(Data(emptyDrawing).base64EncodedString())\",\"color\":\(white)}".utf8),
    "a valid envelope whose drawing is an empty PencilKit container: import it", good: true)

  // MARK: Bad content
  try file("Empty-\(stamp).inkling", [], "an empty file")
  try json("Truncated", String(validJSON.prefix(validJSON.count / 2)), "JSON cut off halfway")
  try json("Not JSON", "This is not a drawing.\n", "plain text, not JSON")
  try file(
    "PNG inside-\(stamp).inkling", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise.prefix(200),
    "binary data (a PNG header), not JSON")
  try json("JSON array", "[1, 2, 3]", "JSON, but an array rather than an object")
  try json("Missing drawing", "{\"color\":\(white)}", "the key drawingData is missing")
  try json("Missing color", "{\"drawingData\":\"\(base64)\"}", "the key color is missing")
  try json(
    "Mistyped drawing", "{\"drawingData\":42,\"color\":\(white)}", "drawingData is a number, not a base64 string")
  try json("Mistyped color", "{\"drawingData\":\"\(base64)\",\"color\":\"white\"}", "color is a string, not an object")
  try json(
    "Invalid base64", "{\"drawingData\":\"d3Jk8A!!not*base64\",\"color\":\(white)}", "drawingData is not valid base64")
  try json(
    "Non-numeric colour", "{\"drawingData\":\"\(base64)\",\"color\":{\"r\":\"1\",\"g\":1,\"b\":1,\"a\":1}}",
    "color.r is a string, not a number")
  try json(
    "Colour without alpha", "{\"drawingData\":\"\(base64)\",\"color\":{\"r\":1,\"g\":1,\"b\":1}}",
    "color has no a component")
  try json("Trailing garbage", validJSON + "}}", "text after the JSON object")
  try file(
    "Latin-1 text-\(stamp).inkling", Array("{\"drawingData\":\"\",\"color\":\(white)} ".utf8) + [0xE9], "not UTF-8 text"
  )
  try json(
    "Not PencilKit", "{\"drawingData\":\"\(Data(noise).base64EncodedString())\",\"color\":\(white)}",
    "a valid envelope whose drawing bytes are random, not PencilKit: keep as opaque or report, never crash")

  // MARK: Bad names and file types
  try file("notes.txt", Array("Shopping list\n".utf8), "not an .inkling file: skip it")
  try file(".DS_Store", noise.prefix(64).map { $0 }, "a hidden Finder file: skip it")
  try file("Cat-\(stamp).inkling.png", noise.prefix(64).map { $0 }, "ends in .png, not .inkling: skip it")

  let directory = "Folder-\(stamp).inkling"
  try FileManager.default.createDirectory(atPath: path + "/" + directory, withIntermediateDirectories: false)
  try FileWriter.setModificationTime(path + "/" + directory, milliseconds: stampSeconds * 1000)
  entries.append(
    BadInput(nameBytes: Array(directory.utf8), problem: "a directory named like a draft (empty)", isGood: false))

  let nonUTF8: [UInt8] = Array("Caf".utf8) + [0xE9] + Array("-\(stamp).inkling".utf8)  // Latin-1 é
  let fullName = Array(path.utf8) + [UInt8(ascii: "/")] + nonUTF8 + [0]
  let fd = fullName.withUnsafeBufferPointer { buffer in
    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
      open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    }
  }
  guard fd >= 0 else { throw fail("a file with a non-UTF-8 name") }
  _ = good.contents.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
  let time = timespec(tv_sec: Int(stampSeconds), tv_nsec: 0)
  _ = [time, time].withUnsafeBufferPointer { futimens(fd, $0.baseAddress) }
  close(fd)
  entries.append(
    BadInput(nameBytes: nonUTF8, problem: "a valid draft whose file name is not UTF-8 (Latin-1 é)", isGood: false))

  let unreadable = "Unreadable-\(stamp).inkling"
  try file(unreadable, good.contents, "permissions 000 (root can still read it)")
  guard chmod(path + "/" + unreadable, 0) == 0 else { throw fail("an unreadable file") }

  let fifo = "Pipe-\(stamp).inkling"
  guard mkfifo(path + "/" + fifo, 0o644) == 0 else { throw fail("a FIFO") }
  try FileWriter.setModificationTime(path + "/" + fifo, milliseconds: stampSeconds * 1000)
  entries.append(
    BadInput(nameBytes: Array(fifo.utf8), problem: "a FIFO: opening it for reading blocks; skip it", isGood: false))

  let links: [(String, String, String)] = [
    ("Dangling-\(stamp).inkling", "Gone-\(stamp).inkling", "a symlink to a file that does not exist"),
    ("Loop-\(stamp).inkling", "Loop-\(stamp).inkling", "a symlink to itself (ELOOP)"),
    ("loop", ".", "a symlink to its own folder: a recursive walk must not follow it forever"),
  ]
  for (name, target, problem) in links {
    guard symlink(target, path + "/" + name) == 0 else { throw fail("the symlink \(name)") }
    try FileWriter.setModificationTime(path + "/" + name, milliseconds: stampSeconds * 1000)
    entries.append(BadInput(nameBytes: Array(name.utf8), problem: problem, isGood: false))
  }
  return entries
}
