// SHA-256 through OpenSSL's libcrypto: the content address of every blob and file.
//
// Through the low-level SHA256_Init/Update/Final, not EVP: see Sources/C/CCrypto/shim.h for
// why (EVP's first use sets up a provider in every process; the hashing itself is the same
// code).

import CCrypto

/// SHA-256 digests.
package enum SHA256 {
  /// The length of a digest in bytes.
  package static let byteCount = 32

  /// The SHA-256 digest of `bytes`.
  package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var hasher = SHA256Hasher()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// The SHA-256 digest of `bytes`.
  package static func hash(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBytes { hash($0) }
  }
}

/// SHA-256 over bytes that arrive in pieces.
///
///     var hasher = SHA256Hasher()
///     hasher.update(head)
///     hasher.update(tail)
///     let digest = hasher.finalize()  // == SHA256.hash(head + tail)
///
/// A copy of a hasher continues independently: the state is a plain C struct, held inline.
package struct SHA256Hasher {
  private var context = SHA256_CTX()

  package init() {
    restart()
  }

  /// Adds `bytes` to the message.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
    Self.check(SHA256_Update(&context, start, bytes.count))
  }

  /// The digest of everything added so far; the hasher then starts over, empty.
  package mutating func finalize() -> [UInt8] {
    let digest = [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { digest, count in
      Self.check(SHA256_Final(digest.baseAddress, &context))
      count = SHA256.byteCount
    }
    restart()
    return digest
  }

  private mutating func restart() {
    Self.check(SHA256_Init(&context))
  }

  /// The low-level calls fail only on a null argument, which this type never passes.
  private static func check(_ result: Int32) {
    precondition(result == 1, "OpenSSL SHA-256 failed")
  }
}

/// Lower-case hexadecimal, two digits per byte: `hexString([0x4f, 0x2a]) == "4f2a"`.
package func hexString(_ bytes: [UInt8]) -> String {
  let digits = Array("0123456789abcdef".utf8)
  return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
    for (i, byte) in bytes.enumerated() {
      buffer[2 * i] = digits[Int(byte >> 4)]
      buffer[2 * i + 1] = digits[Int(byte & 0x0F)]
    }
    return bytes.count * 2
  }
}

/// The bytes `hexString` wrote, or nil for text that is not an even number of hexadecimal
/// digits (either case).
package func hexBytes(_ text: String) -> [UInt8]? {
  let digits = Array(text.utf8)
  guard digits.count % 2 == 0 else { return nil }
  func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(digits.count / 2)
  var index = 0
  while index < digits.count {
    guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
    bytes.append(high << 4 | low)
    index += 2
  }
  return bytes
}
