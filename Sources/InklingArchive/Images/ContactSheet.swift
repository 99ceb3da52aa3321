// `contact-sheet`: the newest version of each draft as a thumbnail in a grid, in the order
// given (the command passes `list`'s order, newest first), each captioned with the draft's
// name and save time, drawn by InklingRendering's TextRenderer in Noto fonts (every script,
// colour emoji; a right-to-left name is aligned right).
//
// Layout, at thumbnail size S (128 or 256; s = 1 or 2):
//
//   ┌ margin 8s ──────────────────────────┐
//   │ [S × S thumbnail, 1 px frame] gap … │   columns = ⌈√N⌉ unless given, fit to 16384 px
//   │ 4s                                  │
//   │ name, 12s px, cut with … to S px    │   baseline 13s below the line's top, line 16s
//   │ yyyy-MM-dd HH:mm, 10s px            │   baseline 11s below, line 14s
//   │ margin 8s                           │
//   └─────────────────────────────────────┘
//
// Thumbnails come from the cache; the missing ones are rendered on two threads and stored.
//
// Memory: a sheet is drawn one row of cells at a time on a strip as wide as the sheet, each
// thumbnail read, decoded, drawn and dropped as its row is drawn, and the strip handed to
// libpng before the next row is begun (`PNGRowWriter`), so only the sheet's compressed bytes
// grow. A sheet holds at most `ContactSheetLayout.maximumPerSheet` thumbnails (a 24 × 24 grid
// of 128 px, 12 × 12 of 256 px: 13.4 M pixels, which viewers open at once); a larger
// selection is written as numbered sheets, one after another.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

/// One sheet written by `contactSheets`.
public struct ContactSheetFile: Sendable, Equatable {
  public var path: String
  /// How many drafts it shows.
  public var drafts: Int
  public var width: Int
  public var height: Int

  public init(path: String, drafts: Int, width: Int, height: Int) {
    self.path = path
    self.drafts = drafts
    self.width = width
    self.height = height
  }
}

/// Where each part of a contact sheet goes.
public struct ContactSheetLayout: Equatable, Sendable {
  var count: Int
  var thumbnailSize: Int
  var columns: Int
  var fontScale: Int { thumbnailSize >= 256 ? 2 : 1 }
  var margin: Int { 8 * fontScale }
  var nameSize: Double { 12 * Double(fontScale) }
  var dateSize: Double { 10 * Double(fontScale) }
  var cellWidth: Int { thumbnailSize + margin }
  var cellHeight: Int { thumbnailSize + 34 * fontScale + margin }
  var rows: Int { (count + columns - 1) / columns }
  var width: Int { margin + columns * cellWidth }
  var height: Int { margin + rows * cellHeight }

  /// The baselines of the name and the date under the thumbnail whose top is at `y`.
  func baselines(y: Int) -> (name: Int, date: Int) {
    let top = y + thumbnailSize + 4 * fontScale
    return (top + 13 * fontScale, top + 27 * fontScale)
  }

  /// The top-left corner of thumbnail `index`.
  func origin(_ index: Int) -> (x: Int, y: Int) {
    (margin + (index % columns) * cellWidth, margin + (index / columns) * cellHeight)
  }

