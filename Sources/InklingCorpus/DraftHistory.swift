// The life of one draft: a sequence of saves, each a complete PencilKit drawing and a
// background colour, evolving the way a person's saves do.
//
// Invariants (what the archive's delta storage and history views may rely on):
// 1. A save keeps every stroke of the previous save, in the same order, with the same UUIDs
//    and values; it may append strokes, or hide (erase) some: a hidden stroke keeps its UUID,
//    sort ID and ink, loses its path and bounds, and gets a new version ID.
// 2. Stroke IDs follow the "Writing" rules of docs/pkdrawing-format.md: replica 0 is the zero
//    UUID; each device editing the draft is a replica; a new stroke's sort ID is (clock, replica,
//    clock + 1) and its version ID (0, replica, 0); an erase stamps (clock, replica, 0); every
//    operation advances that replica's clock; the version vector holds (clock, replica,
//    last subclock) for each replica that acted.
// 3. The drawing's serialised size stays under `maximumDrawingBytes` (an over-estimate is
//    tracked), so files stay under 200 KB; the first save has at least three strokes.
// 4. Save times strictly increase, at least a minute apart; strokes are created before the
//    save that first holds them.

import InklingFormats

/// What a save changed, for summaries and tests.
public enum SaveChange: Hashable, Sendable {
  case created(strokes: Int)
  case addedStrokes(Int)
  case erasedStrokes(Int)
  case changedBackground
  case unchanged
}

/// One save of a draft.
public struct DraftSave: Sendable {
  /// The save time, in seconds since 1970 (UTC); whole seconds, as the app's stamp.
  public var savedAt: Int64
  public var drawing: Drawing
  public var background: RGBA
  public var change: SaveChange
}

struct DraftHistory {
  /// Serialised drawing bytes allowed per save (invariant 3): base64 and JSON make a file
  /// about 1.36 times larger, so this keeps files under 200,000 bytes.
  static let maximumDrawingBytes = 145_000
  /// Seconds from 1970-01-01 to 2001-01-01, PencilKit's reference date.
  static let referenceDateOffset: Int64 = 978_307_200

  private var random: SeededRandom
  private let hand: Hand
  private var drawing: Drawing
  private var background: RGBA
  /// Per replica index: the next clock value and the last subclock used (invariant 2).
  private var clocks: [UInt64: (clock: UInt64, subclock: UInt64)] = [:]
  private var replica: UInt64 = 1
  private var time: Int64
  private var estimatedBytes = 0
  private var targetStrokes: Int
  private let plannedSaves: Int
  private var saves = 0

  /// Starts a draft first saved at `firstSave` (seconds since 1970) with `saves` saves.
  init(random: SeededRandom, firstSave: Int64, saves plannedSaves: Int, strokesPerSave: ClosedRange<Int>?) {
    var r = random
    let style: DraftStyle = r.weighted([(.notes, 0.35), (.sketch, 0.45), (.diagram, 0.2)])
    let device = r.weighted([(0, 0.6), (1, 0.25), (2, 0.15)])
    let canvas = [(820.0, 1180.0), (1024.0, 1366.0), (390.0, 844.0)][device]
    hand = Hand(
      canvasWidth: canvas.0, canvasHeight: canvas.1, finger: device == 2 || r.chance(0.2),
      style: style, pace: style == .notes ? r.double(1.5, 3) : r.double(2.5, 6),
      wobble: style == .notes ? r.double(0.05, 0.1) : r.double(0.015, 0.05))
    switch style {
    case .notes: targetStrokes = Int(r.logUniform(10, 240))
    case .sketch: targetStrokes = Int(r.logUniform(4, 100))
    case .diagram: targetStrokes = Int(r.logUniform(3, 32))
    }
    if let strokesPerSave {
      targetStrokes = plannedSaves * r.int(strokesPerSave)
    }
    self.plannedSaves = plannedSaves
    drawing = Drawing(
      replicas: [.zero, UUIDBytes(r.uuidBytes())], versionVector: [], inks: [], strokes: [],
      canvasBounds: r.chance(0.3) ? .zero : nil, boundsVersion: StrokeID(clock: 0, replicaIndex: 0, subclock: 0),
      uuid: UUIDBytes(r.uuidBytes()))
    background = Self.background(&r)
    time = firstSave
    self.random = r
  }

