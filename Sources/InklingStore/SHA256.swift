// SHA-256 through OpenSSL's libcrypto: the content address of every blob and file.
//
// The one-shot `SHA256()` is OpenSSL's own fast path (assembly, SHA extensions when the
// CPU has them) and is not deprecated in OpenSSL 3; streaming uses EVP, because the
// low-level SHA256_Init/Update/Final are (https://www.openssl.org/docs/man3.0/man7/migration_guide.html).

import CCrypto

/// SHA-256 digests.
package enum SHA256 {
  /// The length of a digest in bytes.
  package static let byteCount = 32

  /// The SHA-256 digest of `bytes`.
  package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    // An empty buffer may have no address; OpenSSL wants one anyway.
    guard let start = bytes.baseAddress else {
      var empty: UInt8 = 0
      return withUnsafeBytes(of: &empty) { hash(UnsafeRawBufferPointer(start: $0.baseAddress, count: 0)) }
    }
    return [UInt8](unsafeUninitializedCapacity: byteCount) { digest, count in
      CCrypto.SHA256(start.assumingMemoryBound(to: UInt8.self), bytes.count, digest.baseAddress)
      count = byteCount
    }
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
/// A copy of a hasher continues independently (copy on write).
package struct SHA256Hasher {
  private var context: Context

  package init() {
    context = Context()
  }

  /// Adds `bytes` to the message.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    unique()
    Context.check(EVP_DigestUpdate(context.pointer, bytes.baseAddress, bytes.count))
  }

  /// The digest of everything added so far; the hasher then starts over, empty.
  package mutating func finalize() -> [UInt8] {
    unique()
    let digest = [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { digest, count in
      var length: UInt32 = 0
      Context.check(EVP_DigestFinal_ex(context.pointer, digest.baseAddress, &length))
      count = Int(length)
    }
    context.restart()
    return digest
  }

  private mutating func unique() {
    if !isKnownUniquelyReferenced(&context) { context = context.copy() }
  }

  /// Owns one EVP_MD_CTX.
  private final class Context {
    /// The SHA-256 implementation, fetched once: an implicit fetch on every
    /// EVP_DigestInit_ex costs more than hashing a small blob (OpenSSL 3 "fetching" docs).
    /// `nonisolated(unsafe)` because OpaquePointer is not Sendable; a fetched EVP_MD is
    /// immutable and may be shared by threads (OpenSSL 3 openssl-threads(7)).
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    let pointer: OpaquePointer

    init() {
      // Allocation failure is the only way this fails; Swift traps on out-of-memory too.
      guard let pointer = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
      self.pointer = pointer
      restart()
    }

    private init(copying other: Context) {
      guard let pointer = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
      self.pointer = pointer
      Self.check(EVP_MD_CTX_copy_ex(pointer, other.pointer))
    }

    deinit {
      EVP_MD_CTX_free(pointer)
    }

    func copy() -> Context { Context(copying: self) }

    func restart() {
      Self.check(EVP_DigestInit_ex(pointer, Self.algorithm ?? EVP_sha256(), nil))
    }

    /// EVP calls on a valid SHA-256 context fail only on out-of-memory or a broken
    /// OpenSSL installation; neither can be recovered from here.
    static func check(_ result: Int32) {
      precondition(result == 1, "OpenSSL SHA-256 failed")
    }
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
