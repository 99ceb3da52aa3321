// What changed between two versions of a drawing, as one picture: the version before, faded,
// with the strokes the later one adds drawn over it in green and the strokes it removes or
// erases in red. The strokes are the ones `diff` reports: a stroke is the same stroke in both
// versions when its UUID is (erasing a stroke re-encodes it, hiding it and dropping its path),
// else when it is the same stroke value (the same bytes). A stroke the pixel eraser cut (its
// visible ranges, masks or substrokes differ, and it is cut in the later version) is drawn as
// it was in red, with what is left of it drawn over that in the faded colour made opaque
// against the background: the red that shows is what was erased. Any other change of a
// stroke that keeps its UUID (moved) is shown as it was, faded: `diff` does not count it.
//
// The picture is a drawing made of both versions' strokes with their inks recoloured, so it
// is drawn exactly as the versions are (the same inks, widths and geometry), in the bounds of
// everything it shows.

import InklingFormats

public enum ChangesPicture {
  /// How much of its ink's opacity a stroke that did not change keeps.
  static let fadedOpacity = 0.3
  static let added = RGBA(red: 0.05, green: 0.62, blue: 0.25, alpha: 1)
  static let removed = RGBA(red: 0.86, green: 0.12, blue: 0.12, alpha: 1)

  /// `before` faded, with what `after` adds in green and what it removes or erases in red,
  /// over `background`.
  public static func drawing(
    from before: Drawing, to after: Drawing, background: RGBA = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
  ) -> Drawing {
    let afterByKey = Dictionary(after.strokes.map { (Key($0), $0) }, uniquingKeysWith: { first, _ in first })
    let beforeByKey = Dictionary(before.strokes.map { (Key($0), $0) }, uniquingKeysWith: { first, _ in first })
    let count = before.inks.count
    var inks = before.inks.map { recoloured($0, faded: true) }
    inks += before.inks.map { recoloured($0, to: removed) }
    inks += after.inks.map { recoloured($0, to: added) }
    inks += after.inks.map { kept($0, over: background) }
    var strokes: [Stroke] = []
    var left: [Stroke] = []
    for var stroke in before.strokes where !stroke.isHidden {
      let later = afterByKey[Key(stroke)]
      if var later, !later.isHidden, isCut(later), !sameCut(stroke, later) {
        later.inkIndex += 2 * count + after.inks.count
        left.append(later)
        stroke.inkIndex += count
      } else {
        stroke.inkIndex += later == nil || later!.isHidden ? count : 0
      }
      strokes.append(stroke)
    }
    strokes += left
    for var stroke in after.strokes where !stroke.isHidden {
      guard beforeByKey[Key(stroke)].map({ $0.isHidden }) ?? true else { continue }
      stroke.inkIndex += 2 * count
      strokes.append(stroke)
    }
    var picture = after
    picture.inks = inks
    picture.strokes = strokes
    return picture
  }

  /// `before` → `after` as `Renderer.export` draws a version: its bounds grown by 8 pt, at
  /// `scale` pixels per point, over `background`.
  public static func render(from before: Drawing, to after: Drawing, background: RGBA, scale: Double)
    -> RenderedImage
  {
    Renderer.export(of: drawing(from: before, to: after, background: background), background: background, scale: scale)
  }

  /// Whether the pixel eraser cut `stroke`: it shows only ranges of its path, masks or
  /// substrokes.
  private static func isCut(_ stroke: Stroke) -> Bool {
    !stroke.slices.isEmpty || !stroke.maskPolygons.isEmpty || !stroke.substrokes.isEmpty
  }

  private static func sameCut(_ a: Stroke, _ b: Stroke) -> Bool {
    a.slices == b.slices && a.maskPolygons == b.maskPolygons && a.substrokes == b.substrokes
  }

  /// `ink` faded as an unchanged stroke is, made opaque against `background`, so that it
  /// covers the red of what was erased under it.
  private static func kept(_ ink: Ink, over background: RGBA) -> Ink {
    var ink = ink
    let alpha = Swift.min(Swift.max(ink.color.alpha, 0), 1) * fadedOpacity
    func mix(_ c: Double, _ b: Double) -> Double { b * (1 - alpha) + c * alpha }
    ink.color = RGBA(
      red: mix(ink.color.red, background.red), green: mix(ink.color.green, background.green),
      blue: mix(ink.color.blue, background.blue), alpha: 1)
    return ink
  }

  private enum Key: Hashable {
    case uuid(UUIDBytes)
    case value(Stroke)

    init(_ stroke: Stroke) {
      self = stroke.uuid.map(Key.uuid) ?? .value(stroke)
    }
  }

  private static func recoloured(_ ink: Ink, to color: RGBA? = nil, faded: Bool = false) -> Ink {
    var ink = ink
    if let color { ink.color = RGBA(red: color.red, green: color.green, blue: color.blue, alpha: ink.color.alpha) }
    if faded { ink.color.alpha *= fadedOpacity }
    return ink
  }
}
