// Whether an MP4's H.264 stream keeps the limits of the level it is labelled with (ITU-T H.264,
// Annex A, Table A-1), read from the file itself: the level and the frame size in macroblocks
// from the sequence parameter set in the `avcC` box, the number of reference frames the decoder
// keeps from it too, the bit rate from the file's size and duration. A stream labelled with a
// level whose limits its frames pass, or with no level of the table, is what a decoder may
// refuse to play.

import Foundation

/// The H.264 stream of an MP4 and the limits of its level.
package struct H264Conformance: Equatable, CustomStringConvertible {
  /// `profile_idc` and `level_idc` (level × 10: 31 is level 3.1).
  package var profile = 0
  package var level = 0
  /// The frame in macroblocks of 16 × 16 pixels.
  package var widthInMacroblocks = 0
  package var heightInMacroblocks = 0
  /// `max_num_ref_frames`: pictures the decoder keeps.
  package var referenceFrames = 0

  /// One row of Table A-1: macroblocks a second, in a frame, in the decoded picture buffer,
  /// and the bit rate in 1000 bit/s (for the Baseline, Main and Extended profiles).
  struct Limits {
    var macroblocksPerSecond: Int
    var frameMacroblocks: Int
    var bufferMacroblocks: Int
    var kilobitsPerSecond: Int
  }

  static let table: [Int: Limits] = [
    10: Limits(macroblocksPerSecond: 1485, frameMacroblocks: 99, bufferMacroblocks: 396, kilobitsPerSecond: 64),
    11: Limits(macroblocksPerSecond: 3000, frameMacroblocks: 396, bufferMacroblocks: 900, kilobitsPerSecond: 192),
    12: Limits(macroblocksPerSecond: 6000, frameMacroblocks: 396, bufferMacroblocks: 2376, kilobitsPerSecond: 384),
    13: Limits(macroblocksPerSecond: 11880, frameMacroblocks: 396, bufferMacroblocks: 2376, kilobitsPerSecond: 768),
    20: Limits(macroblocksPerSecond: 11880, frameMacroblocks: 396, bufferMacroblocks: 2376, kilobitsPerSecond: 2000),
    21: Limits(macroblocksPerSecond: 19800, frameMacroblocks: 792, bufferMacroblocks: 4752, kilobitsPerSecond: 4000),
    22: Limits(macroblocksPerSecond: 20250, frameMacroblocks: 1620, bufferMacroblocks: 8100, kilobitsPerSecond: 4000),
    30: Limits(macroblocksPerSecond: 40500, frameMacroblocks: 1620, bufferMacroblocks: 8100, kilobitsPerSecond: 10000),
    31: Limits(
      macroblocksPerSecond: 108_000, frameMacroblocks: 3600, bufferMacroblocks: 18000, kilobitsPerSecond: 14000),
    32: Limits(
      macroblocksPerSecond: 216_000, frameMacroblocks: 5120, bufferMacroblocks: 20480, kilobitsPerSecond: 20000),
    40: Limits(
      macroblocksPerSecond: 245_760, frameMacroblocks: 8192, bufferMacroblocks: 32768, kilobitsPerSecond: 20000),
    41: Limits(
      macroblocksPerSecond: 245_760, frameMacroblocks: 8192, bufferMacroblocks: 32768, kilobitsPerSecond: 50000),
    42: Limits(
      macroblocksPerSecond: 522_240, frameMacroblocks: 8704, bufferMacroblocks: 34816, kilobitsPerSecond: 50000),
    50: Limits(
      macroblocksPerSecond: 589_824, frameMacroblocks: 22080, bufferMacroblocks: 110_400, kilobitsPerSecond: 135_000),
    51: Limits(
      macroblocksPerSecond: 983_040, frameMacroblocks: 36864, bufferMacroblocks: 184_320, kilobitsPerSecond: 240_000),
    52: Limits(
      macroblocksPerSecond: 2_073_600, frameMacroblocks: 36864, bufferMacroblocks: 184_320,
      kilobitsPerSecond: 240_000),
    60: Limits(
      macroblocksPerSecond: 4_177_920, frameMacroblocks: 139_264, bufferMacroblocks: 696_320,
      kilobitsPerSecond: 240_000),
    61: Limits(
      macroblocksPerSecond: 8_355_840, frameMacroblocks: 139_264, bufferMacroblocks: 696_320,
      kilobitsPerSecond: 480_000),
    62: Limits(
      macroblocksPerSecond: 16_711_680, frameMacroblocks: 139_264, bufferMacroblocks: 696_320,
      kilobitsPerSecond: 800_000),
  ]

  private init() {}

  /// Reads the first `avcC` box of `mp4`; nil when it has none or its SPS does not read.
  package init?(mp4 bytes: [UInt8]) {
    guard let avcC = Self.box("avcC", in: bytes[...]), avcC.count > 8 else { return nil }
    let start = avcC.startIndex
    let spsCount = Int(avcC[start + 5] & 0x1F)
    let length = Int(avcC[start + 6]) << 8 | Int(avcC[start + 7])
    guard spsCount >= 1, avcC.count >= 8 + length, length > 4 else { return nil }
    // The NAL header byte, then the SPS with its emulation-prevention bytes taken out.
    var rbsp: [UInt8] = []
    var zeros = 0
    for byte in avcC[(start + 9)..<(start + 8 + length)] {
      if zeros >= 2 && byte == 3 {
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
      rbsp.append(byte)
    }
    guard let parsed = Self.sequenceParameterSet(rbsp) else { return nil }
    self = parsed
    guard Int(avcC[start + 3]) == level else { return nil }
  }

  /// What the stream passes of its level's limits at `fps` frames a second, `bytes` long over
  /// `seconds`: empty when it keeps all of them.
  package func violations(fps: Int, bytes: Int, seconds: Double) -> [String] {
    // level_idc 9 is level 1b, which allows what 1.1 allows but the frame rate and bit rate
    // of level 1; the encoder here never writes it, so it counts as unknown.
    guard let limits = Self.table[level] else { return ["level_idc \(level) is not in the level table"] }
    var found: [String] = []
    let frame = widthInMacroblocks * heightInMacroblocks
    if frame > limits.frameMacroblocks {
      found.append("a frame of \(frame) macroblocks, above MaxFS \(limits.frameMacroblocks)")
    }
    for side in [widthInMacroblocks, heightInMacroblocks] where side * side > 8 * limits.frameMacroblocks {
      found.append("a side of \(side) macroblocks, above √(8 · MaxFS)")
    }
    if frame * fps > limits.macroblocksPerSecond {
      found.append("\(frame * fps) macroblocks a second, above MaxMBPS \(limits.macroblocksPerSecond)")
    }
    if referenceFrames * frame > limits.bufferMacroblocks {
      found.append(
        "\(referenceFrames) reference frames of \(frame) macroblocks, above MaxDpbMbs \(limits.bufferMacroblocks)")
    }
    // The High profile's bit rate limit is 1.25 times the table's (Table A-2, cpbBrNalFactor).
    let factor = profile >= 100 ? 1.25 : 1.0
    let kilobits = Double(bytes * 8) / seconds / 1000
    if seconds > 0, kilobits > Double(limits.kilobitsPerSecond) * factor {
      found.append("an average of \(Int(kilobits)) kbit/s, above MaxBR")
    }
    return found
  }

  package var description: String {
    "profile \(profile), level \(level / 10).\(level % 10), \(widthInMacroblocks * 16) × \(heightInMacroblocks * 16) "
      + "pixels coded, \(referenceFrames) reference frames"
  }

  // MARK: - Reading

  /// The body of the first box of `type`, looking inside the boxes that hold others.
  static func box(_ type: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    var offset = bytes.startIndex
    while offset + 8 <= bytes.endIndex {
      let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      let name = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      guard size >= 8, offset + size <= bytes.endIndex else { return nil }
      let body = bytes[(offset + 8)..<(offset + size)]
      if name == type { return body }
      // `stsd` has 8 bytes (version, flags, count) before its entries; `avc1`, a visual sample
      // entry, 78 before its boxes.
      let skip = ["moov": 0, "trak": 0, "mdia": 0, "minf": 0, "stbl": 0, "stsd": 8, "avc1": 78][name]
      if let skip, body.count > skip, let found = box(type, in: body.dropFirst(skip)) { return found }
      offset += size
    }
    return nil
  }

  /// The fields of a sequence parameter set up to the frame size (H.264 7.3.2.1.1).
  static func sequenceParameterSet(_ rbsp: [UInt8]) -> H264Conformance? {
    var bits = BitReader(rbsp)
    var stream = H264Conformance()
    guard let profile = bits.read(8), bits.read(8) != nil, let level = bits.read(8) else { return nil }
    stream.profile = profile
    stream.level = level
    guard bits.unsigned() != nil else { return nil }
    if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
      guard let chroma = bits.unsigned() else { return nil }
      if chroma == 3 { _ = bits.read(1) }
      guard bits.unsigned() != nil, bits.unsigned() != nil, bits.read(1) != nil, let matrix = bits.read(1)
      else { return nil }
      if matrix == 1 {
        for list in 0..<(chroma == 3 ? 12 : 8) where bits.read(1) == 1 {
          var last = 8
          var next = 8
          for _ in 0..<(list < 6 ? 16 : 64) where next != 0 {
            guard let delta = bits.signed() else { return nil }
            next = (last + delta + 256) % 256
            if next != 0 { last = next }
          }
        }
      }
    }
    guard bits.unsigned() != nil, let order = bits.unsigned() else { return nil }
    if order == 0 {
      guard bits.unsigned() != nil else { return nil }
    } else if order == 1 {
      guard bits.read(1) != nil, bits.signed() != nil, bits.signed() != nil, let cycle = bits.unsigned() else {
        return nil
      }
      for _ in 0..<cycle { guard bits.signed() != nil else { return nil } }
    }
    guard let references = bits.unsigned(), bits.read(1) != nil, let width = bits.unsigned(),
      let height = bits.unsigned(), let framesOnly = bits.read(1)
    else { return nil }
    stream.referenceFrames = references
    stream.widthInMacroblocks = width + 1
    stream.heightInMacroblocks = (height + 1) * (2 - framesOnly)
    return stream
  }

  /// Bits of a byte array, most significant first, with H.264's Exp-Golomb codes.
  struct BitReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> Int? {
      guard position + count <= bytes.count * 8 else { return nil }
      var value = 0
      for _ in 0..<count {
        value = value << 1 | Int(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
        position += 1
      }
      return value
    }

    /// ue(v).
    mutating func unsigned() -> Int? {
      var zeros = 0
      while true {
        guard let bit = read(1) else { return nil }
        if bit == 1 { break }
        zeros += 1
        if zeros > 31 { return nil }
      }
      guard let rest = read(zeros) else { return nil }
      return (1 << zeros) - 1 + rest
    }

    /// se(v).
    mutating func signed() -> Int? {
      guard let code = unsigned() else { return nil }
      return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }
  }
}
