// The date in a draft's file name: `yyyy-MM-dd'T'HH:mm:ss'Z'` as ISO8601DateFormatter writes
// it, plus what copies off a device may carry instead: fractional seconds and an offset.

/// A parsed file-name stamp.
public struct ISO8601Stamp: Hashable, Sendable {
  public var millisecondsSince1970: Int64
  /// The offset as written (`+02:00`), or nil for `Z`.
  public var offset: String?
  public var hasFraction: Bool

  /// Parses a stamp at the start of `text`; returns it and its length in Unicode scalars.
  static func parsePrefix(_ text: String) -> (ISO8601Stamp, Int)? {
    guard let (read, length) = ISO8601DateTime.scan(Array(text.utf8)), !read.hasSpaceSeparator, read.hasSeconds,
      let zone = read.zone, let milliseconds = read.millisecondsSince1970
    else { return nil }
    let offset: String? =
      switch zone {
      case .utc: nil
      case .offset(_, let text): text
      }
    let stamp = ISO8601Stamp(millisecondsSince1970: milliseconds, offset: offset, hasFraction: read.hasFraction)
    // Every byte consumed is ASCII, so bytes and Unicode scalars count alike.
    return (stamp, length)
  }
}
