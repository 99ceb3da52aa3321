// `contact-sheet -o FILE.pdf`: a printable portfolio. The newest version of each draft, in the
// order given (the command passes `list`'s), drawn as vectors (the `VectorPicture` that
// `render -o FILE.pdf` writes) scaled into a grid of cells, pages of paper one after another,
// each drawing captioned with its name and save time in the PNG sheet's fonts and shaping
// (real text, fonts embedded), each page numbered.
//
// Layout, in points (1/72 inch), on a page of W × H:
//
//   ┌ margin 36 ─────────────────────────────────┐
//   │ [drawing fitted in its box, centred] gap 12 │   columns: 4 unless given
//   │ 4                                           │   box: cell width − 12 × cell height − 35
//   │ name, 9 pt, cut with … to the box's width   │   baseline 9 below the box
//   │ yyyy-MM-dd HH:mm, 7.5 pt                    │   baseline 19 below the box
//   │ … rows: as many cells of at least           │   the rows share the height equally
//   │     (box width + 35) as fit                 │
//   │              Page n of N, 8 pt             │   baseline 22 above the page's bottom
//   └─────────────────────────────────────────────┘
//
// Each drawing is outlined at the scale its box prints it at (600 dots an inch there): a page
// of sixteen drawings outlined at their own size would be most of its time spent writing and
// compressing points no printer can place.
//
// Memory: the drafts are chosen into a temporary table (DraftSelection.swift), each page's
// read as it is begun, one drawing decoded and outlined at a time, and cairo writes each page
// into the file as it ends, so a portfolio of a whole archive costs what one page costs.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

#if canImport(Glibc)
  import Glibc
#endif

/// The paper a portfolio is printed on.
public enum Paper: String, Sendable, CaseIterable {
  /// ISO A4, 210 × 297 mm.
  case a4
  /// US Letter, 8.5 × 11 in.
  case letter
  /// ISO A3, 297 × 420 mm.
  case a3

  /// The page's width and height in points, portrait.
  public var points: (width: Double, height: Double) {
    switch self {
    case .a4: (595.276, 841.89)
    case .letter: (612, 792)
    case .a3: (841.89, 1190.551)
    }
  }
}

/// Where each part of a portfolio's page goes.
public struct PortfolioLayout: Equatable, Sendable {
  public var paper: Paper
  public var columns: Int
  public static let defaultColumns = 4
  /// The most columns a page takes: more would leave no room for a drawing.
  public static let maximumColumns = 12
  static let margin = 36.0
  static let gap = 12.0
  static let caption = 35.0
  static let footer = 14.0
  static let nameSize = 9.0
  static let dateSize = 7.5
  static let pageNumberSize = 8.0

  public init(paper: Paper = .a4, columns: Int? = nil) {
    self.paper = paper
    self.columns = min(max(1, columns ?? Self.defaultColumns), Self.maximumColumns)
  }

  var cellWidth: Double { (paper.points.width - 2 * Self.margin) / Double(columns) }
  private var usableHeight: Double { paper.points.height - 2 * Self.margin - Self.footer }

  /// Rows on a page: as many as fit with a box at least as tall as it is wide.
  public var rows: Int {
    max(1, Int((usableHeight / (cellWidth - Self.gap + Self.caption)).rounded(.down)))
  }

  public var drawingsPerPage: Int { rows * columns }

  /// The pages `count` drawings take.
  public func pages(for count: Int) -> Int { max(1, (count + drawingsPerPage - 1) / drawingsPerPage) }

  var cellHeight: Double { usableHeight / Double(rows) }

  /// The box drawing `index` of a page is fitted into.
  func box(_ index: Int) -> (x: Double, y: Double, width: Double, height: Double) {
    let column = index % columns
    let row = index / columns
    return (
      Self.margin + Double(column) * cellWidth + Self.gap / 2, Self.margin + Double(row) * cellHeight,
      cellWidth - Self.gap, cellHeight - Self.caption
    )
  }
}

/// What `portfolio` wrote.
public struct PortfolioSummary: Sendable, Equatable {
  public var drafts: Int
  public var pages: Int
  public var paper: Paper
  /// The drafts whose newest drawing does not decode, drawn as the placeholder, in order.
  public var placeholders: [String]
}

extension Archive {
  /// Writes a PDF at `path` with the newest version of each draft of `selection`, in its
  /// order, as vectors in a grid on pages of `paper` (`PortfolioLayout`), each captioned with
  /// its name and save time (in `timeZone`; nil: the system's local time), each page numbered.
  ///
  /// ```swift
  /// let summary = try archive.portfolio(drafts: .matching(.all), to: "all.pdf")
  /// ```
  /// The drafts are chosen first, into a temporary table; then each page's are read and
  /// drawn as the page is, so memory does not grow with the selection.
  /// A drawing that does not decode is drawn as the placeholder thumbnails show and listed in
  /// `PortfolioSummary.placeholders`.
  /// - Throws: `ArchiveError.invalidArgument(.portfolioColumns)` when `columns` is below 1 or above
  ///   `PortfolioLayout.maximumColumns`; `.noMatchingDrafts` when the selection is empty;
  ///   `.noSuchDraft`; `.searchSyntax` for a query's unknown ink; `.destinationExists` unless
  ///   `overwrite`; `.destinationIsFolder`; `.textRendering` when no font is installed;
  ///   `.imageEncoding` when cairo fails; `.fileSystem`.
  public func portfolio(
    drafts selection: DraftSelection, paper: Paper = .a4, columns: Int? = nil, timeZone: TimeZone? = nil,
    to path: String, overwrite: Bool = false
  ) throws(ArchiveError) -> PortfolioSummary {
    let (selected, layout, text) = try portfolioPlan(selection, paper: paper, columns: columns)
    let temporary = try FileOutput.temporaryFile(for: path, overwrite: overwrite)
    defer { unlink(temporary) }
    let summary = try writePortfolio(selected, layout: layout, text: text, timeZone: timeZone, to: temporary)
    try FileOutput.place(temporary, at: path, overwrite: overwrite)
    return summary
  }

