// Framing over a raw socket: a request whose end is in doubt (Transfer-Encoding with
// Content-Length, a coding that does not end in chunked) is answered 400 and its connection
// closed, so a request smuggled behind it is never served; bytes that are no HTTP request get
// a 400 too, where libmicrohttpd said nothing.

import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct MessageFramingTests {
  /// Sends `request` as it is, without closing the sending side, and reads until the server
  /// closes the connection: every response it sent.
  static func exchange(_ port: UInt16, _ request: String) throws -> String {
    String(decoding: try HTTPClient.exchange(port, Array(request.utf8), timeout: 20, halfClose: false), as: UTF8.self)
  }

  static func statusLines(_ text: String) -> [String] {
    text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.") }
  }

  @Test func aRequestWithTwoFramingsIsRefusedAndWhatFollowsItIsNeverServed() throws {
    let served = try SharedArchive.get()
    let smuggled = "GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    let started = Date()
    let answer = try Self.exchange(
      served.port,
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(5 + smuggled.utf8.count)\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled)
    // One answer, and the connection closed at once (not when the head watch cuts it).
    #expect(Self.statusLines(answer) == ["HTTP/1.1 400 Bad Request"], "\(answer)")
    #expect(answer.lowercased().contains("connection: close"))
    #expect(answer.contains("Transfer-Encoding and Content-Length"))
    #expect(!answer.contains("text/css"))
    #expect(Date().timeIntervalSince(started) < 5)
  }

  @Test func aCodingThatDoesNotEndInChunkedIsRefused() throws {
    let served = try SharedArchive.get()
    for encoding in ["gzip", "chunked, gzip", "identity"] {
      let answer = try Self.exchange(
        served.port,
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: \(encoding)\r\n\r\nGET / HTTP/1.1\r\n\r\n")
      #expect(Self.statusLines(answer) == ["HTTP/1.1 400 Bad Request"], "\(encoding): \(answer)")
    }
    let old = try Self.exchange(
      served.port, "GET / HTTP/1.0\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    #expect(Self.statusLines(old) == ["HTTP/1.1 400 Bad Request"], "\(old)")
  }

  @Test func aChunkedRequestAloneIsServedAsBefore() throws {
    let served = try SharedArchive.get()
    let answer = try Self.exchange(
      served.port,
      "GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + "0\r\n\r\n")
    #expect(Self.statusLines(answer) == ["HTTP/1.1 200 OK"], "\(answer)")
  }

  @Test func bytesThatAreNoHTTPRequestGet400() throws {
    let served = try SharedArchive.get()
    for request in [
      "GARBAGE\r\n\r\n", "GET\r\n\r\n", "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}\u{0}\u{1}\u{fc}\u{3}\u{3}\r\n\r\n",
    ] {
      let answer = try Self.exchange(served.port, request)
      #expect(Self.statusLines(answer) == ["HTTP/1.1 400 Bad Request"], "\(request.debugDescription): \(answer)")
      #expect(answer.contains("Content-Security-Policy"))
    }
    // A client that connects and leaves without a word gets nothing, and the server answers on.
    let socket = try HTTPClient.connect(served.port)
    close(socket)
    #expect(try served.get("/").status == 200)
  }
}
