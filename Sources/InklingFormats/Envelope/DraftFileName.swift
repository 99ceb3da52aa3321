// The `<name>-<stamp>.inkling` file name convention (../shared/docs/inkling-files.md):
// the draft's name, then `-`, then `ISO8601DateFormatter().string(from: Date())`.
// The name may itself hold `-`, so the split is on the last `-` that a valid stamp follows.
// Files copied off a device bend the rule; each bend we accept is reported as a `Fallback`.

import FoundationEssentials

/// What a file name says about the draft it belongs to.
public struct DraftFileName: Hashable, Sendable {
  /// A rule the name did not follow, and what was done instead.
  public enum Fallback: Hashable, Sendable, CustomStringConvertible {
    /// No date in the name: the caller uses the file's modification time.
    case noStamp
    /// A copy suffix such as ` 2`, ` (1)` or ` copy` after the stamp was dropped.
    case copySuffix(String)
    /// The stamp carried an offset other than `Z` and was converted to UTC.
    case offset(String)
    /// The stamp carried fractional seconds.
    case fractionalSeconds
    /// The name before the stamp was empty; the app calls such a draft `Untitled`.
    case emptyName
    /// A stamp whose date or time does not exist (`2025-02-30`, `25:00`), as written: the
    /// caller uses the file's modification time.
    case invalidStamp(String)
    /// The stamp's seconds were `60` (a leap second): read as the next minute's first second.
    case leapSecond

    public var description: String {
      switch self {
      case .noStamp: "no date in the file name; the file's modification time is used"
      case .copySuffix(let suffix): "copy suffix \"\(suffix)\" ignored"
      case .offset(let offset): "time offset \(offset) converted to UTC"
      case .fractionalSeconds: "fractional seconds in the date kept"
      case .emptyName: "no name before the date; the draft is called Untitled"
      case .invalidStamp(let stamp):
        "the date in the file name, \(stamp), does not exist; the file's modification time is used"
      case .leapSecond: "the date in the file name has a leap second (:60), read as the next minute's first second"
      }
    }
  }

  /// The draft's name in Unicode NFC, so that names that travelled as NFD are the same draft.
  public var draftName: String
  /// The save time in milliseconds since 1970 (UTC), when the name has a stamp.
  public var savedMilliseconds: Int64?
  public var fallbacks: [Fallback]
  /// What follows the draft's name in the file name, exactly as written: `-`, the stamp, any
  /// copy suffix and the extension (`-2025-10-05T14:03:12Z 2.inkling`), or for a name
  /// without a stamp its copy suffix and extension (` (1).inkling`).
  public var tail: String

  /// Reads a file name such as `Plan-B-2025-10-05T14:03:12Z.inkling`.
  /// Returns nil when the name does not end in `.inkling`.
  public init?(_ fileName: String) {
    guard let base = Self.stripExtension(fileName) else { return nil }
    fallbacks = []
    let scalars = Array(base.unicodeScalars)
    var found: (name: String, stamp: ISO8601Stamp, suffix: String)?
    // Try each `-` from the last backwards: the stamp itself holds two of them.
    for index in scalars.indices.reversed() where scalars[index] == "-" {
      let rest = String(String.UnicodeScalarView(scalars[(index + 1)...]))
      guard let (stamp, length) = ISO8601Stamp.parsePrefix(rest) else { continue }
      let suffix = String(rest.unicodeScalars.dropFirst(length))
      guard suffix.isEmpty || Self.isCopySuffix(suffix) else { continue }
      found = (String(String.UnicodeScalarView(scalars[..<index])), stamp, suffix)
      break
    }
    var name: String
    if let found {
      name = found.name
      savedMilliseconds = found.stamp.millisecondsSince1970
      if !found.suffix.isEmpty { fallbacks.append(.copySuffix(found.suffix.trimmingSpaces())) }
      if let offset = found.stamp.offset { fallbacks.append(.offset(offset)) }
      if found.stamp.hasFraction { fallbacks.append(.fractionalSeconds) }
      if found.stamp.isLeapSecond { fallbacks.append(.leapSecond) }
    } else if let bad = Self.invalidStamp(in: scalars) {
      name = bad.name
      savedMilliseconds = nil
      fallbacks.append(.invalidStamp(bad.stamp))
    } else {
      name = base
      savedMilliseconds = nil
      fallbacks.append(.noStamp)
      // `Cat (1).inkling`: a copy of a stampless file is the same draft. A bare number
      // (`Room 101`) is more likely part of the name here, so only the unmistakable forms.
      if let range = Self.copySuffixRange(in: name, allowBareNumbers: false) {
        fallbacks.append(.copySuffix(name[range].trimmingSpaces()))
        name.removeSubrange(range)
      }
    }
    // The name is a prefix of the file name, scalar for scalar.
    tail = String(String.UnicodeScalarView(fileName.unicodeScalars.dropFirst(name.unicodeScalars.count)))
    if name.isEmpty {
      name = "Untitled"
      fallbacks.append(.emptyName)
    }
    draftName = Self.canonicalName(name)
  }