  /// The portfolio (`portfolio(drafts:…to:)`) as bytes, for a caller that sends it on rather
  /// than writing a file (`contact-sheet -o -`). It is made in a temporary file in `$TMPDIR`.
  ///
  /// - Throws: as `portfolio(drafts:…to:)`, less the destination's errors.
  public func portfolioPDF(
    drafts selection: DraftSelection, paper: Paper = .a4, columns: Int? = nil, timeZone: TimeZone? = nil
  ) throws(ArchiveError) -> (pdf: [UInt8], summary: PortfolioSummary) {
    let (selected, layout, text) = try portfolioPlan(selection, paper: paper, columns: columns)
    let temporary = try FileOutput.temporaryFile(for: nil, overwrite: true)
    defer { unlink(temporary) }
    let summary = try writePortfolio(selected, layout: layout, text: text, timeZone: timeZone, to: temporary)
    return (try FileOutput.contents(of: temporary), summary)
  }

  /// The checked arguments: the drafts to draw, the layout and the captions' fonts.
  private func portfolioPlan(_ selection: DraftSelection, paper: Paper, columns: Int?) throws(ArchiveError) -> (
    SelectedDrafts, PortfolioLayout, TextRenderer
  ) {
    if let columns, columns < 1 || columns > PortfolioLayout.maximumColumns {
      throw .invalidArgument(.portfolioColumns(columns))
    }
    return (
      try selectedDrafts(selection, label: "portfolio"), PortfolioLayout(paper: paper, columns: columns),
      try captionRenderer()
    )
  }

  /// Draws the pages into a PDF at `path`, each page's drafts read as it is begun, one
  /// drawing decoded at a time.
  private func writePortfolio(
    _ selected: SelectedDrafts, layout: PortfolioLayout, text: TextRenderer, timeZone: TimeZone?, to path: String
  ) throws(ArchiveError) -> PortfolioSummary {
    let (count, latest) = try storeCall { (try selected.count(), try selected.latestSave()) }
    let pdf: PagedPDF
    do {
      // Dated by its newest drawing's save, as a version's PDF is by its own: the same selection
      // gives the same bytes, so a portfolio made again is seen to be unchanged.
      pdf = try PagedPDF(
        path: path, title: "Portfolio of \(count) draft\(count == 1 ? "" : "s")",
        created: latest.map { Archive.iso8601(milliseconds: $0) })
    } catch {
      throw .imageEncoding(detail: error.detail)
    }
    let local = LocalTime(timeZone)
    let pages = layout.pages(for: count)
    var drawn = 0
    let size = layout.paper.points
    var placeholders: [String] = []
    let blobs = BlobStore(database)
    for page in 0..<pages {
      pdf.beginPage(width: size.width, height: size.height)
      let first = page * layout.drawingsPerPage
      let versions = try storeCall {
        try selected.newestVersions(first..<min(count, first + layout.drawingsPerPage))
      }
      drawn += versions.count
      for (index, version) in versions.enumerated() {
        let bytes = try storeCall { try blobs.bytes(ofBlob: version.blobID, limit: DrawingLimits.default.maxBytes) }
        let picture: VectorPicture
        switch PictureRenderer.decode(bytes) {
        case .success(let drawing):
          let box = layout.box(index)
          picture = VectorPicture.export(of: drawing, background: version.background) { width, height in
            // Outlines as fine as a 600 dpi printer's dots in the box, and no finer.
            min(2, max(0.05, min(box.width / width, box.height / height) * 600 / 72))
          }
        case .failure:
          placeholders.append(version.name)
          picture = VectorPicture.placeholder(background: version.background, side: 256, scale: 1)
        }
        let box = layout.box(index)
        pdf.draw(picture, in: box, frame: Self.portfolioFrame)
        let nameBaseline = box.y + box.height + 4 + PortfolioLayout.nameSize
        let name = text.line(version.name, pixelSize: PortfolioLayout.nameSize, maxWidth: box.width)
        pdf.draw(
          name, x: box.x + (name.isRightToLeft ? box.width - name.width : 0), baseline: nameBaseline,
          color: Self.portfolioNameInk, with: text)
        let date = text.line(
          local.civil(milliseconds: version.savedMilliseconds).text(), pixelSize: PortfolioLayout.dateSize,
          maxWidth: box.width)
        pdf.draw(date, x: box.x, baseline: nameBaseline + 10, color: Self.portfolioDateInk, with: text)
      }
      let number = text.line("Page \(page + 1) of \(pages)", pixelSize: PortfolioLayout.pageNumberSize)
      pdf.draw(
        number, x: (size.width - number.width) / 2, baseline: size.height - 22, color: Self.portfolioDateInk,
        with: text)
      pdf.endPage()
    }
    do {
      try pdf.finish()
    } catch {
      throw .imageEncoding(detail: error.detail)
    }
    return PortfolioSummary(drafts: drawn, pages: pages, paper: layout.paper, placeholders: placeholders)
  }

  private static let portfolioNameInk = RGBA(red: 0x20 / 255, green: 0x20 / 255, blue: 0x20 / 255, alpha: 1)
  private static let portfolioDateInk = RGBA(red: 0x70 / 255, green: 0x70 / 255, blue: 0x70 / 255, alpha: 1)
  private static let portfolioFrame = RGBA(red: 0xC8 / 255, green: 0xC8 / 255, blue: 0xC8 / 255, alpha: 1)
}