  /// The next save of the draft.
  mutating func nextSave() -> DraftSave {
    defer { saves += 1 }
    if saves == 0 {
      let count = max(3, share())
      let added = addStrokes(count, before: time)
      return save(.created(strokes: added))
    }
    // Minutes to weeks between saves (invariant 4).
    let minutes = random.double(60, 3600)
    let hours = random.double(3600, 86_400)
    let days = random.double(86_400, 1_814_400)
    let gap = Int64(random.weighted([(minutes, 0.45), (hours, 0.3), (days, 0.25)]))
    let previous = time
    time += max(60, gap)
    let visible = drawing.strokes.filter { !$0.isHidden }.count
    let action = random.weighted([(0, 0.72), (1, 0.1), (2, 0.08), (3, 0.05), (4, 0.05)])
    if action == 4 && !(drawing.replicas.count > 2) {
      // The draft synced to another device, which adds to it from now on.
      drawing.replicas.append(UUIDBytes(random.uuidBytes()))
      replica = UInt64(drawing.replicas.count - 1)
    }
    switch action {
    case 1 where visible >= 6:
      let count = random.int(1...max(1, min(3, visible / 3)))
      eraseStrokes(count)
      // An erase is often followed by redrawing.
      if random.chance(0.5) { _ = addStrokes(max(1, share() / 2), before: time, after: previous) }
      return save(.erasedStrokes(count))
    case 2:
      var colour = Self.background(&random)
      while colour == background { colour = Self.background(&random) }
      background = colour
      return save(.changedBackground)
    case 3:
      return save(.unchanged)
    default:
      let added = addStrokes(max(1, share()), before: time, after: previous)
      return added == 0 ? save(.unchanged) : save(.addedStrokes(added))
    }
  }

  // MARK: - Changes

  /// This save's share of the strokes still to draw.
  private mutating func share() -> Int {
    let remaining = max(1, plannedSaves - saves)
    let left = max(1, targetStrokes - drawing.strokes.count)
    return max(1, Int(Double(left) / Double(remaining) * random.double(0.5, 1.5)))
  }

  /// Appends up to `count` strokes drawn before `saveTime`; returns how many fit (invariant 3).
  private mutating func addStrokes(_ count: Int, before saveTime: Int64, after previous: Int64? = nil) -> Int {
    // A drawing session: a few seconds per stroke, ending shortly before the save.
    let session = Int64(count) * Int64(random.int(2...8)) + Int64(random.int(5...60))
    var created = Double(max(saveTime - session, (previous ?? saveTime - session) + 1) - Self.referenceDateOffset)
    created += Double(random.int(0...999_999)) / 1_000_000
    var added = 0
    for _ in 0..<count {
      let choice = InkChoice.random(&random, style: hand.style)
      let inkIndex: Int
      var inkBytes = 0
      if let index = drawing.inks.firstIndex(of: choice.ink) {
        inkIndex = index
      } else {
        inkIndex = drawing.inks.count
        inkBytes = 64
      }
      var clock = clocks[replica] ?? (0, 0)
      let stroke = StrokeGenerator.stroke(
        &random, hand: hand, choice: choice, inkIndex: inkIndex, created: created,
        sortID: StrokeID(clock: clock.clock, replicaIndex: replica, subclock: clock.clock + 1),
        versionID: StrokeID(clock: 0, replicaIndex: replica, subclock: 0))
      let bytes = Self.estimatedSize(of: stroke) + inkBytes
      if estimatedBytes + bytes + 200 + 24 * drawing.replicas.count > Self.maximumDrawingBytes { break }
      if inkBytes > 0 { drawing.inks.append(choice.ink) }
      drawing.strokes.append(stroke)
      estimatedBytes += bytes
      clock = (clock.clock + 1, clock.clock + 1)
      clocks[replica] = clock
      created += random.double(0.8, 6)
      added += 1
    }
    return added
  }

