// The frame plan of a time-lapse: what a drawing's saves say about how it was made, as steps
// on one clock, and which moment of that clock each frame shows.
//
// Steps come from the saves in order (`TimelapsePlanner.add`):
//
// - A stroke is *new* when no earlier save had it: not its content, and not its UUID (a stroke
//   the pixel eraser cut keeps its UUID but changes its content; it is an erase, not a new
//   stroke). Each new stroke is a `draw` step, drawn progressively along its points' time
//   offsets, in the order of the save's strokes (PencilKit's drawing order).
// - When the strokes kept from before are not exactly the strokes on the canvas (some were
//   erased, cut, brought back, or a revert went back to an older state), or the background
//   changed, the save starts with a `reset` step: the canvas is redrawn with what it keeps.
// - When a new stroke lies under older ones (drawn order ≠ PencilKit's order), the save ends
//   with a reset to its exact strokes, so that every save's last frame is its drawing.
//
// The clock (`TimelapseClock`): a draw step lasts as long as the stroke was drawn (its last
// point's time offset), and the pause before it is its creation date less the end of the one
// before, at most `pauseLimit`, so that sittings and saves days apart cost a second. A stroke
// whose points carry no times (PencilKit leaves them out of some drawings) lasts until the
// next stroke's creation or its save, at most `pauseLimit`, drawn at an even pace along its
// path: its creation date still says when it was made. A reset lasts `pauseLimit`, so that an
// erase is seen. When the strokes have no usable times (every creation date equal, or a date
// before 2000 or after the newest save), every draw step and reset lasts one unit instead and
// the plan says so (`evenPace`).
//
// The frame holds everything the replay draws: the union of the bounds of every save it
// replays (and of the one it starts from), so that strokes erased or reverted away later are
// not drawn outside it.
//
// Invariants: (1) steps are in clock order and do not overlap, so at most one stroke is in
// progress in a frame; (2) after the last step, the canvas holds the last save's visible
// pieces in its drawing order, over its background.

import InklingFormats

/// One stroke to draw: its visible pieces with boxes that hold their ink, and its times.
struct PlannedStroke {
  var pieces: [(piece: StrokePiece, box: Rect)]
  /// Creation date, seconds since 2001-01-01 (the first piece's path).
  var created: Double
  /// Seconds from its first point to its last (the largest time offset).
  var length: Double
  /// The save date of the first save that had it, seconds since 2001-01-01: a stroke whose
  /// points carry no times was finished by then.
  var saved: Double
  /// Whether its points carry times (some offset is not 0); when not, it is drawn at an even
  /// pace along its path.
  var timed: Bool { length > 0 }
}

/// A step of a time-lapse.
enum TimelapseStep {
  /// The stroke with this index in `TimelapsePlan.strokes` is drawn onto the canvas.
  case draw(Int)
  /// The canvas is redrawn: `background`, then these strokes in order; `pause` says whether
  /// it takes time on the clock (false for the state a replay starts from and for the
  /// drawing-order repair at the end of a save).
  case reset(background: RGBA, strokes: [Int], pause: Bool)
}

/// How long the drawing part of a time-lapse lasts.
public enum TimelapsePace: Sendable, Equatable {
  /// The whole video, hold included, lasts this many seconds.
  case duration(Double)
  /// The drawing time (pauses shortened) divided by this.
  case speed(Double)
  /// The drawing time itself (pauses shortened).
  case realTime
}

/// The size of a time-lapse's frames.
public enum TimelapseSize: Sendable, Equatable {
  /// The drawing's share-image area fitted into this many pixels (width, height).
  case fit(width: Int, height: Int)
  /// The drawing's share-image area at this many pixels per point.
  case scale(Double)
}

/// What a time-lapse is made of: the saves' steps, the clock and the frame geometry.
public struct TimelapsePlan {
  var strokes: [PlannedStroke]
  var steps: [TimelapseStep]
  /// When each step begins and ends on the clock (parallel to `steps`).
  var times: [(begin: Double, end: Double)]
  /// Where the drawing lands in every frame.
  public let geometry: RenderGeometry
  /// Frames of the drawing part; the last shows every step done.
  public let drawingFrames: Int
  /// Frames that repeat the last one at the end.
  public let holdFrames: Int
  public let fps: Int
  /// True when the strokes' times were unusable and every stroke took one unit of time.
  public let evenPace: Bool
  /// For each replayed save, oldest first, the number of steps done once it is on the canvas.
  let saveEnds: [Int]
  /// The number of strokes the replay draws (new strokes of the saves replayed).
  public var drawnStrokes: Int { steps.count(where: { if case .draw = $0 { true } else { false } }) }
  /// Every frame, the hold included.
  public var frameCount: Int { drawingFrames + holdFrames }
  /// The clock's end: the time of the last drawing frame.
  var clockEnd: Double { times.last?.end ?? 0 }

