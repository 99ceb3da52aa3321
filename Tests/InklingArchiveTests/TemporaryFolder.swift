import Foundation

/// A fresh folder under the system's temporary folder, removed when the value is released.
final class TemporaryFolder {
  let path: String

  init(_ label: String = "test") throws {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/inkling-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path inside the folder.
  func path(_ relative: String) -> String { path + "/" + relative }

  /// Writes a file (creating folders) and optionally sets its modification time.
  @discardableResult
  func write(_ relative: String, _ bytes: [UInt8], modified: Date? = nil) throws -> String {
    let file = path(relative)
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    if let modified {
      try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file)
    }
    return file
  }

  func read(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path(relative))))
  }
}

/// An `.inkling` file as the app's JSONEncoder writes it.
func inklingFile(drawing: [UInt8], color: (Double, Double, Double, Double) = (1, 1, 1, 1), escapeSlashes: Bool = true)
  -> [UInt8]
{
  struct DraftFile: Encodable {
    let drawingData: Data
    let color: RGBA
    struct RGBA: Encodable { let r: Double, g: Double, b: Double, a: Double }
  }
  let encoder = JSONEncoder()
  if !escapeSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
  let file = DraftFile(drawingData: Data(drawing), color: .init(r: color.0, g: color.1, b: color.2, a: color.3))
  return Array(try! encoder.encode(file))
}

/// Deterministic pseudo-random bytes (SplitMix64), so that tests need no fixtures on disk.
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
  var state = seed
  var bytes: [UInt8] = []
  bytes.reserveCapacity(count + 8)
  while bytes.count < count {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    withUnsafeBytes(of: z) { bytes.append(contentsOf: $0) }
  }
  return Array(bytes.prefix(count))
}
