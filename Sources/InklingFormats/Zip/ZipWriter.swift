// A zip file (PKWARE's APPNOTE.TXT, 6.3) built in memory: what `serve` hands out as all of a
// draft's versions in one download.
//
// Only what every unzip reads: each entry deflated (or stored, when deflating does not make it
// smaller), its name in UTF-8 (general purpose bit 11), its modification time twice, as an
// MS-DOS date (two-second steps, read as local time) and exactly in Info-ZIP's "UT" extra
// field (seconds since 1970, UTC), which unzip, bsdtar and 7-Zip prefer. No Zip64: an entry
// past 4 GiB or a 65,536th entry is refused, so the 32-bit fields never wrap.

import CZlib

package struct ZipWriter {
  package enum Failure: Error, Equatable, Sendable {
    /// More than a zip without Zip64 holds: 65,535 entries, or 4 GiB in all.
    case tooLarge
  }

  private var output: [UInt8] = []
  private var directory: [UInt8] = []
  private var entries = 0

  package init() {}

  /// Adds a file called `name` (a plain name or a relative path with `/`), with `contents`,
  /// last modified `modified` seconds after 1970 (UTC).
  package mutating func add(name: String, contents: [UInt8], modified: Int64) throws(Failure) {
    let nameBytes = Array(name.utf8)
    guard entries < 0xFFFF, nameBytes.count <= 0xFFFF else { throw .tooLarge }
    let deflated = Gzip.rawDeflate(contents)
    let stored = deflated.count >= contents.count
    let body = stored ? contents : deflated
    let crc = contents.withUnsafeBufferPointer { buffer in
      UInt32(crc32(0, buffer.baseAddress, uInt(buffer.count)))
    }
    let offset = output.count
    guard offset + 30 + nameBytes.count + 9 + body.count < 0xFFFF_FFFF, contents.count < 0xFFFF_FFFF else {
      throw .tooLarge
    }
    let (time, date) = Self.dosTime(modified)
    let unixTime = UInt32(truncatingIfNeeded: min(max(modified, 0), Int64(Int32.max)))
    // The fields local header and central directory share, from "version needed" to the
    // name's length.
    var common: [UInt8] = []
    common.little(UInt16(20))  // version needed: 2.0, deflate
    common.little(UInt16(0x0800))  // the name is UTF-8
    common.little(UInt16(stored ? 0 : 8))
    common.little(time)
    common.little(date)
    common.little(crc)
    common.little(UInt32(body.count))
    common.little(UInt32(contents.count))
    common.little(UInt16(nameBytes.count))
    var extra: [UInt8] = []
    extra.little(UInt16(0x5455))  // "UT": extended timestamp
    extra.little(UInt16(5))
    extra.append(1)  // the modification time only
    extra.little(unixTime)

    output.little(UInt32(0x0403_4B50))
    output += common
    output.little(UInt16(extra.count))
    output += nameBytes
    output += extra
    output += body

    directory.little(UInt32(0x0201_4B50))
    directory.little(UInt16(0x031E))  // made by Unix, spec 3.0: the external attributes are a mode
    directory += common
    directory.little(UInt16(extra.count))
    directory.little(UInt16(0))  // comment
    directory.little(UInt16(0))  // disk
    directory.little(UInt16(0))  // internal attributes
    directory.little(UInt32(0o100644) << 16)  // a regular file, rw-r--r--
    directory.little(UInt32(offset))
    directory += nameBytes
    directory += extra
    entries += 1
  }

  /// The whole zip file: the entries, their central directory, and its end record.
  package func finished() throws(Failure) -> [UInt8] {
    guard output.count + directory.count < 0xFFFF_FFFF else { throw .tooLarge }
    var bytes = output + directory
    bytes.little(UInt32(0x0605_4B50))
    bytes.little(UInt16(0))  // this disk
    bytes.little(UInt16(0))  // the disk the directory starts on
    bytes.little(UInt16(entries))
    bytes.little(UInt16(entries))
    bytes.little(UInt32(directory.count))
    bytes.little(UInt32(output.count))
    bytes.little(UInt16(0))  // comment
    return bytes
  }

  /// An MS-DOS time and date for `seconds` after 1970, in UTC (the "UT" field carries the exact
  /// time; a reader without it sees UTC as local time), clamped to the years 1980 … 2107 it
  /// can hold.
  static func dosTime(_ seconds: Int64) -> (time: UInt16, date: UInt16) {
    let earliest: Int64 = 315_532_800  // 1980-01-01T00:00:00Z
    let latest: Int64 = 4_354_819_198  // 2107-12-31T23:59:58Z
    let clamped = min(max(seconds, earliest), latest)
    let days = clamped.quotientAndRemainderFloor(dividingBy: 86_400)
    let civil = CivilDate(daysSince1970: Int(days.quotient))
    let second = Int(days.remainder)
    let time = UInt16(second / 3600) << 11 | UInt16(second / 60 % 60) << 5 | UInt16(second % 60 / 2)
    let date = UInt16(civil.year - 1980) << 9 | UInt16(civil.month) << 5 | UInt16(civil.day)
    return (time, date)
  }
}

extension [UInt8] {
  fileprivate mutating func little(_ value: UInt16) {
    append(UInt8(value & 0xFF))
    append(UInt8(value >> 8))
  }

  fileprivate mutating func little(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
  }
}

extension Int64 {
  /// The quotient rounded toward −∞ and the remainder that goes with it (0 ≤ r < divisor).
  fileprivate func quotientAndRemainderFloor(dividingBy divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let (q, r) = quotientAndRemainder(dividingBy: divisor)
    return r < 0 ? (q - 1, r + divisor) : (q, r)
  }
}
