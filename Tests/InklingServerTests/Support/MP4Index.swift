import Foundation

/// What an MP4's index says of its one video track: the frame size, each frame's duration,
/// which frames are keyframes, how many there are. Two encodings of the same frames share it.
struct MP4Index: Equatable {
  var width = 0
  var height = 0
  /// `stts`, `stss` and the sample count of `stsz`, as stored.
  var durations: [UInt8] = []
  var keyframes: [UInt8] = []
  var samples = 0

  init(_ bytes: [UInt8]) {
    read(bytes[...])
  }

  private mutating func read(_ bytes: ArraySlice<UInt8>) {
    var offset = bytes.startIndex
    while offset + 8 <= bytes.endIndex {
      let size = Int(Self.number(bytes, offset, 4))
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      guard size >= 8, offset + size <= bytes.endIndex else { return }
      let body = bytes[(offset + 8)..<(offset + size)]
      switch type {
      case "moov", "trak", "mdia", "minf", "stbl": read(body)
      case "tkhd" where body.count >= 84:
        width = Int(Self.number(body, body.endIndex - 8, 2))
        height = Int(Self.number(body, body.endIndex - 4, 2))
      case "stts": durations = Array(body)
      case "stss": keyframes = Array(body)
      case "stsz" where body.count >= 12: samples = Int(Self.number(body, body.startIndex + 8, 4))
      default: break
      }
      offset += size
    }
  }

  private static func number(_ bytes: ArraySlice<UInt8>, _ at: Int, _ count: Int) -> UInt64 {
    bytes[at..<(at + count)].reduce(0) { $0 << 8 | UInt64($1) }
  }
}
