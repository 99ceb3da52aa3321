// Unicode Normalization Form C through utf8proc: what draft names are compared in.
//
// Not Foundation's `precomposedStringWithCanonicalMapping`: it exists only in Foundation
// proper (not FoundationEssentials), and it composes wrongly after a character beyond the
// Basic Multilingual Plane ("😀" + U+0301 became "Á"); utf8proc follows UAX #15.

import CUtf8proc

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum UnicodeNFC {
  /// `text` in NFC; ASCII is returned as it is (it is always NFC).
  static func normalize(_ text: String) -> String {
    var text = text
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    return text.withUTF8 { utf8 in
      var result: UnsafeMutablePointer<utf8proc_uint8_t>?
      let options = utf8proc_option_t(rawValue: UTF8PROC_STABLE.rawValue | UTF8PROC_COMPOSE.rawValue)
      let count = utf8proc_map(utf8.baseAddress, utf8proc_ssize_t(utf8.count), &result, options)
      defer { free(result) }
      // utf8proc fails only on invalid UTF-8, which a String never holds, or out of memory.
      guard count >= 0, let result else { preconditionFailure("utf8proc_map failed: \(count)") }
      return String(decoding: UnsafeBufferPointer(start: result, count: Int(count)), as: UTF8.self)
    }
  }
}