  /// `Cat-2025-02-30T10:00:00Z`: the name and the stamp-shaped text after its last `-` that
  /// is followed by one, when that text is not a valid stamp (else nil).
  static func invalidStamp(in scalars: [Unicode.Scalar]) -> (name: String, stamp: String)? {
    for index in scalars.indices.reversed() where scalars[index] == "-" {
      let rest = String(String.UnicodeScalarView(scalars[(index + 1)...]))
      // Only a zone or fraction may follow: `Meeting-2025-02-30T10:00:00 notes` is a name.
      let zoneCharacters = Set("0123456789.:+-Z".unicodeScalars)
      guard ISO8601Stamp.looksLikeStamp(rest), rest.unicodeScalars.dropFirst(19).allSatisfy(zoneCharacters.contains)
      else { continue }
      return (String(String.UnicodeScalarView(scalars[..<index])), rest)
    }
    return nil
  }

  /// The file name the app would have given this save had the draft been called `name`:
  /// `name` as the app writes it into a file name (`safeName`), then this name's `tail`.
  public func renamed(to name: String) -> String {
    Self.safeName(name) + tail
  }

  /// A draft's name as the app writes it into a file name: every `/` replaced by `-`, an
  /// empty name `Untitled` (../shared/docs/inkling-files.md).
  public static func safeName(_ name: String) -> String {
    // Scalar by scalar, as Foundation's replacingOccurrences: a `/` followed by a combining
    // mark is one Character, which a Character-wise replacement would not see.
    name.isEmpty ? "Untitled" : String(String.UnicodeScalarView(name.unicodeScalars.map { $0 == "/" ? "-" : $0 }))
  }

  /// `name` as drafts are named in the archive: Unicode NFC, so that a name typed or stored
  /// decomposed (NFD, as macOS file systems hand them out) is the same draft.
  public static func canonicalName(_ name: String) -> String {
    UnicodeNFC.normalize(name)
  }

  /// The file name without `.inkling` (any letter case), or nil when it has another ending.
  static func stripExtension(_ fileName: String) -> String? {
    let suffix = ".inkling"
    guard fileName.utf8.count > suffix.utf8.count,
      fileName.lowercased().hasSuffix(suffix)
    else { return nil }
    return String(fileName.dropLast(suffix.count))
  }

  /// ` 2`, ` (1)`, ` copy`, ` copy 2`, `_1` — what Finder, Files, Windows and sync tools add.
  static func isCopySuffix(_ suffix: String) -> Bool {
    copySuffixRange(in: suffix, allowBareNumbers: true) == suffix.startIndex..<suffix.endIndex
  }

  static func copySuffixRange(in text: String, allowBareNumbers: Bool) -> Range<String.Index>? {
    // Matched by hand from the end: this runs for every file of an import.
    var end = text.endIndex
    func trailingDigits() -> Int {
      var count = 0
      while end > text.startIndex, count < 5, let digit = text[text.index(before: end)].asciiValue,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit)
      {
        end = text.index(before: end)
        count += 1
      }
      return count
    }
    func drop(_ literal: String) -> Bool {
      guard text[..<end].lowercased().hasSuffix(literal) else { return false }
      end = text.index(end, offsetBy: -literal.count)
      return true
    }
    if drop(")") {  // ` (1)`
      let digits = trailingDigits()
      return (1...4).contains(digits) && drop(" (") ? end..<text.endIndex : nil
    }
    let digits = trailingDigits()
    if digits == 0 {  // ` copy`
      return drop(" copy") ? end..<text.endIndex : nil
    }
    guard digits <= 4 else { return nil }
    let afterDigits = end
    if drop(" copy ") { return end..<text.endIndex }  // ` copy 2`
    end = afterDigits
    return allowBareNumbers && (drop(" ") || drop("_")) ? end..<text.endIndex : nil  // ` 2`, `_1`
  }
}
