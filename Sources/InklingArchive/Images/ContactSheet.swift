// `contact-sheet`: the newest version of each draft as a thumbnail in a grid, in the order
// given (the command passes `list`'s order, newest first), each captioned with the draft's
// name and save time in the 5 × 8 BitmapFont.
//
// Layout, at thumbnail size S (128 or 256; captions at scale 1 or 2):
//
//   ┌ margin ─────────────────────────────┐
//   │ [S × S thumbnail, 1 px frame] gap … │   columns = ⌈√N⌉ unless given, fit to 16384 px
//   │ name (cut with …)                   │
//   │ yyyy-MM-dd HH:mm                    │
//   │ gap                                 │
//   └─────────────────────────────────────┘
//
// Thumbnails come from the cache; the missing ones are rendered on two threads and stored.

import Foundation
import InklingFormats
import InklingRendering
import InklingStore

/// The newest version of a draft, with what its thumbnail needs.
struct NewestVersion: Sendable {
  var name: String
  var number: Int
  var savedMilliseconds: Int64
  var blobID: Int64
  var background: RGBA
  /// drawing.status, nil when the drawing is not indexed.
  var status: Int?
  var contentHash: [UInt8]?
}

/// Where each part of a contact sheet goes.
struct ContactSheetLayout: Equatable {
  var count: Int
  var thumbnailSize: Int
  var columns: Int
  var fontScale: Int { thumbnailSize >= 256 ? 2 : 1 }
  var margin: Int { 8 * fontScale }
  var lineHeight: Int { (BitmapFont.glyphHeight + 3) * fontScale }
  var cellWidth: Int { thumbnailSize + margin }
  var cellHeight: Int { thumbnailSize + 4 * fontScale + 2 * lineHeight + margin }
  var rows: Int { (count + columns - 1) / columns }
  var width: Int { margin + columns * cellWidth }
  var height: Int { margin + rows * cellHeight }
  /// Caption characters that fit under a thumbnail.
  var captionGlyphs: Int { (thumbnailSize + fontScale) / (BitmapFont.advance * fontScale) }

  /// The top-left corner of thumbnail `index`.
  func origin(_ index: Int) -> (x: Int, y: Int) {
    (margin + (index % columns) * cellWidth, margin + (index / columns) * cellHeight)
  }

  init(count: Int, thumbnailSize: Int, columns: Int? = nil) {
    self.count = count
    self.thumbnailSize = thumbnailSize
    let fitting = max(
      1,
      (RenderGeometry.maxDimension - 8 * (thumbnailSize >= 256 ? 2 : 1))
        / (thumbnailSize + 8 * (thumbnailSize >= 256 ? 2 : 1)))
    let wanted = columns ?? Int(Double(count).squareRoot().rounded(.up))
    self.columns = max(1, min(wanted, count, fitting))
  }
}

extension Archive {
  /// One PNG with the thumbnail of the newest version of each of `drafts`, in that order,
  /// in a grid, each captioned with its name and save time (in `timeZone`).
  ///
  /// ```swift
  /// let png = try archive.contactSheet(drafts: archive.drafts().map(\.name))
  /// ```
  /// Names are drawn in a built-in ASCII bitmap font: accents are dropped ("Café" → "Cafe")
  /// and other characters outside ASCII are drawn as a box; long names are cut with "…".
  /// - Throws: `ArchiveError` of kind `.invalidRequest` when `size` is not 128 or 256 or
  ///   `columns` is below 1; `.failed` when `drafts` is empty, names no draft, or the sheet
  ///   would exceed 16384 pixels a side or 64 M pixels (choose fewer drafts).
  public func contactSheet(
    drafts names: [String], size: Int = 128, columns: Int? = nil, timeZone: TimeZone = .current
  ) throws(ArchiveError) -> [UInt8] {
    try contactSheet(drafts: names, size: size, columns: columns, timeZone: timeZone, cache: ThumbnailCache())
  }