  /// The clock time frame `index` shows (a hold frame shows the end).
  func time(ofFrame index: Int) -> Double {
    guard drawingFrames > 0, index < drawingFrames - 1 else { return clockEnd }
    return clockEnd * Double(index + 1) / Double(drawingFrames)
  }

  /// For each replayed save, oldest first, the first frame that shows it done: the marks of
  /// the saves on a player's scrubber. A save that changed nothing shares the frame of the
  /// save before it.
  public var saveFrames: [Int] {
    saveEnds.map { end in
      guard end > 0, drawingFrames > 0, clockEnd > 0 else { return 0 }
      let clock = times[end - 1].end
      // The inverse of time(ofFrame:): the first frame whose time is at or past the save's.
      let frame = Int((clock / clockEnd * Double(drawingFrames) - 1e-9).rounded(.up)) - 1
      return Swift.min(Swift.max(frame, 0), drawingFrames - 1)
    }
  }
}

/// What tells two saves' strokes apart: equal exactly when they are the same stroke.
public enum SavedStrokeKey: Hashable, Sendable {
  /// The stroke itself, compared whole.
  case content(Stroke)
  /// A number the caller gives each distinct stroke (a row of an index of strokes).
  case number(Int64)
}

/// One stroke of a save, as `TimelapsePlanner.add(_:keeping:pieces:canvas:newest:background:saved:replayed:)` takes it.
public struct SavedStroke: Sendable {
  public var key: SavedStrokeKey
  /// Its UUID: a stroke the pixel eraser cut keeps it, and is not drawn as a new stroke.
  public var uuid: UUIDBytes?

  public init(key: SavedStrokeKey, uuid: UUIDBytes?) {
    self.key = key
    self.uuid = uuid
  }
}

/// A drawing's visible pieces by stroke, in the boxes `render` rasterises them in, and its
/// render bounds.
public struct MeasuredStrokes {
  private var byStroke: [Int: [(piece: StrokePiece, box: Rect)]] = [:]
  /// The drawing's render bounds; nil when nothing is visible.
  public let bounds: Rect?
  /// The drawing's canvas (`Drawing.canvasBounds`).
  public let canvasBounds: Rect?

  public init(_ drawing: Drawing) {
    let measured = Renderer.measured(drawing)
    for (piece, box) in measured.pieces { byStroke[piece.strokeIndex, default: []].append((piece, box)) }
    bounds = measured.bounds
    canvasBounds = drawing.canvasBounds
  }

  /// The visible pieces of the stroke at `index` in the drawing; nil when it draws nothing.
  public func pieces(ofStroke index: Int) -> [(piece: StrokePiece, box: Rect)]? { byStroke[index] }
}

/// Builds a `TimelapsePlan` from a draft's saves, oldest first.
///
/// ```swift
/// var planner = TimelapsePlanner()
/// for save in saves { planner.add(save.drawing, background: save.background, saved: save.date) }
/// let plan = planner.plan(pace: .duration(30), fps: 30, hold: 2, size: .fit(width: 1080, height: 1080))
/// ```
public struct TimelapsePlanner {
  /// The longest pause kept between two strokes, and how long an erase or a jump shows.
  public static let pauseLimit = 1.0
  /// 2000-01-01T00:00:00Z in seconds since 2001-01-01: earlier creation dates are not real.
  static let earliestDate = -31_622_400.0

  private var strokes: [PlannedStroke] = []
  private var steps: [TimelapseStep] = []
  /// Every stroke met so far, to its index in `strokes`, or to nil when it draws nothing.
  private var indices: [SavedStrokeKey: Int?] = [:]
  private var seenUUIDs: Set<UUIDBytes> = []
  /// The strokes on the canvas, in order, and its background (nil before the first save).
  private var canvas: [Int] = []
  /// The last save's strokes, place by place: each one's index in `strokes`, or nil when it
  /// draws nothing.
  private var places: [Int?] = []
  private var background: RGBA?
  /// The newest save's canvas and render bounds, and its strokes' pieces in the boxes
  /// `render` draws that save with.
  private var lastDrawing: (canvas: Rect?, bounds: Rect?) = (nil, nil)
  /// The union of the render bounds of every save added: what the frame must hold.
  private var replayBounds: Rect?
  private var lastBoxes: [Int: [(piece: StrokePiece, box: Rect)]] = [:]
  private var latestSave = -Double.infinity
  private var saveEnds: [Int] = []
  /// How many strokes of the saves added were looked at: a number tests hold to the strokes
  /// each save adds, not every stroke of every save.
  package private(set) var visited = 0

