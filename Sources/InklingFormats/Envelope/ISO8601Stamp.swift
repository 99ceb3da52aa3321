// The date in a draft's file name: `yyyy-MM-dd'T'HH:mm:ss'Z'` as ISO8601DateFormatter writes
// it, plus what copies off a device may carry instead: fractional seconds and an offset.

/// A parsed file-name stamp.
public struct ISO8601Stamp: Hashable, Sendable {
  public var millisecondsSince1970: Int64
  /// The offset as written (`+02:00`), or nil for `Z`.
  public var offset: String?
  public var hasFraction: Bool
  /// The seconds were written `60`: a leap second, read as the first second of the next minute.
  public var isLeapSecond = false

  /// Whether `text` starts with something shaped as a stamp, `dddd-dd-ddTdd:dd:dd`, whether
  /// or not the date exists: to tell `Cat-2025-02-30T10:00:00Z` (a bad date) from a name.
  static func looksLikeStamp(_ text: String) -> Bool {
    let shape = Array("dddd-dd-ddTdd:dd:dd".utf8)
    let bytes = Array(text.utf8.prefix(shape.count))
    guard bytes.count == shape.count else { return false }
    return zip(bytes, shape).allSatisfy { byte, expected in
      expected == UInt8(ascii: "d") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
    }
  }

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
    var stamp = ISO8601Stamp(millisecondsSince1970: milliseconds, offset: offset, hasFraction: read.hasFraction)
    stamp.isLeapSecond = read.civil.second == 60
    // Every byte consumed is ASCII, so bytes and Unicode scalars count alike.
    return (stamp, length)
  }
}
