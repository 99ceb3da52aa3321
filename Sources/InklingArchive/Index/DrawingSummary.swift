// What `show` and `diff` tell of a drawing, from the drawing index.

import FoundationEssentials
import InklingFormats
import InklingStore

/// One stroke as `show --strokes` lists it.
public struct StrokeSummary: Sendable, Equatable {
  /// Position in the drawing, from 1.
  public var number: Int
  public var ink: String
  public var color: RGBA
  public var hidden: Bool
  public var pointCount: Int
  public var bounds: Rect?
  public var created: Date?
  /// Cut by the pixel eraser: drawn as what is left of it (its substrokes, its visible
  /// ranges and mask), `bounds` being those of what is left. Known only where the drawing
  /// itself was read (`show`, `diff`); false elsewhere.
  public var partlyErased = false

  /// Whether it is a stroke of the eraser: PencilKit keeps those hidden, and they never
  /// drew anything, so they are not hidden drawing strokes.
  public var isEraser: Bool { ink == Ink.InkType.eraser.name }
}

/// The inks a drawing's visible strokes use.
public struct InkUsage: Sendable, Equatable {
  public var ink: String
  public var color: RGBA
  public var strokeCount: Int
}

/// What the archive knows of one version's drawing.
public struct DrawingSummary: Sendable, Equatable {
  public enum Status: String, Sendable {
    case decoded
    /// Not a PencilKit drawing this build reads; archived as opaque bytes.
    case unreadable
    /// A PencilKit drawing that does not decode.
    case damaged
    /// Archived before the drawing index existed; `inkling-archive reindex` fills it in.
    case notIndexed = "not indexed"
  }

  public var status: Status
  public var problem: String?
  public var formatVersion: Int?
  public var strokeCount: Int
  /// The drawing strokes kept hidden (erased whole), eraser strokes left out.
  public var hiddenCount: Int
  /// The strokes of the eraser (kept hidden by PencilKit, drawing nothing).
  public var eraserCount: Int
  public var visibleCount: Int { strokeCount - hiddenCount - eraserCount }
  /// The visible strokes cut by the pixel eraser (`StrokeSummary.partlyErased`).
  public var partlyErasedCount: Int { strokes.count(where: \.partlyErased) }
  public var pointCount: Int
  /// The union of the visible strokes' render bounds.
  public var bounds: Rect?
  public var firstPoint: Date?
  public var lastPoint: Date?
  public var maxInkVersion: Int?
  public var inks: [InkUsage]
  public var strokes: [StrokeSummary]

  static let notIndexed = DrawingSummary(
    status: .notIndexed, strokeCount: 0, hiddenCount: 0, eraserCount: 0, pointCount: 0, inks: [], strokes: [])

  init(
    status: Status, problem: String? = nil, formatVersion: Int? = nil, strokeCount: Int, hiddenCount: Int,
    eraserCount: Int, pointCount: Int, bounds: Rect? = nil, firstPoint: Date? = nil, lastPoint: Date? = nil,
    maxInkVersion: Int? = nil,
    inks: [InkUsage], strokes: [StrokeSummary]
  ) {
    self.status = status
    self.problem = problem
    self.formatVersion = formatVersion
    self.strokeCount = strokeCount
    self.hiddenCount = hiddenCount
    self.eraserCount = eraserCount
    self.pointCount = pointCount
    self.bounds = bounds
    self.firstPoint = firstPoint
    self.lastPoint = lastPoint
    self.maxInkVersion = maxInkVersion
    self.inks = inks
    self.strokes = strokes
  }

  init(_ facts: DrawingFacts) {
    let status: Status =
      switch facts.status {
      case .decoded: .decoded
      case .unreadable: .unreadable
      case .damaged: .damaged
      }
    var inks: [InkUsage] = []
    for stroke in facts.strokes where !stroke.hidden {
      if let index = inks.firstIndex(where: { $0.ink == stroke.ink && $0.color == stroke.color }) {
        inks[index].strokeCount += 1
      } else {
        inks.append(InkUsage(ink: stroke.ink, color: stroke.color, strokeCount: 1))
      }
    }
    self.init(
      status: status, problem: facts.problem, formatVersion: facts.formatVersion, strokeCount: facts.strokes.count,
      hiddenCount: facts.strokes.count(where: { $0.hidden && $0.ink != Self.eraser }),
      eraserCount: facts.strokes.count(where: { $0.hidden && $0.ink == Self.eraser }), pointCount: facts.pointCount,
      bounds: facts.bounds,
      firstPoint: facts.firstPoint.map { Date(timeIntervalSince1970: $0) },
      lastPoint: facts.lastPoint.map { Date(timeIntervalSince1970: $0) }, maxInkVersion: facts.maxInkVersion,
      inks: inks,
      strokes: facts.strokes.enumerated().map { index, stroke in
        StrokeSummary(
          number: index + 1, ink: stroke.ink, color: stroke.color, hidden: stroke.hidden,
          pointCount: stroke.pointCount, bounds: stroke.bounds,
          created: stroke.created.map { Date(timeIntervalSince1970: $0) })
      })
  }
}

extension DrawingSummary {
  private static let eraser = Ink.InkType.eraser.name
}

/// How two versions of a draft differ.
public struct DrawingDiff: Sendable, Equatable {
  public var from: VersionInfo
  public var to: VersionInfo
  /// Visible in `to`, absent from `from`.
  public var added: [StrokeSummary]
  /// Visible in `from`, absent from `to`.
  public var removed: [StrokeSummary]
  /// Visible in `from` (described as it was there), kept hidden (erased) in `to`.
  public var hidden: [StrokeSummary]
  /// Hidden in `from`, visible again in `to`.
  public var unhidden: [StrokeSummary]
  /// Visible in both, and cut (further) by the pixel eraser in `to` (described as it is
  /// there: what is left of it).
  public var partlyErased: [StrokeSummary] = []
  /// The background colours, when they differ.
  public var backgroundChange: (from: RGBA, to: RGBA)? {
    from.background == to.background ? nil : (from.background, to.background)
  }

  public static func == (a: DrawingDiff, b: DrawingDiff) -> Bool {
    a.from == b.from && a.to == b.to && a.added == b.added && a.removed == b.removed && a.hidden == b.hidden
      && a.unhidden == b.unhidden && a.partlyErased == b.partlyErased
  }
}