  func contactSheet(
    drafts names: [String], size: Int, columns: Int?, timeZone: TimeZone, cache: ThumbnailCache
  ) throws(ArchiveError) -> [UInt8] {
    guard size == 128 || size == 256 else {
      throw .invalidArgument(.contactSheetSize(size))
    }
    if let columns, columns < 1 { throw .invalidArgument(.columns(columns)) }
    guard !names.isEmpty else { throw .noMatchingDrafts }
    let versions = try newestVersions(of: names)
    if versions.count < names.count {
      let found = Set(versions.map(\.name))
      if let missing = names.first(where: { !found.contains(DraftFileName.canonicalName($0)) }) {
        throw noSuchDraft(missing)
      }
    }
    let layout = ContactSheetLayout(count: versions.count, thumbnailSize: size, columns: columns)
    guard layout.width <= RenderGeometry.maxDimension, layout.height <= RenderGeometry.maxDimension,
      layout.width * layout.height <= RenderGeometry.maxPixels
    else {
      throw .tooManyDrafts(count: versions.count, thumbnailSize: size, maximumSide: RenderGeometry.maxDimension)
    }

    // The thumbnails: cached ones read, missing ones rendered in parallel and stored.
    let jobs = try versions.map { v throws(ArchiveError) in try thumbnailJob(v, size: size, cache: cache) }
    var pngs: [[UInt8]: [UInt8]] = [:]
    var missing: [ThumbnailJob] = []
    for job in jobs where pngs[job.key] == nil {
      if let png = try cachedThumbnail(job.key) {
        pngs[job.key] = png
      } else if !missing.contains(where: { $0.key == job.key }) {
        missing.append(job)
      }
    }
    let rendered = try renderThumbnails(missing, cache: cache, workers: 2)
    for (job, png) in zip(missing, rendered) { pngs[job.key] = png }
    storeThumbnails(Array(zip(missing, rendered)), cache: cache)

    // The sheet.
    var sheet = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
    for i in stride(from: 0, to: sheet.count, by: 4) {
      sheet[i] = 0xF4
      sheet[i + 1] = 0xF4
      sheet[i + 2] = 0xF4
      sheet[i + 3] = 0xFF
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    for (index, (version, job)) in zip(versions, jobs).enumerated() {
      let (x, y) = layout.origin(index)
      let image: RenderedImage
      do {
        image = try PNG.decode(pngs[job.key] ?? [])
      } catch {
        throw .unusableArchive(
          path: path, reason: .damaged(detail: "the cached thumbnail of \"\(version.name)\" does not decode (\(error))")
        )
      }
      Self.frame(x: x - 1, y: y - 1, side: size + 2, in: &sheet, width: layout.width)
      Self.blit(image, x: x, y: y, into: &sheet, width: layout.width)
      let captionY = y + size + 4 * layout.fontScale
      BitmapFont.draw(
        BitmapFont.glyphs(version.name, maxGlyphs: layout.captionGlyphs), x: x, y: captionY, scale: layout.fontScale,
        color: (0x20, 0x20, 0x20), into: &sheet, width: layout.width)
      let date = formatter.string(from: Date(timeIntervalSince1970: Double(version.savedMilliseconds) / 1000))
      BitmapFont.draw(
        BitmapFont.glyphs(date, maxGlyphs: layout.captionGlyphs), x: x, y: captionY + layout.lineHeight,
        scale: layout.fontScale, color: (0x70, 0x70, 0x70), into: &sheet, width: layout.width)
    }
    let newest = versions.map(\.savedMilliseconds).max() ?? 0
    let text = [
      Self.pngSoftware, ("Title", "Contact sheet of \(versions.count) draft\(versions.count == 1 ? "" : "s")"),
      ("Description", versions.map(\.name).joined(separator: "\n")),
      ("Creation Time", Self.iso8601(milliseconds: newest)),
    ]
    do {
      return try PNG.encode(RenderedImage(width: layout.width, height: layout.height, rgba: sheet), text: text)
    } catch {
      throw .imageEncoding(detail: "\(error)")
    }
  }

  /// The newest version of each draft in `names` (every draft when nil), in the order of
  /// `names` (else newest first); names that are not drafts are left out.
  func newestVersions(of names: [String]?) throws(ArchiveError) -> [NewestVersion] {
    let all = try storeCall {
      try database.fetchAll(
        """
        SELECT draft.name, draft.version_count, v.saved_ms, v.blob_id, v.background_r, v.background_g,
          v.background_b, v.background_a, d.status, d.content_hash
        FROM draft
        JOIN version v ON v.id = (SELECT id FROM version WHERE draft_id = draft.id ORDER BY saved_ms DESC, id DESC LIMIT 1)
        LEFT JOIN drawing d ON d.blob_id = v.blob_id
        WHERE draft.version_count > 0
        ORDER BY v.saved_ms DESC, draft.name
        """
      ) { row in
        NewestVersion(
          name: row.string(0), number: row.int(1), savedMilliseconds: row.int64(2), blobID: row.int64(3),
          background: RGBA(red: row.double(4), green: row.double(5), blue: row.double(6), alpha: row.double(7)),
          status: row.isNull(8) ? nil : row.int(8), contentHash: row.isNull(9) ? nil : row.bytes(9))
      }
    }
    guard let names else { return all }
    let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    return names.compactMap { byName[DraftFileName.canonicalName($0)] }
  }

  /// A 1-pixel grey frame around a square.
  private static func frame(x: Int, y: Int, side: Int, in sheet: inout [UInt8], width: Int) {
    let height = sheet.count / (width * 4)
    func plot(_ px: Int, _ py: Int) {
      guard px >= 0, py >= 0, px < width, py < height else { return }
      let i = (py * width + px) * 4
      sheet[i] = 0xC8
      sheet[i + 1] = 0xC8
      sheet[i + 2] = 0xC8
      sheet[i + 3] = 0xFF
    }
    for t in 0..<side {
      plot(x + t, y)
      plot(x + t, y + side - 1)
      plot(x, y + t)
      plot(x + side - 1, y + t)
    }
  }

  /// Copies `image` over the sheet, compositing a translucent thumbnail (a translucent
  /// background colour) over the sheet's grey.
  private static func blit(_ image: RenderedImage, x: Int, y: Int, into sheet: inout [UInt8], width: Int) {
    image.rgba.withUnsafeBufferPointer { source in
      sheet.withUnsafeMutableBufferPointer { target in
        for row in 0..<image.height {
          for column in 0..<image.width {
            let s = (row * image.width + column) * 4
            let t = ((y + row) * width + x + column) * 4
            let a = Int(source[s + 3])
            if a == 255 {
              target[t] = source[s]
              target[t + 1] = source[s + 1]
              target[t + 2] = source[s + 2]
            } else {
              for c in 0..<3 {
                target[t + c] = UInt8((Int(source[s + c]) * a + Int(target[t + c]) * (255 - a) + 127) / 255)
              }
            }
          }
        }
      }
    }
  }
}
