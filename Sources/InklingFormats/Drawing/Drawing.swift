// The PencilKit drawing model: what `PKDrawing.dataRepresentation()` holds, with the names
// of PencilKit's public API (`PKDrawing`, `PKStroke`, `PKInk`, `PKStrokePath`,
// `PKStrokePoint`) so that an iOS developer recognises it. Field numbers refer to
// docs/pkdrawing-format.md.

/// A 2-D point or vector in drawing coordinates (points).
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// An axis-aligned rectangle in drawing coordinates.
public struct Rect: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
  public var minX: Double { x }
  public var minY: Double { y }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
}

/// An sRGB colour as stored by PencilKit (`Color`, floats) or Inkling (doubles); components
/// may lie outside 0…1 (extended sRGB) and are kept as they are.
public struct RGBA: Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double
  public init(red: Double, green: Double, blue: Double, alpha: Double) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }
}

/// An affine transform `[a b; c d] + (tx, ty)`, as CGAffineTransform: x' = a·x + c·y + tx.
public struct AffineTransform: Hashable, Sendable {
  public var a, b, c, d, tx, ty: Double
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
  public var isIdentity: Bool { self == .identity }
  public func apply(_ p: Point) -> Point {
    Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
  }
}

/// `StrokeID`: PencilKit's logical clock for ordering and merging strokes.
public struct StrokeID: Hashable, Sendable {
  public var clock: UInt64
  public var replicaIndex: UInt64
  public var subclock: UInt64
  public init(clock: UInt64, replicaIndex: UInt64, subclock: UInt64) {
    self.clock = clock
    self.replicaIndex = replicaIndex
    self.subclock = subclock
  }
  /// The replica index PencilKit writes for "no replica" (2^63 − 1).
  public static let noReplica: UInt64 = (1 << 63) - 1
}

/// A 16-byte UUID as raw bytes (PencilKit stores UUIDs as 16-byte fields).
///
/// Sixteen bytes, the only length the reader accepts, are held in two words: a decoded stroke
/// has two or three UUIDs, and as arrays they would be an allocation each. Any other
/// length (a model built by hand, which the writer refuses) is held as given.
public struct UUIDBytes: Hashable, Sendable {
  private enum Storage: Hashable, Sendable {
    /// The bytes in order, as two big-endian words.
    case sixteen(UInt64, UInt64)
    case other([UInt8])
  }

  private var storage: Storage

  public init(_ bytes: [UInt8]) { storage = Self.storage(of: bytes) }

  /// The UUID whose bytes are `high` then `low`, each big-endian.
  package init(high: UInt64, low: UInt64) { storage = .sixteen(high, low) }

  public static let zero = UUIDBytes(high: 0, low: 0)

  public var bytes: [UInt8] {
    get {
      switch storage {
      case .sixteen(let high, let low): withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
      case .other(let bytes): bytes
      }
    }
    set { storage = Self.storage(of: newValue) }
  }

  /// How many bytes: 16 for any UUID the reader gives.
  public var count: Int {
    switch storage {
    case .sixteen: 16
    case .other(let bytes): bytes.count
    }
  }

  /// The bytes as two big-endian words; nil unless there are 16.
  package var words: (high: UInt64, low: UInt64)? {
    guard case .sixteen(let high, let low) = storage else { return nil }
    return (high, low)
  }

  /// Equal bytes have equal storage, so the synthesised `==` and `hash` compare bytes.
  private static func storage(of bytes: [UInt8]) -> Storage {
    guard bytes.count == 16 else { return .other(bytes) }
    return .sixteen(
      bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }, bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
  }
}

/// `PKInk`: the tool a stroke was drawn with.
public struct Ink: Hashable, Sendable {
  /// The kinds of ink PencilKit names (`PKInk.InkType`); `other` keeps an unknown identifier.
  public enum InkType: Hashable, Sendable {
    case pen, pencil, marker, monoline, fountainPen, watercolor, crayon, eraser
    case other(String)

    public init(identifier: String) {
      var identifier = identifier
      self = identifier.withUTF8 { InkType(identifier: UnsafeRawBufferPointer($0)) }
    }

    public var identifier: String {
      switch self {
      case .pen: "com.apple.ink.pen"
      case .pencil: "com.apple.ink.pencil"
      case .marker: "com.apple.ink.marker"
      case .monoline: "com.apple.ink.monoline"
      case .fountainPen: "com.apple.ink.fountainpen"
      case .watercolor: "com.apple.ink.watercolor"
      case .crayon: "com.apple.ink.crayon"
      case .eraser: "com.apple.ink.eraser"
      case .other(let identifier): identifier
      }
    }

    /// The type whose identifier is the UTF-8 `bytes`: a known type is matched on the bytes,
    /// so reading one makes no string (drawings name the ink of every stroke's ink table).
    init(identifier bytes: UnsafeRawBufferPointer) {
      // By index, in place: iterating copied each entry, a retain and a release of its array.
      for index in Self.known.indices where Self.known[index].utf8.count == bytes.count {
        if Self.known[index].utf8.withUnsafeBytes({ $0.elementsEqual(bytes) }) {
          self = Self.known[index].type
          return
        }
      }
      self = .other(String(decoding: bytes, as: UTF8.self))
    }

