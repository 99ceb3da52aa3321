// URLs cannot reach outside the archive, and nothing a client sends brings the server down:
// traversal in every spelling, encoded slashes and NUL bytes, over-long paths, queries and
// headers, malformed request lines, a client that stalls or vanishes, and a fuzzing run of
// random requests, after which the server still answers.

import Foundation
import InklingTestSupport
import Testing

@testable import InklingServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct HostileRequestTests {
  /// The status the server answers to a raw request line's target.
  func status(_ served: ServedArchive, _ target: String) throws -> Int {
    try served.get(target).status
  }

  @Test func traversalIsRefused() throws {
    let served = try SharedArchive.get()
    let refused = [
      "/../etc/passwd", "/static/../../etc/passwd", "/static/..%2F..%2Fetc%2Fpasswd", "/static/%2e%2e/style.css",
      "/static/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/versions/1/..", "/versions/1%2Ffile", "/static/style.css%00.png",
      "/%00", "/draft?name=%00", "/draft?name=a%0d%0aSet-Cookie:%20x", "/static/.%2e/x", "/./", "/static\\..\\x",
      "/static/%5c..%5cx", "/%zz", "/draft?name=%ff%fe", "/draft?name=%", "/draft?name=%4",
      "/swatches/..%2F..%2Fetc%2Fpasswd.svg", "/versions/-1/file", "/versions/1e3/file",
      "/versions/99999999999999999999999/file",
    ]
    for target in refused {
      let response = try served.get(target)
      #expect((400..<500).contains(response.status), "\(target): \(response.status)")
      #expect(!response.text.contains("root:"))
    }
    // What the server would have to read from outside the archive, it has no route for at all.
    #expect(try status(served, "/static/style.css") == 200)
    #expect(try status(served, "/static/style.css/") == 404)
    #expect(try status(served, "//static/style.css") == 404)
  }

  @Test func requestTargetsAreReadStrictly() throws {
    #expect(throws: TargetProblem.self) { try RequestTarget("*") }
    #expect(throws: TargetProblem.self) { try RequestTarget("http://example.com/") }
    #expect(throws: TargetProblem.self) { try RequestTarget("/#x") }
    #expect(throws: TargetProblem.self) { try RequestTarget("/" + String(repeating: "a", count: 2048)) }
    #expect(throws: TargetProblem.self) { try RequestTarget("/?q=" + String(repeating: "a", count: 16384)) }
    let target = try RequestTarget("/draft?name=Plan%2DB+2&name=second&empty&q=a%2Bb")
    #expect(target.segments == ["draft"])
    #expect(target.parameter("name") == "Plan-B 2")
    #expect(target.parameter("empty") == "")
    #expect(target.parameter("q") == "a+b")
    #expect(try RequestTarget("/").segments == [])
    #expect(try RequestTarget("/a/%E7%8C%AB").segments == ["a", "猫"])
  }

  @Test func overLongAndMalformedRequestsAre4xx() throws {
    let served = try SharedArchive.get()
    #expect(try status(served, "/" + String(repeating: "a", count: 3000)) == 414)
    #expect(try status(served, "/?q=" + String(repeating: "a", count: 20000)) == 414)
    // Longer than a connection's memory: MHD answers itself.
    let huge = try served.get("/?q=" + String(repeating: "a", count: 70000))
    #expect((400..<500).contains(huge.status))
    let bigHeader = try served.get("/", headers: [("X-Padding", String(repeating: "b", count: 70000))])
    #expect((400..<500).contains(bigHeader.status))
    let malformed = [
      "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET /\r\n\r\n", "GET  HTTP/1.1\r\n\r\n",
      "GET http://evil/ HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
      "\u{0}\u{1}\u{2}\r\n\r\n", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ]
    for request in malformed {
      let raw = try HTTPClient.exchange(served.port, Array(request.utf8), timeout: 30)
      if raw.isEmpty { continue }  // closing without an answer is fine for noise
      let response = try HTTPClient.parse(raw)
      #expect((400..<600).contains(response.status), "\(request.debugDescription): \(response.status)")
    }
    #expect(try status(served, "/") == 200)
  }

  @Test func aStalledClientHoldsNoThread() throws {
    let served = try ServedArchive(importNow: false)
    // More stalled connections than handler threads: each sent half a request line.
    var sockets: [Int32] = []
    for _ in 0..<8 {
      let socket = try HTTPClient.connect(served.port)
      try HTTPClient.send(socket, Array("GET /api/dra".utf8))
      sockets.append(socket)
    }
    defer { sockets.forEach { close($0) } }
    let started = Date()
    for _ in 0..<5 { #expect(try served.get("/api/drafts").status == 200) }
    #expect(Date().timeIntervalSince(started) < 5)
    // A client that vanishes mid-response changes nothing either.
    for _ in 0..<5 {
      let socket = try HTTPClient.connect(served.port)
      try HTTPClient.send(socket, Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
      close(socket)
    }
    #expect(try served.get("/").status == 200)
  }

  @Test func aFuzzingRunLeavesTheServerUp() throws {
    let served = try SharedArchive.get()
    let seconds = Double(ProcessInfo.processInfo.environment["SERVE_FUZZ_SECONDS"] ?? "") ?? 3
    var random = TestSeed.generator(for: "aFuzzingRunLeavesTheServerUp")
    let pieces = [
      "/", "/draft", "/api/drafts", "/api/draft", "/versions/1/thumbnail.png", "/versions/", "/static/", "/swatches/",
      "?", "&", "=", "name=", "q=", "%", "%2F", "%00", "%ff", "..", ".", "/", "\\", "#", "+", "after=", "n.1.2.3",
      "size=", "-1", "99999999999999999999", "<script>", "\"", "'", " ", "\t", "\r\n", "\u{7f}", "猫", "%E7%8C",
    ]
    let methods = ["GET", "HEAD", "POST", "G\u{0}T", "", "GET GET"]
    let deadline = Date().addingTimeInterval(seconds)
    var sent = 0
    while Date() < deadline {
      var request: [UInt8]
      switch random.next() % 3 {
      case 0:
        // Random bytes.
        request = (0..<Int(random.next() % 600)).map { _ in UInt8.random(in: 0...255, using: &random) }
      case 1:
        // A request line of hostile pieces.
        var target = ""
        for _ in 0..<Int(random.next() % 12) { target += pieces.randomElement(using: &random)! }
        let method = methods.randomElement(using: &random)!
        request = Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
      default:
        // A valid request with bytes flipped.
        request = Array(
          "GET /api/drafts?limit=3&q=name%3Aa HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        for _ in 0..<Int(random.next() % 4 + 1) {
          request[Int(random.next() % UInt64(request.count))] = UInt8.random(in: 0...255, using: &random)
        }
      }
      // A request the server waits to see the end of is abandoned, as a vanished client would.
      _ = try? HTTPClient.exchange(served.port, request, timeout: 0.3)
      sent += 1
    }
    #expect(sent > 10)
    #expect(try status(served, "/") == 200)
    #expect(try status(served, "/api/drafts") == 200)
    print("serve fuzz (sockets): \(sent) requests in \(Int(seconds)) s, the server answering after them")
  }
}
