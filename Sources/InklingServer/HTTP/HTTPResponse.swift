// A response as the routes build it: status, headers, body, and how it may be cached.
// ResponseEncoding.swift finishes it (entity tag, 304, gzip, the headers every response gets).

/// How long a client may keep a response.
enum CachePolicy: Equatable {
  /// Revalidate every time (with its entity tag): pages and JSON, which change as drafts
  /// are imported.
  case revalidate
  /// Never changes at this URL (a version's images, assets named by their content).
  case immutable
  /// Not stored at all: errors, the token redirect.
  case none

  var header: String {
    switch self {
    // `private`: every response holds the archive, which is the user's alone; a shared cache
    // between the browser and the server would hand it to whoever asks for the same URL.
    case .revalidate: "private, no-cache"
    case .immutable: "private, max-age=31536000, immutable"
    case .none: "no-store"
    }
  }
}

/// What a route answers.
struct HTTPResponse {
  var status: Int
  var headers: [(String, String)]
  var body: [UInt8]
  var cache: CachePolicy
  /// The entity tag (without quotes) when the route knows one cheaper than hashing the body;
  /// else ResponseEncoding computes one for a 200.
  var tag: String?
  /// Whether a `Range` request gets part of the body (downloads: ByteRanges.swift).
  var ranges = false

  init(
    status: Int = 200, contentType: String, body: [UInt8], cache: CachePolicy = .revalidate, tag: String? = nil,
    headers: [(String, String)] = []
  ) {
    self.status = status
    self.headers = [("Content-Type", contentType)] + headers
    self.body = body
    self.cache = cache
    self.tag = tag
  }

  /// The value of header `name` set so far (case-insensitive).
  func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }

  static let html = "text/html; charset=utf-8"
  static let json = "application/json; charset=utf-8"
  static let text = "text/plain; charset=utf-8"
  static let png = "image/png"

  /// A redirect to a path of this server.
  static func redirect(to location: String, status: Int = 302, headers: [(String, String)] = []) -> HTTPResponse {
    HTTPResponse(
      status: status, contentType: text, body: Array("See \(location)\n".utf8), cache: .none,
      headers: [("Location", location)] + headers)
  }

  /// The reason phrase of the statuses this server sends.
  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 206: "Partial Content"
    case 302: "Found"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 416: "Range Not Satisfiable"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Error"
    }
  }
}