    /// The kinds PencilKit names, in the order of `PKInk.InkType`'s documentation.
    public static let knownTypes: [InkType] = [
      .pen, .pencil, .marker, .monoline, .fountainPen, .watercolor, .crayon, .eraser,
    ]

    private static let known: [(type: InkType, utf8: [UInt8])] = knownTypes.map { ($0, Array($0.identifier.utf8)) }

    /// A short name for people and queries: `pen`, `marker`, `fountainpen`, … (the
    /// identifier without "com.apple.ink."; a literal for the known types, since the index
    /// names every ink of every draft it reads).
    public var name: String {
      switch self {
      case .pen: "pen"
      case .pencil: "pencil"
      case .marker: "marker"
      case .monoline: "monoline"
      case .fountainPen: "fountainpen"
      case .watercolor: "watercolor"
      case .crayon: "crayon"
      case .eraser: "eraser"
      case .other(let id): id.hasPrefix("com.apple.ink.") ? String(id.dropFirst("com.apple.ink.".count)) : id
      }
    }
  }

  public var inkType: InkType
  public var color: RGBA
  /// `Ink.3`: the ink's version (3 or 4 seen).
  public var version: UInt64?
  /// `Ink.4`: a variant such as `"linear"` on a marker.
  public var variant: String?
  /// `Ink.7`: the required content version.
  public var requiredContentVersion: UInt64?
  /// `Ink.8`: the ink weight (iOS 26).
  public var weight: Double?

  public init(
    inkType: InkType, color: RGBA, version: UInt64? = nil, variant: String? = nil,
    requiredContentVersion: UInt64? = nil, weight: Double? = nil
  ) {
    self.inkType = inkType
    self.color = color
    self.version = version
    self.variant = variant
    self.requiredContentVersion = requiredContentVersion
    self.weight = weight
  }
}

/// `PKStrokePoint`: one control point of a stroke's B-spline with its properties.
/// Properties a path does not store take PencilKit's defaults.
public struct StrokePoint: Hashable, Sendable {
  public var location: Point
  public var timeOffset: Double
  /// `size.width`: in PencilKit's own code a *radius* (docs/pkdrawing-format.md, "Geometry").
  public var width: Double
  /// `size.height / size.width`.
  public var aspectRatio: Double
  public var edgeWidth: Double
  public var force: Double
  /// Radians.
  public var azimuth: Double
  /// Radians.
  public var altitude: Double
  /// 0…2 as stored; clamp to 1 when drawing.
  public var opacity: Double
  public var secondaryRadius: Double
  public var threshold: Double

  public init(
    location: Point, timeOffset: Double = 0, width: Double = 1, aspectRatio: Double = 1,
    edgeWidth: Double = 0, force: Double = 1, azimuth: Double = 0, altitude: Double = .pi / 2,
    opacity: Double = 1, secondaryRadius: Double = 0, threshold: Double = 0
  ) {
    self.location = location
    self.timeOffset = timeOffset
    self.width = width
    self.aspectRatio = aspectRatio
    self.edgeWidth = edgeWidth
    self.force = force
    self.azimuth = azimuth
    self.altitude = altitude
    self.opacity = opacity
    self.secondaryRadius = secondaryRadius
    self.threshold = threshold
  }

  /// `size` as PencilKit reports it: width and width × aspect ratio.
  public var size: (width: Double, height: Double) { (width, width * aspectRatio) }
}

/// The per-point properties a path stores (the bits of `StrokeData.4` and `StrokeData.5`).
public struct PointProperties: OptionSet, Hashable, Sendable {
  public let rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public static let location = PointProperties(rawValue: 0x001)
  public static let timeOffset = PointProperties(rawValue: 0x002)
  public static let width = PointProperties(rawValue: 0x004)
  public static let aspectRatio = PointProperties(rawValue: 0x008)
  public static let edgeWidth = PointProperties(rawValue: 0x010)
  public static let force = PointProperties(rawValue: 0x020)
  public static let azimuth = PointProperties(rawValue: 0x040)
  public static let altitude = PointProperties(rawValue: 0x080)
  public static let opacity = PointProperties(rawValue: 0x100)
  public static let secondaryRadius = PointProperties(rawValue: 0x200)
  public static let threshold = PointProperties(rawValue: 0x400)
  /// Every bit this reader knows, in storage order.
  public static let known = PointProperties(rawValue: 0x7FF)
}

/// `PKStrokePath`: the control points of a uniform cubic B-spline and their properties.
public struct StrokePath: Hashable, Sendable {
  public var uuid: UUIDBytes?
  /// `StrokeData.2`: seconds since 2001-01-01T00:00:00Z (Apple's reference date).
  public var creationDate: Double
  public var points: [StrokePoint]
  /// Which properties vary per point (`StrokeData.4`) and which are stored once (`.5`).
  public var varyingProperties: PointProperties
  public var constantProperties: PointProperties
  public var createdWithFinger: Bool
  /// The points as records in the bytes read, when the read left them there
  /// (`DrawingReader.read(_:leavingPointsEncoded:skipping:)`); `points` is then empty.
  package var encodedPoints: EncodedPoints?

