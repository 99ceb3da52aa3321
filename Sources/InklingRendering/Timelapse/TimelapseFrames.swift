// The frames of a time-lapse, painted incrementally.
//
// Two canvases: `committed` holds the background and every finished stroke; `frame` is
// `committed` plus the stroke in progress, drawn up to the frame's moment. For each frame:
//
// 1. the pixels the stroke in progress covered in the last frame are copied back from
//    `committed` (so `frame` equals `committed` again);
// 2. each step finished by now is applied: a stroke is drawn onto both canvases (the same
//    composite onto the same pixels, so they stay equal); a reset redraws `committed` from its
//    background and strokes and copies it to `frame`;
// 3. the stroke in progress is drawn onto `frame` up to the parameter its points' time offsets
//    reach at this moment, and the pixels it may change are remembered for step 1.
//
// So a frame costs its new strokes, the prefix of one stroke and a copy of that prefix's box;
// only a reset costs the whole drawing. Pixels outside the boxes of what was drawn or reset
// never change from one frame to the next. A finished stroke is drawn whole, once, in the
// drawing's order, exactly as `Renderer` draws it: a frame's finished strokes are pixel for
// pixel `Renderer.render` of those strokes.

import InklingFormats

/// The frames of a `TimelapsePlan`, in order.
///
/// ```swift
/// var frames = TimelapseFrames(plan)
/// while let image = frames.next() { try sink.add(image) }
/// ```
public struct TimelapseFrames {
  public let plan: TimelapsePlan
  private var committed: Canvas
  private var frame: Canvas
  private var rasterizer: StrokeRasterizer
  /// The pixels the stroke in progress may have changed in `frame` (invariant: outside it,
  /// `frame` equals `committed`).
  private var partialBox: PixelBox?
  private var nextStep = 0
  /// The index of the frame `next()` returns.
  public private(set) var nextFrame = 0

  public init(_ plan: TimelapsePlan) {
    self.plan = plan
    let width = plan.geometry.width
    let height = plan.geometry.height
    var background = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    if case .reset(let first, _, _)? = plan.steps.first { background = first }
    committed = Canvas(width: width, height: height, background: background)
    frame = committed
    rasterizer = StrokeRasterizer(width: width, height: height)
  }

  /// The next frame, or nil after the last.
  public mutating func next() -> RenderedImage? {
    guard nextFrame < plan.frameCount else { return nil }
    let now = plan.time(ofFrame: nextFrame)
    nextFrame += 1
    if let box = partialBox {
      restore(box)
      partialBox = nil
    }
    while nextStep < plan.steps.count, plan.times[nextStep].end <= now {
      apply(plan.steps[nextStep])
      nextStep += 1
    }
    if nextStep < plan.steps.count, case .draw(let index) = plan.steps[nextStep] {
      let (begin, end) = plan.times[nextStep]
      if begin < now { drawPartial(plan.strokes[index], fraction: (now - begin) / (end - begin)) }
    }
    return frame.image()
  }

  private mutating func apply(_ step: TimelapseStep) {
    switch step {
    case .draw(let index):
      for (piece, box) in plan.strokes[index].pieces {
        rasterizer.draw(piece, bounds: box, geometry: plan.geometry, into: &committed)
        rasterizer.draw(piece, bounds: box, geometry: plan.geometry, into: &frame)
      }
    case .reset(let background, let strokes, _):
      committed = Canvas(width: committed.width, height: committed.height, background: background)
      for index in strokes {
        for (piece, box) in plan.strokes[index].pieces {
          rasterizer.draw(piece, bounds: box, geometry: plan.geometry, into: &committed)
        }
      }
      frame = committed
    }
  }

  /// Draws `stroke` onto `frame` as far as `fraction` (0…1) of its drawing time reaches.
  private mutating func drawPartial(_ stroke: PlannedStroke, fraction: Double) {
    for (piece, box) in stroke.pieces {
      let end: Double
      if plan.evenPace || !stroke.timed {
        end = fraction * piece.path.parameterEnd
      } else {
        end = Self.parameter(at: fraction * stroke.length, of: piece.path)
      }
      let ranges = piece.ranges.compactMap { range in
        range.lowerBound <= end ? range.lowerBound...Swift.min(range.upperBound, end) : nil
      }
      guard !ranges.isEmpty, let pixels = rasterizer.pixelBox(bounds: box, geometry: plan.geometry) else {
        continue
      }
      var prefix = piece
      prefix.ranges = ranges
      rasterizer.draw(prefix, bounds: box, geometry: plan.geometry, into: &frame)
      partialBox = partialBox.map { $0.union(pixels) } ?? pixels
    }
  }

  /// The spline parameter a stroke's pen reached `offset` seconds after it began: between
  /// the control points whose time offsets surround it (offsets that go back are read as
  /// standing still).
  static func parameter(at offset: Double, of path: StrokePath) -> Double {
    var previous = 0.0
    for (index, point) in path.points.enumerated() {
      let time = Swift.max(point.timeOffset.isFinite ? point.timeOffset : 0, previous)
      if time > offset {
        guard index > 0 else { return 0 }
        return Double(index - 1) + (offset - previous) / (time - previous)
      }
      previous = time
    }
    return path.parameterEnd
  }

  /// Copies the pixels of `box` from `committed` to `frame`.
  private mutating func restore(_ box: PixelBox) {
    let rowBytes = (box.x1 - box.x0 + 1) * 4
    let stride = committed.width * 4
    committed.bytes.withUnsafeBufferPointer { source in
      frame.bytes.withUnsafeMutableBufferPointer { target in
        guard let from = source.baseAddress, let to = target.baseAddress else { return }
        for y in box.y0...box.y1 {
          let start = y * stride + box.x0 * 4
          (to + start).update(from: from + start, count: rowBytes)
        }
      }
    }
  }
}