  /// The most thumbnails one sheet holds at `thumbnailSize` (`columns` a row when given: as
  /// many rows as fit in `RenderGeometry.maxDimension` pixels).
  public static func maximumPerSheet(thumbnailSize: Int, columns: Int? = nil) -> Int {
    let grid = thumbnailSize >= 256 ? 144 : 576
    guard let columns else { return grid }
    let probe = ContactSheetLayout(count: 1, thumbnailSize: thumbnailSize, columns: 1)
    let rows = max(1, (RenderGeometry.maxDimension - probe.margin) / probe.cellHeight)
    let fitting = ContactSheetLayout(count: Int.max / 2, thumbnailSize: thumbnailSize, columns: columns).columns
    return max(1, min(grid, rows * fitting))
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
  /// One PNG with the thumbnail of the newest version of each draft of `selection`, in its
  /// order, in a grid, each captioned with its name and save time (in `timeZone`; nil: the
  /// system's local time, from $TZ or /etc/localtime).
  ///
  /// ```swift
  /// let png = try archive.contactSheet(drafts: .matching(DraftQuery(since: "7d")))
  /// ```
  /// Names are drawn in every script with the Noto fonts of `FontFallback.system`
  /// (Debian: fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji), cut with "…" where
  /// they are wider than a thumbnail. A character whose font is not installed is drawn from
  /// another font that has it, else as a box.
  /// - Throws: `ArchiveError.invalidArgument` when `size` is not 128 or 256 or `columns` is
  ///   below 1; `.noMatchingDrafts` when the selection is empty; `.noSuchDraft` for a name that
  ///   is no draft; `.tooManyDrafts` when they take more than one sheet (`contactSheets` writes
  ///   those); `.textRendering` when no font at all is installed to draw the captions with;
  ///   `.searchSyntax` for a query's unknown ink.
  public func contactSheet(
    drafts selection: DraftSelection, size: Int = 128, columns: Int? = nil, timeZone: TimeZone? = nil
  ) throws(ArchiveError) -> [UInt8] {
    try contactSheetPicture(drafts: selection, size: size, columns: columns, timeZone: timeZone).png
  }

  /// The contact sheet (`contactSheet`), how many drafts it shows, and the drafts whose
  /// newest drawing does not decode, shown by the placeholder thumbnails show, in the sheet's
  /// order.
  public func contactSheetPicture(
    drafts selection: DraftSelection, size: Int = 128, columns: Int? = nil, timeZone: TimeZone? = nil
  ) throws(ArchiveError) -> (png: [UInt8], drafts: Int, placeholders: [String]) {
    try checkSheetArguments(size: size, columns: columns)
    let selected = try selectedDrafts(selection, label: "sheet")
    let count = try storeCall { try selected.count() }
    let perSheet = ContactSheetLayout.maximumPerSheet(thumbnailSize: size, columns: columns)
    guard count <= perSheet else {
      throw .tooManyDrafts(count: count, thumbnailSize: size, perSheet: perSheet)
    }
    let versions = try sheetVersions(selected, 0..<count)
    let (png, placeholders) = try sheet(
      versions, size: size, columns: columns, text: try captionRenderer(), local: LocalTime(timeZone))
    return (png, versions.count, placeholders)
  }

  /// Writes the contact sheet of `selection` (`contactSheet`) at `path`; when its drafts take
  /// more than one sheet (`ContactSheetLayout.maximumPerSheet`), as numbered sheets beside it,
  /// in order: `sheet.png` becomes `sheet-1.png`, `sheet-2.png`, … The drafts are chosen
  /// first, into a temporary table; then each sheet's are read, drawn and written before the
  /// next is begun, so memory does not grow with the selection.
  ///
  /// - Throws: as `contactSheet`, less `.tooManyDrafts`; `.destinationExists` (before any sheet
  ///   is written) when a sheet's file exists and `overwrite` is false; `.destinationIsFolder`,
  ///   `.fileSystem`.
  public func contactSheets(
    drafts selection: DraftSelection, size: Int = 128, columns: Int? = nil, timeZone: TimeZone? = nil,
    to path: String, overwrite: Bool = false
  ) throws(ArchiveError) -> (sheets: [ContactSheetFile], placeholders: [String]) {
    try checkSheetArguments(size: size, columns: columns)
    let selected = try selectedDrafts(selection, label: "sheets")
    let perSheet = ContactSheetLayout.maximumPerSheet(thumbnailSize: size, columns: columns)
    let parts = Self.parts(of: try storeCall { try selected.count() }, by: perSheet)
    let paths = parts.count == 1 ? [path] : (1...parts.count).map { Self.numberedSheet(path, $0) }
    for sheetPath in paths { try FileOutput.checkWritable(sheetPath, overwrite: overwrite) }
    let text = try captionRenderer()
    let local = LocalTime(timeZone)
    var sheets: [ContactSheetFile] = []
    var placeholders: [String] = []
    for (part, sheetPath) in zip(parts, paths) {
      let versions = try sheetVersions(selected, part)
      let (png, missing) = try sheet(versions, size: size, columns: columns, text: text, local: local)
      try ImageFile.write(png, to: sheetPath, overwrite: overwrite)
      let (width, height) = PNG.size(of: png) ?? (0, 0)
      sheets.append(ContactSheetFile(path: sheetPath, drafts: versions.count, width: width, height: height))
      placeholders += missing
    }
    return (sheets, placeholders)
  }

  /// The newest versions of the selected drafts at `positions`, in order. A sheet of none
  /// (its drafts purged since they were chosen) is refused as an empty selection is.
  private func sheetVersions(_ selected: SelectedDrafts, _ positions: Range<Int>) throws(ArchiveError)
    -> ArraySlice<NewestVersion>
  {
    let versions = try storeCall { try selected.newestVersions(positions) }
    guard !versions.isEmpty else { throw .noMatchingDrafts }
    return versions[...]
  }

  /// `path` with `-number` before its extension: `a/sheet.png` is `a/sheet-2.png`.
  static func numberedSheet(_ path: String, _ number: Int) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    let folder = path.dropLast(name.count)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "-\(number)" }
    return folder + name[..<dot] + "-\(number)" + name[dot...]
  }

  private func checkSheetArguments(size: Int, columns: Int?) throws(ArchiveError) {
    guard size == 128 || size == 256 else {
      throw .invalidArgument(.contactSheetSize(size))
    }
    if let columns, columns < 1 { throw .invalidArgument(.columns(columns)) }
  }

  /// `0..<count` cut into ranges of `size` (the last shorter); one empty range when `count`
  /// is 0, so that an empty selection is refused as one sheet would be.
  static func parts(of count: Int, by size: Int) -> [Range<Int>] {
    guard count > 0 else { return [0..<0] }
    return stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
  }

  /// The captions' fonts, for a PNG sheet and a PDF portfolio alike.
  func captionRenderer() throws(ArchiveError) -> TextRenderer {
    do {
      return try TextRenderer()
    } catch {
      throw .textRendering(error)
    }
  }

  /// One sheet of `versions` as PNG, and the drafts shown as placeholders.
  private func sheet(
    _ versions: ArraySlice<NewestVersion>, size: Int, columns: Int?, text: TextRenderer, local: LocalTime
  ) throws(ArchiveError) -> (png: [UInt8], placeholders: [String]) {
    let layout = ContactSheetLayout(count: versions.count, thumbnailSize: size, columns: columns)
    guard layout.width <= RenderGeometry.maxDimension, layout.height <= RenderGeometry.maxDimension,
      layout.width * layout.height <= RenderGeometry.maxPixels
    else {
      throw .tooManyDrafts(
        count: versions.count, thumbnailSize: size,
        perSheet: ContactSheetLayout.maximumPerSheet(thumbnailSize: size, columns: columns))
    }

    let newest = versions.map(\.savedMilliseconds).max() ?? 0
    let chunks = [
      PictureRenderer.software, ("Title", "Contact sheet of \(versions.count) draft\(versions.count == 1 ? "" : "s")"),
      ("Description", versions.map(\.name).joined(separator: "\n")),
      ("Creation Time", Self.iso8601(milliseconds: newest)),
    ]
    let writer = try Self.encoding { () throws(PNGError) in
      try PNGRowWriter(width: layout.width, height: layout.height, text: chunks)
    }
    // One row of cells at a time on a strip of the sheet: a cell's height, the row's own
    // pixels, and below it the next row's top margin, which a caption's descent may reach
    // and which is carried up to the top of the next strip. Each thumbnail is decoded as its
    // cell is drawn, so the sheet costs one strip, whatever its size.
    let carried = layout.margin
    var strip = RenderedImage(
      width: layout.width, height: layout.cellHeight + carried,
      rgba: Self.paper(pixels: layout.width * (layout.cellHeight + carried)))
    var placeholders: [String] = []
    for row in 0..<layout.rows {
      let first = versions.startIndex + row * layout.columns
      let cells = versions[first..<min(versions.endIndex, first + layout.columns)]
      let thumbnails = try cells.map { v throws(ArchiveError) in try thumbnail(of: v, size: size) }
      let pngs = try thumbnailPNGs(thumbnails)
      for (column, (version, png)) in zip(cells, pngs).enumerated() {
        let (x, y) = layout.origin(row * layout.columns + column)
        try drawCell(
          version, png: png, x: x, y: y - row * layout.cellHeight, layout: layout, text: text, local: local,
          into: &strip)
      }
      placeholders += zip(cells, thumbnails).filter { $0.1.unreadable != nil }.map(\.0.name)
      try Self.encoding { () throws(PNGError) in try writer.write(strip, rows: layout.cellHeight) }
      Self.carry(rows: carried, in: &strip)
    }
    // The bottom margin.
    try Self.encoding { () throws(PNGError) in try writer.write(strip, rows: layout.height - writer.rowsWritten) }
    return (try Self.encoding { () throws(PNGError) in try writer.finish() }, placeholders)
  }

  /// `body`'s result, with a failure of the PNG encoder as `ArchiveError.imageEncoding`.
  private static func encoding<T>(_ body: () throws(PNGError) -> T) throws(ArchiveError) -> T {
    do {
      return try body()
    } catch {
      throw .imageEncoding(detail: "\(error)")
    }
  }

  /// The PNGs of `thumbnails`, in order: cached ones read, the missing ones rendered on two
  /// threads and stored.
  private func thumbnailPNGs(_ thumbnails: [Thumbnail]) throws(ArchiveError) -> [[UInt8]] {
    var pngs: [String: [UInt8]] = [:]
    var missing: [Thumbnail] = []
    for thumbnail in thumbnails where pngs[thumbnail.tag] == nil {
      if let png = try readThumbnail(thumbnail) {
        pngs[thumbnail.tag] = png
      } else {
        missing.append(thumbnail)
      }
    }
    for (thumbnail, png) in zip(missing, try renderThumbnails(missing, workers: 2)) { pngs[thumbnail.tag] = png }
    return thumbnails.map { pngs[$0.tag] ?? [] }
  }

  /// Draws `version`'s cell, its thumbnail `png` with its top-left corner at `x`, `y` of
  /// `strip`, framed, and its caption.
  private func drawCell(
    _ version: NewestVersion, png: [UInt8], x: Int, y: Int, layout: ContactSheetLayout, text: TextRenderer,
    local: LocalTime, into strip: inout RenderedImage
  ) throws(ArchiveError) {
    let size = layout.thumbnailSize
    let image: RenderedImage
    do {
      image = try PNG.decode(png)
    } catch {
      throw .unusableArchive(
        path: path,
        reason: .damaged(detail: "the cached thumbnail of \(Quoted.name(version.name)) does not decode (\(error))")
      )
    }
    guard image.width == size, image.height == size else {
      throw .unusableArchive(
        path: path,
        reason: .damaged(
          detail:
            "the thumbnail of \"\(version.name)\" is \(image.width) × \(image.height) pixels, not \(size) × \(size)"))
    }
    Self.frame(x: x - 1, y: y - 1, side: size + 2, in: &strip.rgba, width: strip.width)
    Self.blit(image, x: x, y: y, into: &strip.rgba, width: strip.width)
    let baselines = layout.baselines(y: y)
    let name = text.line(version.name, pixelSize: layout.nameSize, maxWidth: Double(size))
    text.draw(
      name, x: Double(x) + (name.isRightToLeft ? Double(size) - name.width : 0), baseline: Double(baselines.name),
      color: Self.nameInk, into: &strip)
    let date = local.civil(milliseconds: version.savedMilliseconds).text()
    text.draw(
      text.line(date, pixelSize: layout.dateSize, maxWidth: Double(size)), x: Double(x),
      baseline: Double(baselines.date), color: Self.dateInk, into: &strip)
  }

  /// Moves the last `rows` rows of `strip` to its top and paints the rest paper, for the
  /// strip of the next row of cells.
  private static func carry(rows: Int, in strip: inout RenderedImage) {
    let rowBytes = strip.width * 4
    let kept = rows * rowBytes
    let count = strip.rgba.count
    strip.rgba.withUnsafeMutableBufferPointer { pixels in
      guard let base = pixels.baseAddress, kept <= count else { return }
      base.update(from: base + (count - kept), count: kept)
    }
    let fresh = paper(pixels: (count - kept) / 4)
    strip.rgba.replaceSubrange(kept..<count, with: fresh)
  }

  private static let nameInk = RGBA(red: 0x20 / 255, green: 0x20 / 255, blue: 0x20 / 255, alpha: 1)
  private static let dateInk = RGBA(red: 0x70 / 255, green: 0x70 / 255, blue: 0x70 / 255, alpha: 1)

  /// `pixels` opaque light grey RGBA pixels.
  private static func paper(pixels: Int) -> [UInt8] {
    var rgba = [UInt8](repeating: 0xF4, count: pixels * 4)
    for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = 0xFF }
    return rgba
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
  /// background colour) over the sheet's grey. What falls outside the sheet is left out: the
  /// loops below index unchecked buffers, so their bounds are the one guard there is.
  private static func blit(_ image: RenderedImage, x: Int, y: Int, into sheet: inout [UInt8], width: Int) {
    let height = width > 0 ? sheet.count / (width * 4) : 0
    let rows = max(0, min(image.height, height - y))
    let columns = max(0, min(image.width, width - x))
    guard x >= 0, y >= 0, image.rgba.count >= image.width * image.height * 4 else { return }
    image.rgba.withUnsafeBufferPointer { source in
      sheet.withUnsafeMutableBufferPointer { target in
        for row in 0..<rows {
          for column in 0..<columns {
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
