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
  public var hiddenCount: Int
  public var visibleCount: Int { strokeCount - hiddenCount }
  public var pointCount: Int
  /// The union of the visible strokes' render bounds.
  public var bounds: Rect?
  public var firstPoint: Date?
  public var lastPoint: Date?
  public var maxInkVersion: Int?
  public var inks: [InkUsage]
  public var strokes: [StrokeSummary]

  static let notIndexed = DrawingSummary(
    status: .notIndexed, strokeCount: 0, hiddenCount: 0, pointCount: 0, inks: [], strokes: [])

  init(
    status: Status, problem: String? = nil, formatVersion: Int? = nil, strokeCount: Int, hiddenCount: Int,
    pointCount: Int, bounds: Rect? = nil, firstPoint: Date? = nil, lastPoint: Date? = nil, maxInkVersion: Int? = nil,
    inks: [InkUsage], strokes: [StrokeSummary]
  ) {
    self.status = status
    self.problem = problem
    self.formatVersion = formatVersion
    self.strokeCount = strokeCount
    self.hiddenCount = hiddenCount
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
      hiddenCount: facts.hiddenCount, pointCount: facts.pointCount, bounds: facts.bounds,
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
  /// The background colours, when they differ.
  public var backgroundChange: (from: RGBA, to: RGBA)? {
    from.background == to.background ? nil : (from.background, to.background)
  }

  public static func == (a: DrawingDiff, b: DrawingDiff) -> Bool {
    a.from == b.from && a.to == b.to && a.added == b.added && a.removed == b.removed && a.hidden == b.hidden
      && a.unhidden == b.unhidden
  }
}