  /// Hides `count` visible strokes, mostly recent ones, as the object eraser does.
  private mutating func eraseStrokes(_ count: Int) {
    for _ in 0..<count {
      let visible = drawing.strokes.indices.filter { !drawing.strokes[$0].isHidden }
      guard !visible.isEmpty else { return }
      let index = random.chance(0.7) ? visible[max(0, visible.count - 1 - random.int(0...4))] : random.pick(visible)
      estimatedBytes -= Self.estimatedSize(of: drawing.strokes[index])
      var clock = clocks[replica] ?? (0, 0)
      drawing.strokes[index].isHidden = true
      drawing.strokes[index].path = nil
      drawing.strokes[index].storedBounds = nil
      drawing.strokes[index].versionID = StrokeID(clock: clock.clock, replicaIndex: replica, subclock: 0)
      estimatedBytes += Self.estimatedSize(of: drawing.strokes[index])
      clock.clock += 1
      clocks[replica] = clock
    }
  }

  private mutating func save(_ change: SaveChange) -> DraftSave {
    // The version vector: the zero replica, then every replica that has acted (invariant 2).
    drawing.versionVector =
      [StrokeID(clock: 0, replicaIndex: 0, subclock: 0)]
      + clocks.keys.sorted().map {
        StrokeID(clock: clocks[$0]!.clock, replicaIndex: $0, subclock: clocks[$0]!.subclock)
      }
    return DraftSave(savedAt: time, drawing: drawing, background: background, change: change)
  }

  /// An over-estimate of a stroke's serialised size: fields, tags and lengths.
  static func estimatedSize(of stroke: Stroke) -> Int {
    guard let path = stroke.path else { return 96 }
    let stride = strideOf(path.varyingProperties)
    return 200 + path.points.count * stride
  }

  /// Bytes per point for a varying mask (docs/pkdrawing-format.md, "Point properties").
  static func strideOf(_ mask: PointProperties) -> Int {
    var size = 0
    if mask.contains(.location) { size += 8 }
    for bit in [PointProperties.timeOffset, .width, .secondaryRadius] where mask.contains(bit) { size += 4 }
    for bit in [PointProperties.aspectRatio, .edgeWidth, .force, .azimuth, .altitude, .opacity, .threshold]
    where mask.contains(bit) { size += 2 }
    return size
  }

  // MARK: - Background colours

  /// A canvas colour as `UIColor.getRed` reports it: mostly white or paper-like, some dark or
  /// coloured, a few from the extended-sRGB picker with components outside 0…1.
  static func background(_ r: inout SeededRandom) -> RGBA {
    func c(_ value: Int) -> Double { Double(value) / 255 }
    switch r.weighted([(0, 0.68), (1, 0.12), (2, 0.08), (3, 0.08), (4, 0.04)]) {
    case 0: return RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    case 1: return RGBA(red: c(r.int(245...254)), green: c(r.int(240...252)), blue: c(r.int(225...248)), alpha: 1)
    case 2:
      let v = r.int(18...44)
      return RGBA(red: c(v), green: c(v), blue: c(v + r.int(0...6)), alpha: 1)
    case 3: return RGBA(red: c(r.int(120...255)), green: c(r.int(120...255)), blue: c(r.int(120...255)), alpha: 1)
    default:
      return RGBA(
        red: float(r.double(0.95, 1.06)), green: float(r.double(-0.02, 0.4)), blue: float(r.double(-0.015, 1.04)),
        alpha: 1)
    }
  }
}
