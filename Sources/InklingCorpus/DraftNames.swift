// Draft names as people type them into Inkling's save field, and the name part of the file
// the app writes for them (docs/inkling-files.md, "File name").
//
// Invariants:
// 1. Every name in one corpus is a different draft once read back: names are unique after
//    Unicode NFC normalisation (the archive merges NFC and NFD spellings of one name).
// 2. `fileNamePart` is exactly what the app writes: every `/` replaced by `-`, an empty name
//    written `Untitled`; accented names are sometimes stored decomposed (NFD), as happens
//    when files travel through some file systems and sync tools.
// 3. `draftName` is what `DraftFileName` reports for the file: `fileNamePart` in NFC.

import Foundation

/// One draft's name: as typed, as written into file names, and as the archive reads it back.
public struct DraftName: Hashable, Sendable {
  /// What the person typed (may hold `/` or be empty).
  public var typed: String
  /// The `<name>` part of `<name>-<stamp>.inkling`.
  public var fileNamePart: String
  /// The name `DraftFileName` gives back: `fileNamePart` in NFC.
  public var draftName: String
}

enum DraftNames {
  // MARK: - Word lists

  static let subjects = [
    "Cat", "Dog", "Owl", "Fox", "Horse", "Whale", "House", "Tree", "Garden", "Bridge", "Harbour",
    "Lighthouse", "Robot", "Dragon", "Mountain", "River", "Hands", "Face", "Teapot", "Bicycle",
    "Castle", "Kitchen", "Skyline", "Forest", "Boat", "Shoes", "Chair", "Flowers", "Moon",
    "Grandma", "Market", "Train station", "Treehouse", "Sunflower", "Guitar", "Bird",
  ]
  static let kinds = [
    "sketch", "study", "doodle", "draft", "idea", "notes", "plan", "layout", "lettering",
    "thumbnails", "inking", "line art", "concept", "storyboard",
  ]
  static let topics = [
    "fractions", "photosynthesis", "the water cycle", "angles", "verbs", "World War I",
    "cell division", "Pythagoras", "map skills", "long division", "poetry", "volcanoes",
  ]
  static let accented = [
    "Café", "Café sketch", "naïve doodle", "Crème brûlée", "Señor Gato", "Über-Skizze",
    "Zürich trip", "Façade study", "Ærøskøbing harbour", "Piñata", "São Paulo skyline",
    "Résumé layout", "Fête de la musique", "Smörgåsbord", "Kraków market", "Dvořák notes",
  ]
  static let otherScripts = [
    "日本語のメモ", "猫のスケッチ", "Кошка", "Москва эскиз", "Ελληνικά γράμματα", "שלום",
    "مرحبا بالعالم", "한국어 노트", "🐱", "Cat 🐱", "🌸 spring", "中文笔记", "Ünïcödé 🎨",
    "Тест – черновик", "स्केच", "ラフ案 2", "😀😀😀",
  ]

  // MARK: - Generation

  /// `count` distinct draft names (invariant 1), deterministic for a generator state.
  static func generate(count: Int, random: inout SeededRandom) -> [DraftName] {
    var names: [DraftName] = []
    var seen: Set<String> = []
    var usedUntitled = false
    names.reserveCapacity(count)
    while names.count < count {
      var typed = typedName(&random)
      // Most people have one "Untitled" draft: make sure a corpus of some size has it.
      if count >= 10 && names.count == count / 2 && !usedUntitled { typed = "" }
      if typed.isEmpty {
        // Every unnamed save lands in the one draft "Untitled"; keep one such draft.
        if usedUntitled { continue }
        usedUntitled = true
      }
      let nfd = random.chance(0.35)
      var name = makeName(typed: typed, decomposed: nfd)
      let base = typed.isEmpty ? "Untitled" : typed
      var attempt = 2
      while seen.contains(name.draftName) {
        // A second "Cat sketch" becomes "Cat sketch 2", as people number their drafts.
        typed = "\(base) \(attempt)"
        name = makeName(typed: typed, decomposed: nfd)
        attempt += 1
      }
      seen.insert(name.draftName)
      names.append(name)
    }
    return names
  }

  /// The file-name part the app writes for a typed name (invariant 2).
  static func makeName(typed: String, decomposed: Bool) -> DraftName {
    var part = typed.replacingOccurrences(of: "/", with: "-")
    if part.isEmpty { part = "Untitled" }
    if decomposed { part = part.decomposedStringWithCanonicalMapping }
    return DraftName(typed: typed, fileNamePart: part, draftName: part.precomposedStringWithCanonicalMapping)
  }

  static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

  private static func typedName(_ r: inout SeededRandom) -> String {
    let subject = r.pick(subjects)
    let kind = r.pick(kinds)
    switch r.int(0...99) {
    case 0..<22: return "\(subject) \(kind)"
    case 22..<30: return "\(kind.prefix(1).uppercased())\(kind.dropFirst()) \(r.int(1...40))"
    case 30..<36: return "Portrait study \(r.int(1...25))"
    case 36..<42:
      return "Plan-\(r.pick(["A", "B", "C", "final", "v2"]))\(r.chance(0.3) ? "-\(subject.lowercased())" : "")"
    case 42..<48: return "Lesson \(r.int(1...30)) – \(r.pick(topics))"
    case 48..<52: return "Fractions \(r.int(1...3))/\(r.int(4...8))"  // typed `/` becomes `-`
    case 52..<56: return "Idea: \(subject.lowercased()) \(kind)"
    case 56..<59: return "Meeting \(r.int(8...17)):\(r.pick(["00", "15", "30", "45"]))"
    case 59..<62:
      return "\(r.int(2021...2025))-\(twoDigits(r.int(1...12)))-\(twoDigits(r.int(1...28))) \(kind)"
    case 62..<72: return r.pick(accented)
    case 72..<82: return r.pick(otherScripts)
    case 82..<85: return "\(subject) \(kind) v\(r.int(2...9))"
    case 85..<88: return "\(subject)-\(r.pick(subjects).lowercased()) mashup"
    case 88..<90: return "Room \(r.int(100...420))"
    case 90..<92: return "Wireframe – \(r.pick(["login", "settings", "home", "checkout"])) screen"
    case 92..<94: return "To-do \(r.pick(["Mon", "Tue", "Wed", "Thu", "Fri"]))"
    case 94..<96: return "\(subject)/\(r.pick(subjects)) comparison"
    case 96: return ""  // an empty name: the app saves it as Untitled
    case 97: return "\(subject)"
    default: return "\(subject) \(r.int(1...99))"
    }
  }
}
