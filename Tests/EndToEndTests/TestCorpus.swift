import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

/// Drafts folders for the integrity tests: each draft's versions grow the way saves do
/// (every save keeps the earlier bytes and adds some), so deltas are exercised; the drawing
/// bytes are pseudo-random, which the archive keeps as opaque drawings.
struct TestCorpus {
  let root: String
  /// Every file written: path relative to `root` → its bytes.
  private(set) var files: [String: [UInt8]] = [:]
  private var drawings: [String: [UInt8]] = [:]
  private var saves: [String: Int] = [:]
  private var random: SeededRandom

  init(root: String, seed: UInt64) {
    self.root = root
    random = SeededRandom(seed: seed)
  }

  /// Writes the next save of `draft` into `folder` (relative to root); returns its relative path.
  @discardableResult
  mutating func save(_ draft: String, in folder: String = "", growth: Int = 600) throws -> String {
    let number = saves[draft, default: 0] + 1
    saves[draft] = number
    var drawing = drawings[draft] ?? ([0x77, 0x72, 0x64, 0xF0, 1, 0, 8, 0] + random.bytes(2_000))
    drawing += random.bytes(Int(random.next() % UInt64(growth)) + 50)
    drawings[draft] = drawing
    // One save a minute from 2025-01-01, per draft.
    let date = Date(timeIntervalSince1970: 1_735_689_600 + Double(number) * 60)
    let formatter = ISO8601DateFormatter()
    let name = "\(draft)-\(formatter.string(from: date)).inkling"
    let relative = folder.isEmpty ? name : folder + "/" + name
    let base64 = Data(drawing).base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
    let color = ["1", "0.5", "0.25", "1.0393", "-0.0123"][Int(random.next() % 5)]
    let text = #"{"drawingData":"\#(base64)","color":{"r":\#(color),"g":1,"b":1,"a":1}}"#
    try write(relative, Array(text.utf8))
    return relative
  }

  /// Writes a file as is.
  mutating func write(_ relative: String, _ bytes: [UInt8]) throws {
    let path = root + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    files[relative] = bytes
  }

  /// The file names of `draft`'s versions written so far, each with its bytes.
  func versions(of draft: String) -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for (relative, bytes) in files {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(draft + "-2") { result[name] = bytes }
    }
    return result
  }
}

extension TestCorpus {
  /// Restores every version of each of `names` with the binary, into `folder`/Restored/NAME,
  /// and returns how many files came back byte for byte; a failed restore, a missing or extra
  /// file and a file that differs are each an issue of the test.
  func restoredByteForByte(_ names: [String], runner: BinaryRunner, into folder: String) throws -> Int {
    var verified = 0
    for name in names {
      let target = folder + "/Restored/\(name)"
      let restored = try runner.run(["--quiet", "restore", name, "--all-versions", "--to", target])
      #expect(restored.status == 0, "\(restored.stderr)")
      let sources = versions(of: name)
      let written = filesUnder(target)
      #expect(written == sources.keys.sorted(), "\(name): leftovers or missing files")
      for file in written {
        let bytes = FileManager.default.contents(atPath: target + "/" + file).map { [UInt8]($0) }
        #expect(bytes == sources[file], "\(name): \(file) differs")
        if bytes == sources[file] { verified += 1 }
      }
    }
    return verified
  }
}
