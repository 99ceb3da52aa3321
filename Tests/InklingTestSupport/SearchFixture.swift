// Generated archives for the search tests and the search benchmark: realistic draft names
// (words, numbers, accents, other scripts, emoji, one- and two-character names), versions
// spread over years, import runs, drawings with stroke counts and inks.
// Written through the store's own records (VersionRecords), so the schema's triggers run
// exactly as at import; an in-memory model of the same data serves as the reference.

import Foundation
import InklingCorpus
import InklingFormats
import InklingStore

/// A draft as the reference filter sees it.
package struct DraftModel {
  /// The draft's row id: drafts are numbered in the order they are made.
  package var id: Int
  package var name: String
  /// NameFolding.fold(name), computed once.
  package var folded: String
  package var versions: [(saved: Int64, imported: Int64)]
  package var latestSaved: Int64
  /// The newest version's drawing: visible strokes (nil when not indexed) and inks.
  package var strokes: Int?
  package var inks: Set<String>
  package var background: (Double, Double, Double)

  package init(
    id: Int, name: String, folded: String, versions: [(saved: Int64, imported: Int64)], latestSaved: Int64,
    strokes: Int?, inks: Set<String>, background: (Double, Double, Double)
  ) {
    self.id = id
    self.name = name
    self.folded = folded
    self.versions = versions
    self.latestSaved = latestSaved
    self.strokes = strokes
    self.inks = inks
    self.background = background
  }
}

