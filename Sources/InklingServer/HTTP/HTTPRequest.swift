// A request as the routes see it, and the strict reading of its target (the path and query the
// client sent, still percent-encoded: HTTPDBridge keeps it before MHD decodes it).
//
// Invariants of a RequestTarget (anything else is refused before routing, with 400 or 414):
//   1. the target is origin-form: it starts with `/`; no fragment;
//   2. the path is at most `maxPathBytes` and the query at most `maxQueryBytes` bytes;
//   3. every segment and every query key and value decodes (percent escapes well-formed, the
//      bytes UTF-8) to text without NUL or other control characters;
//   4. no decoded segment holds `/` or `\` (an encoded slash is not a separator), and none is
//      `.` or `..` (routes never meet a relative segment, encoded or not).
// Routes only compare segments with fixed names and hand parameters to archive operations;
// nothing here ever becomes a file path.

/// One request: method, raw target, and its headers (looked up while the handler runs).
struct HTTPRequest {
  let method: String
  /// The protocol version of the request line: `HTTP/1.1`, `HTTP/1.0`.
  var version = "HTTP/1.1"
  /// The request target as sent: `/draft?name=Plan%2DB`.
  let target: String
  /// The value of a request header (case-insensitive name); valid only during the handler.
  let header: (String) -> String?
}

/// Why a target was refused.
struct TargetProblem: Error, Equatable {
  var status: Int
  var message: String
}

/// A request target, decoded and checked (see the invariants above).
struct RequestTarget: Equatable {
  static let maxPathBytes = 2048
  static let maxQueryBytes = 16384

  /// The decoded path segments: `/draft/x` is ["draft", "x"], `/` is [].
  var segments: [String]
  /// Decoded query parameters in order; a key given twice keeps both.
  var query: [(key: String, value: String)]

  static func == (a: RequestTarget, b: RequestTarget) -> Bool {
    a.segments == b.segments && a.query.map(\.key) == b.query.map(\.key) && a.query.map(\.value) == b.query.map(\.value)
  }

  /// The first value of query parameter `key`.
  func parameter(_ key: String) -> String? { query.first { $0.key == key }?.value }

  init(_ raw: String) throws(TargetProblem) {
    let bytes = Array(raw.utf8)
    guard bytes.first == UInt8(ascii: "/") else {
      throw TargetProblem(status: 400, message: "the request target must be a path starting with /")
    }
    guard !bytes.contains(UInt8(ascii: "#")) else {
      throw TargetProblem(status: 400, message: "a request target has no fragment (#)")
    }
    let split = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
    let path = bytes[..<split]
    let query = split < bytes.endIndex ? bytes[(split + 1)...] : []
    guard path.count <= Self.maxPathBytes else {
      throw TargetProblem(status: 414, message: "the path is longer than \(Self.maxPathBytes) bytes")
    }
    guard query.count <= Self.maxQueryBytes else {
      throw TargetProblem(status: 414, message: "the query is longer than \(Self.maxQueryBytes) bytes")
    }
    segments = []
    for raw in path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      let segment = try Self.decode(raw, plusIsSpace: false, what: "the path")
      guard !segment.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) else {
        throw TargetProblem(status: 400, message: "a path segment holds an encoded slash")
      }
      guard segment != ".", segment != ".." else {
        throw TargetProblem(status: 400, message: "the path holds a relative segment (. or ..)")
      }
      segments.append(segment)
    }
    if segments == [""] { segments = [] }
    self.query = []
    for pair in query.split(separator: UInt8(ascii: "&")) {
      let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
      let key = try Self.decode(pair[..<equals], plusIsSpace: true, what: "the query")
      let value =
        equals < pair.endIndex ? try Self.decode(pair[(equals + 1)...], plusIsSpace: true, what: "the query") : ""
      self.query.append((key, value))
    }
  }

  /// Percent-decodes `raw` (and `+` as a space in a query) to text; refuses malformed escapes,
  /// bytes that are not UTF-8 and control characters.
  private static func decode(_ raw: ArraySlice<UInt8>, plusIsSpace: Bool, what: String) throws(TargetProblem)
    -> String
  {
    // Most segments and values are plain printable ASCII: they are their own text.
    if raw.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "+") }) {
      return String(decoding: raw, as: UTF8.self)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var index = raw.startIndex
    while index < raw.endIndex {
      let byte = raw[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < raw.endIndex,
          let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2])
        else { throw TargetProblem(status: 400, message: "\(what) has a malformed percent escape") }
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw TargetProblem(status: 400, message: "\(what) is not UTF-8 text")
    }
    guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw TargetProblem(status: 400, message: "\(what) holds a control character (NUL, newline, …)")
    }
    return text
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
