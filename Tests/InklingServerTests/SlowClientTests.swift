// Slow clients: hundreds of connections that send one header line every second, from many
// loopback addresses, do not keep the server from answering anyone, and each is cut once it has
// taken longer than the head deadline; one address cannot hold more than its share. Bounded:
// 600 connections for about eight seconds, on loopback only.

import Foundation
import Testing

@testable import InklingServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct SlowClientTests {
  /// A connection to `port` from loopback address `source` (127.0.0.x), with `timeout` for sends
  /// and receives.
  static func connect(_ port: UInt16, from source: String, timeout: Double) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ClientError(description: "socket: \(String(cString: strerror(errno)))") }
    var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = port.bigEndian
    remote.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, connected == 0 else {
      let message = String(cString: strerror(errno))
      close(socket)
      throw ClientError(description: "connect from \(source): \(message)")
    }
    return socket
  }

  /// Whether the server has ended the connection: a receive sees the end of the stream or a
  /// reset rather than waiting out the socket's timeout.
  static func isClosedByServer(_ socket: Int32) -> Bool {
    var byte: UInt8 = 0
    let count = recv(socket, &byte, 1, 0)
    return count == 0 || (count < 0 && (errno == ECONNRESET || errno == EPIPE))
  }

  /// `/` from 127.0.0.1, which must come back within one second.
  static func probe(_ port: UInt16) throws -> Int {
    let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    return try HTTPClient.parse(try HTTPClient.exchange(port, Array(request.utf8), timeout: 1)).status
  }

  @Test func slowClientsNeitherFillTheServerNorStay() throws {
    var limits = ServerLimits()
    limits.headSeconds = 3
    let served = try ServedArchive(limits: limits)
    // 600 connections (more than the 512 the server keeps), ten from each of 60 addresses.
    var slow: [Int32] = []
    defer { slow.forEach { close($0) } }
    for index in 0..<600 {
      let socket = try Self.connect(served.port, from: "127.0.1.\(2 + index / 10)", timeout: 2)
      HTTPClient.sendIgnoringErrors(socket, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      slow.append(socket)
    }
    for second in 0..<6 {
      sleep(1)
      for socket in slow { HTTPClient.sendIgnoringErrors(socket, "X-Slow-\(second): still here\r\n") }
      #expect(try Self.probe(served.port) == 200, "second \(second)")
    }
    // Six seconds of a header line a second: each has passed its three-second deadline.
    let open = slow.filter { !Self.isClosedByServer($0) }.count
    #expect(open == 0)
  }

  @Test func oneAddressHoldsOnlyItsShare() throws {
    var limits = ServerLimits()
    limits.connectionsPerAddress = 8
    let served = try ServedArchive(importNow: false, limits: limits)
    var sockets: [Int32] = []
    defer { sockets.forEach { close($0) } }
    for _ in 0..<10 { sockets.append(try Self.connect(served.port, from: "127.0.2.9", timeout: 5)) }
    // The ninth and tenth are closed at once; the first eight stay open, waiting for a head.
    #expect(Self.isClosedByServer(sockets[8]) && Self.isClosedByServer(sockets[9]))
    var waiting = sockets[..<8].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    #expect(poll(&waiting, nfds_t(waiting.count), 1000) == 0)
    #expect(try Self.probe(served.port) == 200)
  }
}