package enum SearchFixture {
  package static let words = [
    "cat", "portrait", "study", "sketch", "plan", "Café", "étude", "landscape", "tree", "house", "mountain",
    "river", "figure", "hand", "face", "flower", "bird", "dog", "street", "city", "night", "morning", "garden",
    "boat", "sea", "sky", "cloud", "window", "chair", "Straße", "naïve", "Zoë", "Ångström", "crème brûlée",
    "piñata", "façade", "über", "Ørsted", "Łódź", "Plan-B", "draft", "idea", "notes", "storyboard", "logo",
    "map", "character", "robot", "dragon", "lesson", "class", "still life", "self portrait", "anatomy",
    "猫", "絵", "山", "花", "猫の絵", "スケッチ", "東京", "Этюд", "Кошка", "Москва", "Ελλάδα", "Σκίτσο",
    "한국어", "그림", "עברית", "رسم", "चित्र", "🐱", "🌸", "🎨",
  ]
  package static let shortNames = ["a", "B2", "猫", "x", "é", "7", "Zz", "山田"]
  package static let inks = ["pen", "pencil", "marker", "monoline", "fountainpen", "watercolor", "crayon"]
  package static let backgrounds: [(Double, Double, Double)] = [
    (1, 1, 1), (1, 1, 1), (0.98, 0.96, 0.88), (26.0 / 255, 26.0 / 255, 31.0 / 255), (0, 0, 0), (1.0393, -0.0123, 0.5),
  ]

  /// 2021-01-01T00:00:00Z, the earliest save.
  package static let start: Int64 = 1_609_459_200_000

  /// A random draft name; `unique` keeps names distinct.
  package static func name(_ random: inout SeededRandom, unique: inout Set<String>) -> String {
    var name: String
    if Int.random(in: 0..<100, using: &random) < 2 {
      name = shortNames.randomElement(using: &random)!
    } else {
      let count = Int.random(in: 1...3, using: &random)
      var parts = (0..<count).map { _ in words.randomElement(using: &random)! }
      switch Int.random(in: 0..<10, using: &random) {
      case 0: parts[0] = parts[0].uppercased()
      case 1, 2: parts[0] = parts[0].prefix(1).uppercased() + parts[0].dropFirst()
      default: break
      }
      if Bool.random(using: &random) { parts.append(String(Int.random(in: 1...999, using: &random))) }
      name = parts.joined(separator: [" ", " ", "-", "_"].randomElement(using: &random)!)
    }
    // Stored as import stores a name, in NFC, whatever form its file name had (a Mac's NFD,
    // say): `name:=` compares the NFC text. Queries try the other forms (SearchTests).
    name = DraftFileName.canonicalName(name)
    var candidate = name
    var suffix = 2
    while !unique.insert(candidate).inserted {
      candidate = "\(name) \(suffix)"
      suffix += 1
    }
    return candidate
  }

  /// Fills `db` with `draftCount` drafts; returns their models when `keepModels`, else only names.
  @discardableResult
  package static func build(
    in db: Database, drafts draftCount: Int, versions: ClosedRange<Int>, blobs blobCount: Int, now: Int64, seed: UInt64,
    keepModels: Bool = true, batch: Int = 5_000, progress: ((Int) -> Void)? = nil
  ) throws -> (models: [DraftModel], names: [String]) {
    var random = SeededRandom(seed: seed)
    // Drawings shared by the versions: stroke counts and inks; every tenth not indexed.
    var drawings: [(strokes: Int?, inks: Set<String>)] = []
    let envelopeID: Int64 = try db.transaction {
      for index in 0..<blobCount {
        let sha = Array(SHA256.hash(Array("blob \(seed) \(index)".utf8)))
        try db.execute(
          "INSERT INTO blob(sha256, size, encoding, depth, data) VALUES (?, 1, 0, 0, x'00')", [sha])
        let blobID = db.lastInsertRowID
        precondition(blobID == Int64(index + 1), "a fresh archive numbers blobs from 1")
        guard index % 10 != 9 else {
          drawings.append((nil, []))
          continue
        }
        let total = Int.random(in: 0...400, using: &random)
        let hidden = Int.random(in: 0...(total / 5), using: &random)
        try db.execute(
          "INSERT INTO drawing(blob_id, status, stroke_count, hidden_count) VALUES (?, 0, ?, ?)",
          [blobID, total, hidden])
        var inks: Set<String> = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let ink = Self.inks.randomElement(using: &random)!
          try db.execute(
            "INSERT OR IGNORE INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, ?, 1)", [blobID, ink])
          inks.insert(ink)
        }
        drawings.append((total - hidden, inks))
      }
      try db.execute(
        "INSERT INTO envelope(sha256, text, drawing_offset, base64_style) VALUES (?, x'7b7d', 1, 0)",
        [Array(SHA256.hash(Array("envelope \(seed)".utf8)))])
      return db.lastInsertRowID
    }
    // Import runs every 40 days, the last one two hours ago.
    let runs = stride(from: start + 40 * 86_400_000, to: now, by: 40 * 86_400_000).map { $0 } + [now - 7_200_000]
    func importTime(_ saved: Int64) -> Int64 { runs.first { $0 >= saved } ?? now - 7_200_000 }

    var models: [DraftModel] = []
    var names: [String] = []
    var unique: Set<String> = []
    var made = 0
    while made < draftCount {
      try db.transaction {
        for _ in 0..<min(batch, draftCount - made) {
          let name = Self.name(&random, unique: &unique)
          // A draft lives from its first save for a few hours to a few months.
          let first = Int64.random(in: start..<(now - 3_600_000), using: &random)
          let count = Int.random(in: versions, using: &random)
          var saved = first
          var times: [(Int64, Int64)] = []
          let (draftID, _, _) = try VersionRecords.draftID(named: name, createdMilliseconds: now, in: db)
          var latestBlob = 0
          var background = backgrounds[0]
          for index in 0..<count {
            if index > 0 {
              let gap = Int64.random(
                in: 60_000...(Int.random(in: 0..<4, using: &random) == 0 ? 90 * 86_400_000 : 86_400_000), using: &random
              )
              saved = min(saved + gap, now - 60_000)
            }
            let blob = Int.random(in: 0..<blobCount, using: &random)
            let colour = backgrounds.randomElement(using: &random)!
            let imported = importTime(saved)
            let version = NewVersion(
              draftID: draftID, savedMilliseconds: saved, savedSource: .fileName, importedMilliseconds: imported,
              fileName: "\(name)-\(saved).inkling", fileSHA256: Array(SHA256.hash(Array("\(draftID) \(index)".utf8))),
              fileSize: 100, fileModificationNanoseconds: saved * 1_000_000, blobID: Int64(blob + 1),
              envelopeID: envelopeID, background: RGBA(red: colour.0, green: colour.1, blue: colour.2, alpha: 1))
            guard try VersionRecords.insert(version, in: db) != nil else { continue }
            times.append((saved, imported))
            // Ties on the save time go to the later insert (VersionRecords).
            if saved >= (times.dropLast().map(\.0).max() ?? .min) {
              latestBlob = blob
              background = colour
            }
          }
          if keepModels {
            models.append(
              DraftModel(
                id: made + 1, name: name, folded: NameFolding.fold(name),
                versions: times.map { (saved: $0.0, imported: $0.1) },
                latestSaved: times.map(\.0).max()!, strokes: drawings[latestBlob].strokes,
                inks: drawings[latestBlob].inks, background: background))
          }
          names.append(name)
          made += 1
        }
      }
      progress?(made)
    }
    return (models, names)
  }
}