  public init() {}

  /// Adds the next save: its drawing, background and save date (seconds since 2001-01-01).
  /// When `replayed` is false, the save only sets the state the replay starts from: its
  /// strokes are on the canvas from the first frame (for a replay from a later save).
  public mutating func add(_ drawing: Drawing, background: RGBA, saved: Double, replayed: Bool = true) {
    let measured = MeasuredStrokes(drawing)
    add(
      drawing.strokes.map { SavedStroke(key: .content($0), uuid: $0.uuid) }, keeping: 0,
      pieces: { measured.pieces(ofStroke: $0) },
      canvas: drawing.canvasBounds, newest: true, background: background, saved: saved, replayed: replayed,
      boundsOfNewStrokes: false)
    if let bounds = measured.bounds { replayBounds = replayBounds.map { Self.union($0, bounds) } ?? bounds }
    lastDrawing.bounds = measured.bounds
  }

  /// Adds the next save as its strokes in drawing order, for a caller that knows which
  /// strokes two saves share without reading both drawings. `keeping` says how many strokes
  /// at the save's start are the first strokes of the save added before it, the same ones in
  /// the same order; `saved` is the rest, from place `keeping` on. `pieces(i)` gives the
  /// visible pieces of the stroke at place `i` of the whole save (nil when it draws nothing),
  /// in the boxes of a render of some save that holds it; it is asked only for strokes not
  /// met before, and, when `newest` (the last save to be added), for every stroke, in the
  /// boxes of this save's own render.
  ///
  /// A save that keeps the strokes of the one before and adds a few costs those few, not
  /// every stroke it holds: a draft saved thousands of times is planned in time linear in
  /// its saves and strokes.
  public mutating func add(
    _ saved: [SavedStroke], keeping shared: Int = 0, pieces: (Int) -> [(piece: StrokePiece, box: Rect)]?,
    canvas canvasBounds: Rect?, newest: Bool, background: RGBA, saved date: Double, replayed: Bool = true
  ) {
    add(
      saved, keeping: shared, pieces: pieces, canvas: canvasBounds, newest: newest, background: background,
      saved: date, replayed: replayed, boundsOfNewStrokes: true)
  }

  /// `boundsOfNewStrokes`: whether the frame grows with the render bounds of each stroke first
  /// met (when the caller does not give each save's bounds).
  ///
  /// Invariant: between saves, `canvas` is the last save's strokes on the canvas (its
  /// target), and `places` has one entry per stroke of that save: its index in `strokes`, or
  /// nil when it draws nothing. So the strokes a save keeps from the one before are a prefix
  /// of both, and only what follows them is looked at and compared.
  private mutating func add(
    _ saved: [SavedStroke], keeping shared: Int, pieces: (Int) -> [(piece: StrokePiece, box: Rect)]?,
    canvas canvasBounds: Rect?, newest: Bool, background: RGBA, saved date: Double, replayed: Bool,
    boundsOfNewStrokes: Bool
  ) {
    // The caller's promise: a save keeps at most the strokes of the save before it.
    precondition(shared >= 0 && shared <= places.count, "a save keeps strokes the save before it does not have")
    latestSave = Swift.max(latestSave, date)
    var last: [Int: [(piece: StrokePiece, box: Rect)]] = [:]
    // The kept strokes are known: they change no stroke, step or bound, only the newest
    // save's boxes.
    if newest {
      for place in 0..<shared {
        visited += 1
        if let known = places[place], let drawn = pieces(place) { last[known] = drawn }
      }
    }
    // The target's first `sharedTarget` strokes are the kept ones, on the canvas already.
    let sharedTarget = canvas.count - places[shared...].count(where: { $0 != nil })
    places.removeSubrange(shared...)
    var target: [Int] = []
    var fresh: [Int] = []
    for (offset, stroke) in saved.enumerated() {
      visited += 1
      let place = shared + offset
      if let known = indices[stroke.key] {
        places.append(known)
        guard let known else { continue }
        target.append(known)
        if newest, let drawn = pieces(place) { last[known] = drawn }
        continue
      }
      guard let drawn = pieces(place) else {
        indices[stroke.key] = .some(nil)
        places.append(nil)
        continue
      }
      let isNew = stroke.uuid.map { !seenUUIDs.contains($0) } ?? true
      if let uuid = stroke.uuid { seenUUIDs.insert(uuid) }
      strokes.append(Self.planned(drawn, saved: date))
      indices[stroke.key] = strokes.count - 1
      places.append(strokes.count - 1)
      target.append(strokes.count - 1)
      if newest { last[strokes.count - 1] = drawn }
      if isNew && replayed { fresh.append(strokes.count - 1) }
      // The union of the saves' render bounds is the union of their strokes': each stroke
      // counts once, when first met.
      for (piece, _) in drawn where boundsOfNewStrokes {
        guard let bounds = piece.renderBounds else { continue }
        replayBounds = replayBounds.map { Self.union($0, bounds) } ?? bounds
      }
    }
    if newest {
      lastBoxes = last
      lastDrawing.canvas = canvasBounds
    }
    // Fresh strokes are first met in this save, so none is among the kept ones.
    let freshSet = Set(fresh)
    let kept = target.filter { !freshSet.contains($0) }
    if !replayed {
      canvas.removeSubrange(sharedTarget...)
      canvas += target
      self.background = background
      steps = [.reset(background: background, strokes: canvas, pause: false)]
      return
    }
    if self.background == nil {
      canvas.removeSubrange(sharedTarget...)
      canvas += kept
      steps.append(.reset(background: background, strokes: canvas, pause: false))
    } else if !canvas[sharedTarget...].elementsEqual(kept) || self.background != background {
      canvas.removeSubrange(sharedTarget...)
      canvas += kept
      steps.append(.reset(background: background, strokes: canvas, pause: true))
    }
    self.background = background
    for index in fresh { steps.append(.draw(index)) }
    canvas += fresh
    if !canvas[sharedTarget...].elementsEqual(target) {
      canvas.removeSubrange(sharedTarget...)
      canvas += target
      steps.append(.reset(background: background, strokes: canvas, pause: false))
    }
    saveEnds.append(steps.count)
  }

