// gzip through the system zlib, with a hard limit on the output.
//
// Invariants:
//  1. `decompress` never holds more than `limit + 1` output bytes: the buffer grows by
//     doubling up to that cap, and one byte past the limit is proof of a bomb.
//  2. Only one gzip member is read; bytes after it are an error rather than silently ignored,
//     so a drawing is never decoded from a prefix of what was stored.
//  3. Every z_stream is ended on every path (`defer`).

import CZlib

package enum Gzip {
  /// Why gzip data could not be unpacked.
  package enum Failure: Error, Hashable, Sendable {
    case corrupt(String)
    case tooLarge(limit: Int)
  }

  /// Whether `bytes` start with the gzip magic `1F 8B`.
  package static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Unpacks one gzip member of at most `limit` bytes.
  /// - Throws: `.tooLarge` past `limit`, `.corrupt` with zlib's message for damaged data.
  package static func decompress(_ input: UnsafeRawBufferPointer, limit: Int) throws(Failure)
    -> [UInt8]
  {
    guard let inputBase = input.baseAddress, input.count > 0 else { throw .corrupt("no data") }
    var stream = z_stream()
    // windowBits 15 + 16: gzip wrapper only (zlib manual, inflateInit2).
    guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else {
      throw .corrupt("zlib could not start")
    }
    defer { inflateEnd(&stream) }

    let cap = limit == Int.max ? limit : limit + 1
    var output = [UInt8](
      repeating: 0,
      count: min(cap, max(4096, input.count.multipliedReportingOverflow(by: 4).partialValue)))
    var produced = 0
    stream.next_in = UnsafeMutablePointer(mutating: inputBase.assumingMemoryBound(to: Bytef.self))
    // zlib counts in UInt32; feed the input in chunks so huge inputs cannot truncate the count.
    var inputLeft = input.count
    while true {
      if stream.avail_in == 0 && inputLeft > 0 {
        let chunk = min(inputLeft, Int(UInt32.max))
        stream.avail_in = UInt32(chunk)
        inputLeft -= chunk
      }
      if produced == output.count {
        guard output.count < cap else { throw .tooLarge(limit: limit) }
        let grown = output.count > cap / 2 ? cap : output.count * 2  // no overflow near Int.max
        // One zero-filled allocation (a memset), not an element-by-element append.
        output += [UInt8](repeating: 0, count: grown - output.count)
      }
      let room = min(output.count - produced, Int(UInt32.max))
      let status: Int32 = output.withUnsafeMutableBytes { raw in
        stream.next_out = raw.baseAddress!.assumingMemoryBound(to: Bytef.self) + produced
        stream.avail_out = UInt32(room)
        return inflate(&stream, Z_NO_FLUSH)
      }
      produced += room - Int(stream.avail_out)
      if produced > limit { throw .tooLarge(limit: limit) }
      switch status {
      case Z_STREAM_END:
        let consumedAll = inputLeft + Int(stream.avail_in)
        guard consumedAll == 0 else { throw .corrupt("\(consumedAll) bytes follow the gzip data") }
        output.removeLast(output.count - produced)
        return output
      case Z_OK:
        continue
      case Z_BUF_ERROR:
        // No progress possible: with output room left, the input has run out (truncated).
        if stream.avail_out > 0 && stream.avail_in == 0 && inputLeft == 0 {
          throw .corrupt("the gzip data is truncated")
        }
      default:
        let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
        throw .corrupt(message)
      }
    }
  }

  /// Packs `input` as one gzip member (level 6, no name, mtime 0): deterministic output,
  /// used for tests and fuzz seeds.
  package static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
    deflate(input, level: level, windowBits: 15 + 16)
  }

  /// `input` as a raw deflate stream, without gzip's header and trailer: what a zip entry holds.
  package static func rawDeflate(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
    deflate(input, level: level, windowBits: -15)
  }

  /// windowBits as zlib's deflateInit2 reads it: 15 + 16 for gzip, −15 for raw deflate.
  private static func deflate(_ input: [UInt8], level: Int32, windowBits: Int32) -> [UInt8] {
    var stream = z_stream()
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { fatalError("deflateInit2 failed: our parameters are valid, so zlib is out of memory") }
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, uLong(input.count)))
    var output = [UInt8](repeating: 0, count: bound)
    var input = input
    let written: Int = input.withUnsafeMutableBytes { inRaw in
      output.withUnsafeMutableBytes { outRaw in
        stream.next_in = inRaw.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = UInt32(inRaw.count)
        stream.next_out = outRaw.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(outRaw.count)
        let status = CZlib.deflate(&stream, Z_FINISH)
        precondition(status == Z_STREAM_END, "deflateBound guarantees room for Z_FINISH")
        return outRaw.count - Int(stream.avail_out)
      }
    }
    output.removeLast(output.count - written)
    return output
  }
}
