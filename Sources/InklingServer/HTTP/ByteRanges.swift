// `Range: bytes=…` for the downloads (RFC 9110 §14): a download cut off half way goes on from
// where it stopped, and a player or a zip reader may read the part it needs. One range only,
// as most servers answer: a list of ranges is answered with the whole body (which the RFC
// allows), since multipart/byteranges is a format no client of ours needs. A range that starts
// past the end is 416 with the length; a syntax we do not read is ignored (the whole body).
// `If-Range` with an entity tag other than the body's also gets the whole body, so a resumed
// download never splices two versions of a file.

import InklingFormats

enum ByteRanges {
  /// The bytes a `Range` header asks of a body of `length` bytes: a range (inclusive
  /// bounds), `.unsatisfiable`, or `.whole` (no header, one we do not read, or several ranges).
  enum Asked: Equatable {
    case whole
    case range(ClosedRange<Int>)
    case unsatisfiable
  }

  static func asked(_ header: String?, length: Int) -> Asked {
    guard let header else { return .whole }
    let value = header.trimmingSpaces()
    guard value.lowercased().hasPrefix("bytes=") else { return .whole }
    let spec = value.dropFirst("bytes=".count).trimmingSpaces()
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let first = spec[..<dash].trimmingSpaces()
    let last = spec[spec.index(after: dash)...].trimmingSpaces()
    func number(_ text: String) -> Int? {
      guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
      return Int(text)
    }
    if first.isEmpty {
      // The last N bytes.
      guard let suffix = number(last) else { return .whole }
      guard suffix > 0, length > 0 else { return .unsatisfiable }
      return .range(max(0, length - suffix)...(length - 1))
    }
    guard let start = number(first) else { return .whole }
    var end = length - 1
    if !last.isEmpty {
      guard let given = number(last), given >= start else { return .whole }
      end = min(given, length - 1)
    }
    guard start < length else { return .unsatisfiable }
    return .range(start...end)
  }

  /// What to send of a body of `length` bytes with entity tag `tag`, for a request with these
  /// `Range` and `If-Range` headers.
  static func wanted(_ header: String?, ifRange: String?, tag: String, length: Int) -> Asked {
    // If-Range holds an entity tag (strong comparison) or a date; we give no dates, so a date
    // never matches.
    if let ifRange, ifRange.trimmingSpaces() != "\"\(tag)\"" { return .whole }
    return asked(header, length: length)
  }

  /// `response` (a 200 that offers ranges) cut to what the request asks.
  static func apply(_ response: HTTPResponse, range header: String?, ifRange: String?, tag: String) -> HTTPResponse {
    var response = response
    response.headers.append(("Accept-Ranges", "bytes"))
    let length = response.body.count
    switch wanted(header, ifRange: ifRange, tag: tag, length: length) {
    case .whole: return response
    case .unsatisfiable: return unsatisfiable(response, length: length)
    case .range(let range):
      response.body = Array(response.body[range])
      return part(response, range, of: length, tag: nil)
    }
  }

  /// `response`, whose body is already bytes `range` of a body of `length` bytes (one built
  /// piece by piece, never whole), as the 206 that sends them, with the entity tag `tag` of
  /// the whole when ResponseEncoding does not add it.
  static func part(_ response: HTTPResponse, _ range: ClosedRange<Int>, of length: Int, tag: String?)
    -> HTTPResponse
  {
    var response = response
    response.status = 206
    response.headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"))
    if let tag {
      response.headers += [("Accept-Ranges", "bytes"), ("ETag", "\"\(tag)\"")]
    }
    return response
  }

  /// The 416 for a range past the end of a body of `length` bytes.
  static func unsatisfiable(_ response: HTTPResponse, length: Int) -> HTTPResponse {
    var response = response
    response.status = 416
    response.body = []
    response.headers.append(("Content-Range", "bytes */\(length)"))
    response.headers.removeAll { $0.0 == "Content-Disposition" }
    return response
  }
}