  /// How long the drawing part lasts at `pace`, the hold left out, in seconds; it may be
  /// infinite. A caller refuses a drawing too long before asking for its `plan`: a tiny
  /// speed factor (or a stroke whose times say it took centuries) gives more frames than
  /// anyone would wait for, or than an `Int` holds.
  public func drawingSeconds(pace: TimelapsePace, hold: Double) -> Double {
    Self.seconds(clock: clock(even: !timesAreUsable).end, pace: pace, hold: hold)
  }

  /// The plan: the clock fitted to `pace`, `fps` frames a second, the last frame held for
  /// `hold` seconds, frames of `size`. A drawing part or a hold longer than
  /// `maximumFrames` frames is cut to it: `drawingSeconds` tells the caller first.
  public func plan(pace: TimelapsePace, fps: Int, hold: Double, size: TimelapseSize) -> TimelapsePlan {
    let even = !timesAreUsable
    let (times, clock) = clock(even: even)
    let seconds = Self.seconds(clock: clock, pace: pace, hold: hold)
    let drawingFrames = clock > 0 ? Swift.max(Self.frames(seconds, fps: fps), 1) : 0
    let holdFrames = Swift.max(Self.frames(hold, fps: fps), drawingFrames == 0 ? 1 : 0)
    // A stroke's box can decide its edge pixels (render gives the pieces at the drawing's
    // edges their exact bounds, the rest a looser box), so the newest save's strokes are
    // drawn in the boxes its render uses, and the last frame is its render.
    var strokes = strokes
    for (index, pieces) in lastBoxes { strokes[index].pieces = pieces }
    return TimelapsePlan(
      strokes: strokes, steps: steps, times: times,
      geometry: Self.geometry(bounds: replayBounds ?? lastDrawing.bounds, canvas: lastDrawing.canvas, size: size),
      drawingFrames: drawingFrames, holdFrames: holdFrames, fps: fps, evenPace: even, saveEnds: saveEnds)
  }

  /// The most frames `plan` gives a drawing part or a hold: more than ten hours at any frame
  /// rate, and far from `Int.max`, so that their sum and `Double`'s rounding never overflow.
  static let maximumFrames = Int(Int32.max)

  /// `seconds` at `fps` in whole frames, at most `maximumFrames`: `Int(_:)` of a `Double`
  /// beyond `Int.max` (or infinite, or not a number) stops the process.
  private static func frames(_ seconds: Double, fps: Int) -> Int {
    let frames = (seconds * Double(fps)).rounded()
    guard frames < Double(maximumFrames) else { return maximumFrames }
    return frames > 0 ? Int(frames) : 0
  }

