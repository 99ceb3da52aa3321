// Writes a Drafts folder the way the Inkling app fills `Documents/Drafts/`: one file per
// save, named `<name>-<stamp>.inkling`, modified at its save time.
//
// Invariants:
// 1. The same `CorpusSpec` gives the same folder, byte for byte: file names, contents and
//    modification times. Each draft draws from its own forked random stream, so the drafts
//    before it do not change it.
// 2. Every file's name parses with `DraftFileName` to its draft's name (NFC) and, when it has
//    a stamp, to its save time; every file's content parses with `DraftEnvelope`.
// 3. No two files of a corpus share a name; no two drafts share a name after NFC.
// 4. With `layoutVariety` off, every file is exactly what the app writes (JSONEncoder,
//    `yyyy-MM-dd'T'HH:mm:ss'Z'` stamp); with it on, a small share of files bend the rules
//    the way files copied off a device do (no stamp, copy suffix, offset, fractional seconds)
//    and the JSON is spelled in other valid ways.

import Foundation
import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What corpus to generate.
public struct CorpusSpec: Hashable, Sendable {
  /// How many drafts (distinct names).
  public var drafts: Int
  /// How many saves each draft has, chosen uniformly per draft.
  public var versionsPerDraft: ClosedRange<Int>
  public var seed: UInt64
  /// Strokes added per save; nil lets each draft's style decide (notes: many short strokes,
  /// sketches, diagrams: few long ones), which gives realistic sizes.
  public var strokesPerVersion: ClosedRange<Int>?
  /// Adds the deviations of files copied off a device and other JSON spellings.
  public var layoutVariety: Bool
  /// Saves fall between these dates (seconds since 1970, UTC).
  public var firstDate: Int64
  public var lastDate: Int64

  public init(
    drafts: Int, versionsPerDraft: ClosedRange<Int> = 1...8, seed: UInt64 = 1,
    strokesPerVersion: ClosedRange<Int>? = nil, layoutVariety: Bool = false,
    firstDate: Int64 = 1_640_995_200,  // 2022-01-01
    lastDate: Int64 = 1_759_276_800  // 2025-10-01
  ) {
    self.drafts = drafts
    self.versionsPerDraft = versionsPerDraft
    self.seed = seed
    self.strokesPerVersion = strokesPerVersion
    self.layoutVariety = layoutVariety
    self.firstDate = firstDate
    self.lastDate = lastDate
  }
}

/// One generated file: where it goes, what it holds, and the save it came from.
public struct CorpusFile: Sendable {
  /// The draft's position in the corpus (0-based) and this file's position in its history.
  public var draftIndex: Int
  public var versionIndex: Int
  public var name: DraftName
  /// The file name (`<name>-<stamp>.inkling`, or a copied-off-device variant).
  public var fileName: String
  public var contents: [UInt8]
  /// The save time in milliseconds since 1970 (UTC), also the file's modification time.
  public var savedMilliseconds: Int64
  /// Whether the file name carries the stamp (false: the archive must use the mtime).
  public var hasStamp: Bool
  public var style: EnvelopeStyle
  /// The save: the drawing model, its serialised bytes and the background.
  public var save: DraftSave
  public var drawingBytes: [UInt8]
}

/// One draft of a written corpus.
public struct CorpusDraft: Sendable {
  /// One written file of the draft.
  public struct File: Hashable, Sendable {
    public var fileName: String
    /// The save time (ms since 1970, UTC), also the file's modification time.
    public var savedMilliseconds: Int64
    public var bytes: Int
  }

  public var name: DraftName
  /// The draft's files in save order, oldest first.
  public var files: [File]
}

/// What `writeCorpus` wrote.
public struct CorpusSummary: Sendable {
  public var drafts: [CorpusDraft]
  public var files: Int
  public var bytes: Int
  /// File sizes, smallest and largest.
  public var smallestFile: Int
  public var largestFile: Int
}

/// Why a corpus could not be written.
public struct CorpusError: Error, CustomStringConvertible, Sendable {
  public let description: String
}

