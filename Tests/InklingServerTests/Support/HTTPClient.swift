import Foundation
import InklingFormats

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP response as it came off the socket.
struct RawResponse {
  var status: Int
  var headers: [(String, String)]
  var body: [UInt8]

  func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }

  var text: String { String(decoding: body, as: UTF8.self) }

  /// The body, gunzipped when it was sent gzip-encoded.
  func decodedBody() throws -> [UInt8] {
    guard header("Content-Encoding") == "gzip" else { return body }
    return try body.withUnsafeBytes { try Gzip.decompress($0, limit: 64 << 20) }
  }

  /// The body as JSON.
  func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(try decodedBody())) }
}

struct ClientError: Error, CustomStringConvertible {
  var description: String
}

/// A deliberately small HTTP/1.1 client over a POSIX socket, so that tests can send exactly
/// the bytes they mean, malformed ones included.
enum HTTPClient {
  /// GET (or `method`) of `target` with `Connection: close`, and the response.
  static func get(
    _ port: UInt16, _ target: String, method: String = "GET", headers: [(String, String)] = [],
    host: String? = nil
  ) throws -> RawResponse {
    var request = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    request += "\r\n"
    return try parse(try exchange(port, Array(request.utf8), halfClose: false), head: method == "HEAD")
  }

  /// Sends `bytes` and reads until the server closes the connection (or `timeout` passes).
  /// With `halfClose`, ends its side first, as no browser does: a server may take that for a
  /// client that has gone and drop the expensive work of its request.
  static func exchange(_ port: UInt16, _ bytes: [UInt8], timeout: Double = 30, halfClose: Bool = true) throws
    -> [UInt8]
  {
    let socket = try connect(port, timeout: timeout)
    defer { close(socket) }
    try send(socket, bytes)
    if halfClose { shutdown(socket, Int32(SHUT_WR)) }
    return try receiveAll(socket)
  }

  /// A connected socket with send and receive timeouts.
  static func connect(_ port: UInt16, timeout: Double = 30) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ClientError(description: "socket: \(String(cString: strerror(errno)))") }
    var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let message = String(cString: strerror(errno))
      close(socket)
      throw ClientError(description: "connect to port \(port): \(message)")
    }
    return socket
  }

  static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      // A server may close while a hostile request is still being sent: that is an answer too.
      guard sent > 0 else { return }
      offset += sent
    }
  }

  static func receiveAll(_ socket: Int32) throws -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += buffer[0..<count]
      } else if count == 0 || errno == ECONNRESET {
        return received
      } else {
        throw ClientError(description: "receive: \(String(cString: strerror(errno))) after \(received.count) bytes")
      }
    }
  }

  /// Splits one response into status, headers and body (the body as sent: `Content-Length` bytes).
  static func parse(_ bytes: [UInt8], head: Bool = false) throws -> RawResponse {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
      throw ClientError(description: "no complete response head in \(bytes.count) bytes")
    }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw ClientError(description: "not a status line: \(lines[0])")
    }
    var headers: [(String, String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    }
    var body = Array(bytes[(end + 4)...])
    if head || status == 304 {
      body = []
    } else if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }) {
      guard body.count >= length else {
        throw ClientError(description: "body of \(body.count) bytes, Content-Length \(length)")
      }
      body = Array(body.prefix(length))
    }
    return RawResponse(status: status, headers: headers, body: body)
  }
}

extension HTTPClient {
  /// Sends `text`, ignoring a connection the server has already ended.
  static func sendIgnoringErrors(_ socket: Int32, _ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }
}
