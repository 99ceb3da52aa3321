// Limits the drawing reader enforces instead of trusting the input.
//
// Every count in a drawing is a claim made by the bytes; the reader checks each claim against
// these limits *before* it allocates, so a few hundred hostile bytes cannot make it allocate
// gigabytes (a path with a per-point stride of 0 can claim 2^60 points in 12 bytes) or recurse
// without end (substrokes nest).

/// The most a drawing may contain before the reader refuses it.
///
/// The defaults are far above anything a person draws (a dense page of handwriting is about
/// 100,000 points) and keep the decoded model under about 500 MB:
///
/// ```swift
/// var limits = DrawingLimits.default
/// limits.maxPoints = 100_000          // thumbnails of untrusted uploads
/// let result = try DrawingReader.read(bytes, limits: limits)
/// ```
public struct DrawingLimits: Hashable, Sendable {
  /// Most bytes of drawing data as given.
  public var maxBytes: Int
  /// Most bytes a gzipped drawing may unpack to (the gzip bomb limit): far above any real
  /// drawing, far below the memory an import may use per worker.
  public var maxInflatedBytes: Int
  /// Most path points plus mask-polygon vertices (and polygons) in the whole drawing.
  public var maxPoints: Int
  /// Most strokes, counting substrokes at every level.
  public var maxStrokes: Int
  /// Most levels of substrokes below a top-level stroke. Values above
  /// `hardMaxNestingDepth` act as `hardMaxNestingDepth`: the reader recurses once per level.
  public var maxNestingDepth: Int
  /// Most entries in the ink table.
  public var maxInks: Int
  /// Most replica UUIDs, and most version-vector entries.
  public var maxReplicas: Int

  public init(
    maxBytes: Int = 256 << 20, maxPoints: Int = 4_000_000, maxStrokes: Int = 250_000,
    maxNestingDepth: Int = 32, maxInks: Int = 10_000, maxReplicas: Int = 100_000,
    maxInflatedBytes: Int = 32 << 20
  ) {
    self.maxBytes = maxBytes
    self.maxInflatedBytes = maxInflatedBytes
    self.maxPoints = maxPoints
    self.maxStrokes = maxStrokes
    self.maxNestingDepth = maxNestingDepth
    self.maxInks = maxInks
    self.maxReplicas = maxReplicas
  }

  /// 256 MiB, 4 million points, 250,000 strokes, 32 levels, 10,000 inks, 100,000 replicas.
  public static let `default` = DrawingLimits()

  /// The nesting depth the reader never exceeds, whatever `maxNestingDepth` says.
  public static let hardMaxNestingDepth = 256

  /// `maxNestingDepth` clamped to 0…`hardMaxNestingDepth`.
  var effectiveNestingDepth: Int { min(max(maxNestingDepth, 0), Self.hardMaxNestingDepth) }
}