  public init(
    uuid: UUIDBytes? = nil, creationDate: Double, points: [StrokePoint],
    varyingProperties: PointProperties = [.location, .timeOffset],
    constantProperties: PointProperties = PointProperties(rawValue: 0x3FC),
    createdWithFinger: Bool = false
  ) {
    self.uuid = uuid
    self.creationDate = creationDate
    self.points = points
    self.varyingProperties = varyingProperties
    self.constantProperties = constantProperties
    self.createdWithFinger = createdWithFinger
  }

  /// A path whose points may be left encoded (`encodedPoints`; then `points` is empty).
  package init(
    uuid: UUIDBytes?, creationDate: Double, points: [StrokePoint], varyingProperties: PointProperties,
    constantProperties: PointProperties, createdWithFinger: Bool, encodedPoints: EncodedPoints?
  ) {
    self.init(
      uuid: uuid, creationDate: creationDate, points: points, varyingProperties: varyingProperties,
      constantProperties: constantProperties, createdWithFinger: createdWithFinger)
    self.encodedPoints = encodedPoints
  }
}

/// `PKStroke`: one stroke, or an erased stroke kept hidden, or a stroke split by the pixel
/// eraser into substrokes.
public struct Stroke: Hashable, Sendable {
  public var uuid: UUIDBytes?
  /// `Stroke.2`: sort order.
  public var sortID: StrokeID?
  /// `Stroke.3`: version; PencilKit drops a stroke that lacks it.
  public var versionID: StrokeID?
  /// Index into `Drawing.inks`.
  public var inkIndex: Int
  /// `Stroke.5`; absent on hidden strokes and inherited by substrokes.
  public var path: StrokePath?
  /// `Stroke.6`: the render bounds PencilKit computed, when stored.
  public var storedBounds: Rect?
  public var transform: AffineTransform
  /// `Stroke.8` bit 0.
  public var isHidden: Bool
  /// `Stroke.8` bits 5 and up.
  public var randomSeed: UInt64
  public var substrokesVersion: StrokeID?
  /// `Stroke.10`: the visible region after the pixel eraser, polygons in stroke space.
  public var maskPolygons: [[Point]]
  /// `Stroke.11`.
  public var substrokes: [Stroke]
  /// `Stroke.12`: pairs (start, end) of the parent path's parameter that stay visible.
  public var slices: [Float]
  public var renderGroupID: UUIDBytes?

  @inlinable public init(
    uuid: UUIDBytes? = nil, sortID: StrokeID? = nil, versionID: StrokeID? = nil,
    inkIndex: Int, path: StrokePath?, storedBounds: Rect? = nil,
    transform: AffineTransform = .identity, isHidden: Bool = false, randomSeed: UInt64 = 0,
    substrokesVersion: StrokeID? = nil, maskPolygons: [[Point]] = [], substrokes: [Stroke] = [],
    slices: [Float] = [], renderGroupID: UUIDBytes? = nil
  ) {
    self.uuid = uuid
    self.sortID = sortID
    self.versionID = versionID
    self.inkIndex = inkIndex
    self.path = path
    self.storedBounds = storedBounds
    self.transform = transform
    self.isHidden = isHidden
    self.randomSeed = randomSeed
    self.substrokesVersion = substrokesVersion
    self.maskPolygons = maskPolygons
    self.substrokes = substrokes
    self.slices = slices
    self.renderGroupID = renderGroupID
  }
}

/// `PKDrawing`: a container header and a `Drawing` message.
public struct Drawing: Hashable, Sendable {
  /// The container's format version byte (1 in every sample).
  public var formatVersion: UInt8
  /// `Drawing.2`: replica UUIDs; the first is all zeros.
  public var replicas: [UUIDBytes]
  /// `Drawing.3`: the version vector.
  public var versionVector: [StrokeID]
  public var inks: [Ink]
  public var strokes: [Stroke]
  /// `Drawing.6`: canvas bounds (zeros in samples).
  public var canvasBounds: Rect?
  public var boundsVersion: StrokeID?
  public var uuid: UUIDBytes?

  public init(
    formatVersion: UInt8 = 1, replicas: [UUIDBytes] = [.zero], versionVector: [StrokeID] = [],
    inks: [Ink] = [], strokes: [Stroke] = [], canvasBounds: Rect? = nil,
    boundsVersion: StrokeID? = nil, uuid: UUIDBytes? = nil
  ) {
    self.formatVersion = formatVersion
    self.replicas = replicas
    self.versionVector = versionVector
    self.inks = inks
    self.strokes = strokes
    self.canvasBounds = canvasBounds
    self.boundsVersion = boundsVersion
    self.uuid = uuid
  }

  /// The ink of a stroke, or nil when its index is out of range.
  public func ink(of stroke: Stroke) -> Ink? {
    inks.indices.contains(stroke.inkIndex) ? inks[stroke.inkIndex] : nil
  }
}