/// Calls `body` with every file of the corpus `spec`, draft by draft, oldest save first,
/// without touching the disk (invariant 1: the same spec gives the same files).
public func generateCorpus(_ spec: CorpusSpec, _ body: (CorpusFile) throws -> Void) rethrows {
  var random = SeededRandom(seed: spec.seed)
  let names = DraftNames.generate(count: spec.drafts, random: &random)
  let root = random
  let span = max(1, spec.lastDate - spec.firstDate)
  for (draftIndex, name) in names.enumerated() {
    var r = root.fork(UInt64(draftIndex))
    let saves = r.int(spec.versionsPerDraft)
    // Start early enough that most histories end before `lastDate`.
    let firstSave = spec.firstDate + Int64(r.below(UInt64(max(1, span * 9 / 10))))
    var history = DraftHistory(
      random: r.fork(1), firstSave: firstSave, saves: saves, strokesPerSave: spec.strokesPerVersion)
    var layout = r.fork(2)
    let stamplessLast = spec.layoutVariety && saves > 1 && layout.chance(0.03)
    for versionIndex in 0..<saves {
      let save = history.nextSave()
      let drawingBytes = DrawingSerializer.bytes(of: save.drawing)
      var style = EnvelopeStyle.jsonEncoder
      var milliseconds = save.savedAt * 1000
      var fileName: String
      var hasStamp = true
      if spec.layoutVariety {
        style = layout.weighted([
          (.jsonEncoder, 82), (.prettyPrinted, 3), (.sortedKeys, 3), (.prettySorted, 2),
          (.withoutEscapingSlashes, 3), (.extraKeys, 3), (.longNumbers, 2), (.spaced, 2),
        ])
        if stamplessLast && versionIndex == saves - 1 {
          hasStamp = false
          fileName = name.fileNamePart + (layout.chance(0.3) ? " (1)" : "") + ".inkling"
        } else {
          switch layout.weighted([(0, 0.94), (1, 0.02), (2, 0.02), (3, 0.02)]) {
          case 1:
            let suffix = layout.pick([" 2", " (1)", " 3", " copy"])
            fileName = "\(name.fileNamePart)-\(Stamp.utc(save.savedAt))\(suffix).inkling"
          case 2:
            let offset = layout.pick([120, 60, -300, 330, 540, -420])
            fileName = "\(name.fileNamePart)-\(Stamp.withOffset(save.savedAt, minutes: offset)).inkling"
          case 3:
            let fraction = Int64(layout.int(1...999))
            milliseconds += fraction
            fileName = "\(name.fileNamePart)-\(Stamp.utc(save.savedAt, milliseconds: fraction)).inkling"
          default:
            fileName = "\(name.fileNamePart)-\(Stamp.utc(save.savedAt)).inkling"
          }
        }
      } else {
        fileName = "\(name.fileNamePart)-\(Stamp.utc(save.savedAt)).inkling"
      }
      let contents = EnvelopeWriter.write(
        drawing: drawingBytes, background: save.background, style: style, title: name.typed, random: &layout)
      try body(
        CorpusFile(
          draftIndex: draftIndex, versionIndex: versionIndex, name: name, fileName: fileName,
          contents: contents, savedMilliseconds: milliseconds, hasStamp: hasStamp, style: style, save: save,
          drawingBytes: drawingBytes))
    }
  }
}

/// Writes the corpus `spec` into `folder` (created if missing; it must be empty) and sets
/// each file's modification time to its save time.
///
/// - Throws: `CorpusError` when the folder is not empty or a file cannot be written.
@discardableResult
public func writeCorpus(_ spec: CorpusSpec, to folder: URL) throws -> CorpusSummary {
  let path = folder.path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  guard try FileManager.default.contentsOfDirectory(atPath: path).isEmpty else {
    throw CorpusError(description: "\(path): the folder is not empty; the corpus needs an empty folder")
  }
  var drafts: [CorpusDraft] = []
  var files = 0
  var bytes = 0
  var smallest = Int.max
  var largest = 0
  try generateCorpus(spec) { file in
    try FileWriter.writeFile(file.contents, to: path + "/" + file.fileName, modified: file.savedMilliseconds)
    if file.versionIndex == 0 { drafts.append(CorpusDraft(name: file.name, files: [])) }
    drafts[drafts.count - 1].files.append(
      CorpusDraft.File(fileName: file.fileName, savedMilliseconds: file.savedMilliseconds, bytes: file.contents.count))
    files += 1
    bytes += file.contents.count
    smallest = min(smallest, file.contents.count)
    largest = max(largest, file.contents.count)
  }
  return CorpusSummary(
    drafts: drafts, files: files, bytes: bytes, smallestFile: files == 0 ? 0 : smallest, largestFile: largest)
}

// MARK: - Stamps

/// `ISO8601DateFormatter` stamps, computed without a calendar object or time zone database.
enum Stamp {
  /// `yyyy-MM-dd'T'HH:mm:ss'Z'`, with `.SSS` before the `Z` when `milliseconds` is given.
  static func utc(_ seconds: Int64, milliseconds: Int64? = nil) -> String {
    var text = civil(seconds)
    if let milliseconds {
      let digits = String(milliseconds)
      text += "." + String(repeating: "0", count: 3 - digits.count) + digits
    }
    return text + "Z"
  }

  /// The same instant as local time at `minutes` east of UTC: `…T16:03:12+02:00`.
  static func withOffset(_ seconds: Int64, minutes: Int) -> String {
    let sign = minutes < 0 ? "-" : "+"
    let m = abs(minutes)
    return civil(seconds + Int64(minutes) * 60)
      + "\(sign)\(DraftNames.twoDigits(m / 60)):\(DraftNames.twoDigits(m % 60))"
  }

  /// `yyyy-MM-dd'T'HH:mm:ss` for seconds since 1970.
  static func civil(_ seconds: Int64) -> String {
    CivilDateTime(secondsSince1970: seconds).text(seconds: true, separator: "T")
  }
}

// MARK: - Files

enum FileWriter {
  /// Writes `bytes` to `path` (created, must not exist) and sets its access and modification
  /// times to `modified` (ms since 1970). POSIX calls keep the name's bytes exactly as given.
  static func writeFile(_ bytes: [UInt8], to path: String, modified milliseconds: Int64) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw CorpusError(description: "\(path): cannot create: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
      guard n > 0 else { throw CorpusError(description: "\(path): cannot write: \(String(cString: strerror(errno)))") }
      written += n
    }
    try setModificationTime(path, milliseconds: milliseconds)
  }

  static func setModificationTime(_ path: String, milliseconds: Int64) throws {
    let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    let nanoseconds = (milliseconds - seconds * 1000) * 1_000_000
    let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
    let times = [time, time]
    guard utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0 else {
      throw CorpusError(description: "\(path): cannot set the modification time: \(String(cString: strerror(errno)))")
    }
  }
}
