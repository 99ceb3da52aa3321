// The `<name>-<stamp>.inkling` file name convention (docs/inkling-files.md, "File name"):
// the draft's name, then `-`, then `ISO8601DateFormatter().string(from: Date())`.
// The name may itself hold `-`, so the split is on the last `-` that a valid stamp follows.
// Files copied off a device bend the rule; each bend we accept is reported as a `Fallback`
// (docs/inkling-files.md, "What arrives instead"):
// a copy suffix Finder, Files or Windows added; the stamp's colons replaced by a file system
// that cannot store `:` (FAT and exFAT sticks, SMB shares, Windows: `_`, `-`, or a look-alike
// character); a sync tool's conflict copy (Syncthing, Dropbox, Nextcloud, OneDrive, Google
// Drive), each another save of the draft in NAME.

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
    /// The stamp's colons arrived as this character (a file system that cannot store `:`).
    case colonsReplaced(Character)
    /// A sync tool's copy of a save it found changed on two devices: the tool, and the text
    /// it added after the stamp.
    case syncConflict(tool: String, suffix: String)

    private static func hex(_ character: Character) -> String {
      let value = String(character.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true)
      return String(repeating: "0", count: max(0, 4 - value.count)) + value
    }

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
      case .colonsReplaced(let character):
        "the date's colons arrived as \"\(character)\" (U+\(Self.hex(character))), as a file system that cannot "
          + "store \":\" writes them"
      case .syncConflict(let tool, let suffix):
        "a \(tool) conflict copy (\"\(suffix.trimmingSpaces())\"): another version of the draft"
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

  /// Whether this is a name the app itself writes: no copy suffix a file manager added, no
  /// sync tool's conflict mark, no stand-in for the stamp's colons. When several files hold
  /// one version, this is the name the version keeps (restore, export and the web pages give
  /// the file back as the app named it).
  public var isAppsOwnName: Bool {
    !fallbacks.contains { fallback in
      switch fallback {
      case .copySuffix, .syncConflict, .colonsReplaced: true
      default: false
      }
    }
  }

  /// Reads a file name such as `Plan-B-2025-10-05T14:03:12Z.inkling`.
  /// Returns nil when the name does not end in `.inkling`.
  public init?(_ fileName: String) {
    guard let base = Self.stripExtension(fileName) else { return nil }
    fallbacks = []
    let scalars = Array(base.unicodeScalars)
    var found: (name: String, stamp: ISO8601Stamp, suffix: String)?
    // Try each `-` from the last backwards: the stamp itself holds two of them.
    for index in scalars.indices.reversed() where scalars[index] == "-" {
      let rest = Array(scalars[(index + 1)...])
      let colons = Self.colonStandIn(in: rest)
      let readable = colons.map { Self.restoringColons(rest, $0) } ?? rest
      guard let (stamp, length) = ISO8601Stamp.parsePrefix(String(String.UnicodeScalarView(readable))) else {
        continue
      }
      let suffix = String(String.UnicodeScalarView(rest.dropFirst(length)))
      let conflict = Self.syncConflictTool(suffix)
      guard suffix.isEmpty || conflict != nil || Self.isCopySuffix(suffix) else { continue }
      if let colons { fallbacks.append(.colonsReplaced(Character(colons))) }
      if let conflict { fallbacks.append(.syncConflict(tool: conflict, suffix: suffix)) }
      found = (String(String.UnicodeScalarView(scalars[..<index])), stamp, suffix)
      break
    }
    var name: String
    if let found {
      name = found.name
      savedMilliseconds = found.stamp.millisecondsSince1970
      if !found.suffix.isEmpty && !fallbacks.contains(where: { if case .syncConflict = $0 { true } else { false } }) {
        fallbacks.append(.copySuffix(found.suffix.trimmingSpaces()))
      }
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
  /// empty name `Untitled` (docs/inkling-files.md, "File name").
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

  // MARK: - Colons that did not survive the trip

  /// What file systems and tools write for a `:` they cannot store: `_` (Windows tools, many
  /// copy programs), `-`, U+F03A (the private-use character SMB and macOS map `:` to), U+A789
  /// (MODIFIER LETTER COLON) and U+FF1A (FULLWIDTH COLON).
  static let colonStandIns: Set<Unicode.Scalar> = ["_", "-", "\u{F03A}", "\u{A789}", "\u{FF1A}"]

  /// The stand-in both of a stamp's time colons are written as, when `text` starts with
  /// `dddd-dd-ddTdd?dd?dd` and `?` is one such character (the same one twice); else nil.
  static func colonStandIn(in text: [Unicode.Scalar]) -> Unicode.Scalar? {
    guard text.count >= 19, text[13] != ":", text[13] == text[16], colonStandIns.contains(text[13]) else { return nil }
    let digits: [Int] = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
    guard digits.allSatisfy({ ("0"..."9").contains(text[$0]) }), text[4] == "-", text[7] == "-", text[10] == "T"
    else { return nil }
    return text[13]
  }

  /// `text` with its two time separators written `:` again (each is one scalar, so the stamp's
  /// length in scalars is the same in both).
  static func restoringColons(_ text: [Unicode.Scalar], _ standIn: Unicode.Scalar) -> [Unicode.Scalar] {
    var restored = text
    restored[13] = ":"
    restored[16] = ":"
    // An offset written `+02_00` lost its colon the same way.
    if restored.count >= 25, restored[19] == "+" || restored[19] == "-", restored[22] == standIn { restored[22] = ":" }
    return restored
  }

  // MARK: - Sync conflicts

  /// The sync tool whose conflict copy `suffix` (what follows the stamp) marks, or nil:
  ///   - Syncthing: `.sync-conflict-20251001-140312-ABCDEF7`
  ///   - Dropbox: ` (Anna's conflicted copy 2025-10-01)`, also with ` (1)` inside
  ///   - Nextcloud and ownCloud: ` (conflicted copy 2025-10-01 140312)`
  ///   - Google Drive: `(1)`, right after the stamp
  ///   - OneDrive: `-LAPTOP`, the computer's name (at most 15 letters, digits, `-` or `_`)
  static func syncConflictTool(_ suffix: String) -> String? {
    let scalars = Array(suffix.unicodeScalars)
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
      isDigit(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
    }
    let syncthing = Array(".sync-conflict-".unicodeScalars)
    if scalars.count == syncthing.count + 23, scalars.starts(with: syncthing) {
      let rest = Array(scalars.dropFirst(syncthing.count))
      if rest[0..<8].allSatisfy(isDigit), rest[8] == "-", rest[9..<15].allSatisfy(isDigit), rest[15] == "-",
        rest[16...].allSatisfy(isAlphanumeric)
      {
        return "Syncthing"
      }
    }
    if suffix.hasPrefix(" ("), suffix.hasSuffix(")"), suffix.contains("conflicted copy") {
      return suffix.contains("'s conflicted copy") || suffix.contains("\u{2019}s conflicted copy")
        ? "Dropbox" : "Nextcloud"
    }
    if scalars.count >= 3, scalars.count <= 6, scalars.first == "(", scalars.last == ")",
      scalars.dropFirst().dropLast().allSatisfy(isDigit)
    {
      return "Google Drive"
    }
    if scalars.count >= 2, scalars.count <= 16, scalars.first == "-", isAlphanumeric(scalars[1]),
      scalars.dropFirst().allSatisfy({ isAlphanumeric($0) || $0 == "-" || $0 == "_" }),
      scalars.dropFirst().contains(where: { !isDigit($0) })
    {
      return "OneDrive"
    }
    return nil
  }

  // MARK: - Copies

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
