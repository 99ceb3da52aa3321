// The largest frame an H.264 stream can carry. The standard's level table (ITU-T H.264,
// Table A-1) ends at level 6.2, whose frames hold at most 139,264 macroblocks of 16 × 16
// pixels (MaxFS), no side longer than √(8 · MaxFS) macroblocks, and whose decoders take at most
// 16,711,680 macroblocks a second (MaxMBPS). A larger frame makes a stream that no level
// describes, which a decoder may refuse and libx264 would still label 6.2, so `MP4Sink` refuses
// it before a frame is drawn. Within the table, libx264 labels each stream with the lowest
// level whose limits its frames keep.

enum H264Level {
  /// Level 6.2's MaxFS: the macroblocks of the largest frame any level allows.
  static let maximumMacroblocks = 139_264
  /// Level 6.2's MaxMBPS. At the 120 frames a second `TimelapseOptions.fpsRange` allows, a
  /// frame of `maximumMacroblocks` is exactly this; the check keeps it true if that changes.
  static let maximumMacroblocksPerSecond = 16_711_680

  /// The macroblocks of a `width` × `height` frame (its sides rounded up to 16 pixels, as
  /// the encoder pads them).
  static func macroblocks(width: Int, height: Int) -> Int { ((width + 15) / 16) * ((height + 15) / 16) }

  /// True when frames of `width` × `height` at `fps` a second are within level 6.2.
  static func allows(width: Int, height: Int, fps: Int) -> Bool {
    let blocks = macroblocks(width: width, height: height)
    let longest = (Swift.max(width, height) + 15) / 16
    return blocks <= maximumMacroblocks && longest * longest <= 8 * maximumMacroblocks
      && blocks * fps <= maximumMacroblocksPerSecond
  }
}