  /// The drawing part's length at `pace`, for a clock that ends at `clock`.
  private static func seconds(clock: Double, pace: TimelapsePace, hold: Double) -> Double {
    switch pace {
    case .duration(let total): Swift.max(total - hold, 0)
    case .speed(let factor): clock / factor
    case .realTime: clock
    }
  }

  /// When each step begins and ends on the clock, and the clock's end.
  private func clock(even: Bool) -> (times: [(begin: Double, end: Double)], end: Double) {
    var times: [(begin: Double, end: Double)] = []
    var clock = 0.0
    var realEnd: Double?
    // The creation date of the stroke drawn after each draw step (nil for the last).
    var nextCreated: [Double?] = Array(repeating: nil, count: steps.count)
    var following: Double?
    for (position, step) in steps.enumerated().reversed() {
      guard case .draw(let index) = step else { continue }
      nextCreated[position] = following
      following = strokes[index].created
    }
    for (position, step) in steps.enumerated() {
      let begin: Double
      let length: Double
      switch step {
      case .draw(let index):
        let stroke = strokes[index]
        if even {
          begin = clock
          length = 1
        } else {
          let pause = realEnd.map { Swift.min(Swift.max(stroke.created - $0, 0), Self.pauseLimit) } ?? 0
          begin = clock + pause
          length = stroke.timed ? stroke.length : Self.untimedLength(stroke, next: nextCreated[position])
          realEnd = Swift.max(realEnd ?? -.infinity, stroke.created + length)
        }
      case .reset(_, _, let pause):
        begin = clock
        length = pause ? (even ? 1 : Self.pauseLimit) : 0
      }
      times.append((begin, begin + length))
      clock = begin + length
    }
    return (times, clock)
  }

  /// Whether the new strokes' times can be replayed (see the file comment).
  private var timesAreUsable: Bool {
    var drawn: [PlannedStroke] = []
    for case .draw(let index) in steps { drawn.append(strokes[index]) }
    guard let first = drawn.first else { return true }
    if drawn.count == 1 && !first.timed { return false }
    if drawn.count > 1 && drawn.allSatisfy({ $0.created == first.created }) { return false }
    // A day's grace: a device's clock and the file's save date may disagree a little.
    let latest = latestSave + 86_400
    return drawn.allSatisfy { $0.created.isFinite && $0.created >= Self.earliestDate && $0.created <= latest }
  }

  /// How long a stroke whose points carry no times is drawn: from its creation to the next
  /// stroke's creation or its save, whichever comes first, at most `pauseLimit`.
  private static func untimedLength(_ stroke: PlannedStroke, next: Double?) -> Double {
    let end = Swift.min(next ?? stroke.saved, stroke.saved)
    return Swift.min(Swift.max(end - stroke.created, 0), pauseLimit)
  }

  /// The smallest rectangle that holds `a` and `b`.
  private static func union(_ a: Rect, _ b: Rect) -> Rect {
    let minX = Swift.min(a.minX, b.minX)
    let minY = Swift.min(a.minY, b.minY)
    return Rect(
      x: minX, y: minY, width: Swift.max(a.maxX, b.maxX) - minX, height: Swift.max(a.maxY, b.maxY) - minY)
  }

  private static func planned(_ pieces: [(piece: StrokePiece, box: Rect)], saved: Double) -> PlannedStroke {
    var length = 0.0
    for (piece, _) in pieces {
      for point in piece.path.points where point.timeOffset.isFinite {
        length = Swift.max(length, point.timeOffset)
      }
    }
    return PlannedStroke(pieces: pieces, created: pieces[0].piece.path.creationDate, length: length, saved: saved)
  }

  /// The export geometry of a drawing with these bounds (as `render` draws it) at the scale that fits `size`,
  /// grown to even dimensions (as H.264's 4:2:0 needs) with background on the right and bottom.
  static func geometry(bounds: Rect?, canvas: Rect?, size: TimelapseSize) -> RenderGeometry {
    let area = RenderGeometry.export(bounds: bounds, canvas: canvas, scale: 1).source
    let scale: Double
    switch size {
    case .scale(let s): scale = s
    case .fit(let width, let height):
      // Even sides, so that growing to even never passes the box.
      let w = Double(Swift.max(width - width % 2, 2))
      let h = Double(Swift.max(height - height % 2, 2))
      scale = Swift.min(w / area.width, h / area.height)
    }
    var geometry = RenderGeometry.export(bounds: bounds, canvas: canvas, scale: scale)
    geometry.width += geometry.width % 2
    geometry.height += geometry.height % 2
    return geometry
  }
}
