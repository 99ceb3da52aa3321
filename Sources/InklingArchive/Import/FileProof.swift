// Whether a rebuilt file shows what the archive says it does. A file's SHA-256 proves its
// bytes, not that the drawing stored beside it is the drawing it holds: an envelope that keeps
// its base64 text verbatim, or whose drawing offset points elsewhere, rebuilds the right file
// around any drawing. Parsed as an import parses a file, the file must give back that drawing
// and that envelope.

import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum FileProof {
  /// The envelope `file` parses to, when it holds exactly `drawing` and `template` is its
  /// envelope; nil otherwise.
  static func envelope(of file: [UInt8], holding drawing: [UInt8], template: EnvelopeTemplate) -> DraftEnvelope? {
    guard let envelope = try? DraftEnvelope.parse(file), envelope.template == template,
      envelope.drawing.count == drawing.count
    else { return nil }
    let same = envelope.drawing.withUnsafeBytes { parsed in
      drawing.withUnsafeBytes { stored in
        stored.isEmpty || memcmp(parsed.baseAddress!, stored.baseAddress!, stored.count) == 0
      }
    }
    return same ? envelope : nil
  }
}
