// The names of the files that restore and export write into one folder.
//
// Each version is written under its original file name, made safe (FolderNaming.safeName).
// Two versions may want the same name: two devices saved "Dup" in the same second with
// different drawings, or drafts whose names differ only in case or normalisation ("cat" and
// "Cat", "Café" typed and "Café" copied as NFD) meet in a folder on a file system that does
// not tell them apart (macOS, Windows, most USB sticks). So names are compared as such a file
// system compares them: NFC, then lowercased.
//
// The rule, deterministic and documented in the README: versions are named in the order they
// were archived (the order an archive can only extend); the first keeps its name, and each
// later one that would collide gets " (2)", " (3)", … before ".inkling", the smallest number
// whose name is still free. Importing such a file again reads " (2)" as a copy suffix, so it
// lands in the same draft with the same save time.
//
// The names given out are kept by a `TakenNames`: a set in memory for one draft's versions
// (restore), a table in the store's temporary database for an export of any size.

import InklingFormats
import InklingStore

/// The names a FolderNaming gave out, compared by `FolderNaming.key`.
protocol TakenNames: AnyObject {
  /// Records `key`; false when it was taken already.
  func take(_ key: String) throws(ArchiveError) -> Bool
}

/// Names given out, in memory: for folders of one draft's versions.
final class TakenNamesInMemory: TakenNames {
  private var keys: Set<String> = []
  func take(_ key: String) -> Bool { keys.insert(key).inserted }
}

/// Names given out, in a temporary table of the archive's connection: memory stays flat
/// however many files the folder gets.
final class TakenNamesInStore: TakenNames {
  private let keys: TemporaryKeySet
  private let path: String

  init(_ keys: TemporaryKeySet, archivePath: String) {
    self.keys = keys
    path = archivePath
  }

  func take(_ key: String) throws(ArchiveError) -> Bool {
    try storeCall(path: path) { try keys.insert(key) }
  }
}

/// Hands out distinct, safe file names for one folder.
struct FolderNaming {
  /// The most bytes a file name may have on Linux, macOS and Windows file systems.
  static let maximumNameBytes = 255

  private let taken: any TakenNames

  init(taken: any TakenNames = TakenNamesInMemory()) {
    self.taken = taken
  }

  /// A name for a file that wants to be called `wanted`, made safe (`safeName`) and distinct
  /// from every name given out before.
  func name(for wanted: String, fallback: @autoclosure () -> String) throws(ArchiveError) -> String {
    try distinct(Self.safeName(wanted, fallback: fallback()))
  }

  /// `safe`, a name `safeName` gave, or the first of its numbered names (`numbered`) that is
  /// distinct from every name given out before; it is given out now.
  func distinct(_ safe: String) throws(ArchiveError) -> String {
    var candidate = safe
    var number = 1
    while try !taken.take(Self.key(candidate)) {
      number += 1
      candidate = Self.numbered(safe, number)
    }
    return candidate
  }

  /// How case-insensitive, normalisation-insensitive file systems compare names.
  static func key(_ name: String) -> String {
    DraftFileName.canonicalName(name).lowercased()
  }

  /// `Dup-2025-10-10T10:00:00Z (2).inkling` for `Dup-2025-10-10T10:00:00Z.inkling`.
  static func numbered(_ name: String, _ number: Int) -> String {
    let suffix = " (\(number))"
    let (stem, ext) = split(name)
    return fit(stem, reserving: suffix + ext) + suffix + ext
  }

  /// A name that stays inside its folder: the last path component of `name`, with control
  /// characters replaced by `_`; names that mean something else (`.`, `..`, empty) become
  /// `fallback`; at most `maximumNameBytes` bytes, cut on a character boundary before the
  /// extension. `fallback` is asked for only when it is needed.
  static func safeName(_ name: String, fallback: @autoclosure () -> String) -> String {
    var cleaned = String(name.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    cleaned = String(
      String.UnicodeScalarView(cleaned.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "_" : $0 }))
    if cleaned.isEmpty || cleaned == "." || cleaned == ".." { cleaned = fallback() }
    guard cleaned.utf8.count > maximumNameBytes else { return cleaned }
    // A draft's file keeps its date and suffix, which tell its versions apart: its name is
    // what is cut (a draft may be called anything a file name up to 255 bytes holds, and
    // its renamed files add the date).
    if let parsed = DraftFileName(cleaned), parsed.tail.utf8.count < maximumNameBytes / 2 {
      let name = String(String.UnicodeScalarView(cleaned.unicodeScalars.dropLast(parsed.tail.unicodeScalars.count)))
      return fit(name, reserving: parsed.tail) + parsed.tail
    }
    let (stem, ext) = split(cleaned)
    return fit(stem, reserving: ext) + ext
  }

  /// The name and its `.inkling` (or `.png`) extension, if it has one of ours.
  private static func split(_ name: String) -> (stem: String, extension: String) {
    for ext in [".inkling", ".png"] where name.hasSuffix(ext) && name.utf8.count > ext.utf8.count {
      return (String(name.dropLast(ext.count)), ext)
    }
    return (name, "")
  }

  /// `stem` cut, on a character boundary, so that it and `reserved` fit in a name.
  private static func fit(_ stem: String, reserving reserved: String) -> String {
    let room = maximumNameBytes - reserved.utf8.count
    var cut = stem
    while cut.utf8.count > room { cut.removeLast() }
    return cut
  }
}
