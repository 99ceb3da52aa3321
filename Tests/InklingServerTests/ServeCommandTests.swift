// `inkling-archive serve` as a person runs it: the URL it prints (or {"url"} with --json),
// the warning and token beyond loopback, --open without a browser, its errors, and a clean
// stop on SIGTERM and SIGINT that lets a request in flight finish.

import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized) struct ServeCommandTests {
  /// A running `serve` and the first line it printed.
  final class Running {
    let child: ChildProcess

    init(_ arguments: [String], archive: String, environment: [String: String?] = [:]) throws {
      child = try ChildProcess([Binary.path, "--archive", archive] + arguments, environment: environment)
    }

    /// Its first line of standard output (printed once it listens), waiting up to 30 s.
    func readLine() -> String {
      let deadline = Date().addingTimeInterval(30)
      while !child.stdout.contains("\n") && child.poll() == nil && Date() < deadline { usleep(20_000) }
      return String(child.stdout.prefix { $0 != "\n" })
    }

    var stderr: String { child.stderr }
    var isRunning: Bool { child.poll() == nil }

    /// Sends `signal` and waits for the exit; its status.
    func stop(_ signal: Int32 = SIGTERM) -> Int32? {
      kill(child.pid, signal)
      return waitForExit()
    }

    func waitForExit() -> Int32? { child.wait(timeout: 30).status }

    deinit { if child.poll() == nil { _ = child.killNow() } }
  }

  static func port(of url: String) -> UInt16? {
    URL(string: url)?.port.flatMap { UInt16(exactly: $0) }
  }

  @Test func servesUntilSIGTERMAndPrintsJSON() throws {
    let served = try SharedArchive.get()
    let running = try Running(["--json", "serve", "--port", "0"], archive: served.archivePath)
    let line = running.readLine()
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
    let url = try #require(object["url"])
    #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/"))
    let port = try #require(Self.port(of: url))
    #expect(try HTTPClient.get(port, "/").status == 200)
    #expect(running.stop() == 0)
    #expect(running.stderr == "")
    #expect(throws: ClientError.self) { try HTTPClient.get(port, "/") }
  }

  @Test func aRequestInFlightFinishesAfterSIGINT() throws {
    let served = try SharedArchive.get()
    let running = try Running(["serve", "--port", "0"], archive: served.archivePath)
    let port = try #require(Self.port(of: running.readLine()))
    // The request line is in, the head not yet: the request is in flight when the signal comes.
    let socket = try HTTPClient.connect(port)
    defer { close(socket) }
    try HTTPClient.send(socket, Array("GET /api/drafts?limit=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
    usleep(200_000)
    kill(running.child.pid, SIGINT)
    usleep(300_000)
    #expect(running.isRunning)
    try HTTPClient.send(socket, Array("Connection: close\r\n\r\n".utf8))
    let response = try HTTPClient.parse(try HTTPClient.receiveAll(socket))
    #expect(response.status == 200)
    #expect(running.waitForExit() == 130)
    #expect(running.stderr.hasPrefix("Stopped after serving for "), "\(running.stderr)")
  }

  @Test func anotherHostWarnsAndNeedsTheToken() throws {
    let served = try SharedArchive.get()
    let running = try Running(["serve", "--host", "0.0.0.0", "--port", "0"], archive: served.archivePath)
    let url = running.readLine()
    let token = try #require(url.components(separatedBy: "?token=").last)
    #expect(token.count == 32)
    let port = try #require(Self.port(of: url))
    #expect(try HTTPClient.get(port, "/").status == 401)
    #expect(try HTTPClient.get(port, "/api/drafts?token=\(token)").status == 200)
    #expect(running.stop() == 0)
    #expect(running.stderr.hasPrefix("Warning: listening on 0.0.0.0, beyond this machine"))
    let given = try Running(
      ["serve", "--host", "0.0.0.0", "--port", "0", "--token", "chosen-token-1"], archive: served.archivePath)
    #expect(given.readLine().hasSuffix("/?token=chosen-token-1"))
    #expect(given.stop() == 0)
  }

  @Test func openSaysWhenThereIsNoBrowser() throws {
    let served = try SharedArchive.get()
    let running = try Running(
      ["serve", "--port", "0", "--open"], archive: served.archivePath, environment: ["PATH": "/nonexistent"])
    let url = running.readLine()
    usleep(200_000)
    #expect(running.stop() == 0)
    #expect(
      running.stderr.hasPrefix("No xdg-open on this machine to start a browser; open \(url) yourself.\nStopped after "))
  }

  @Test func errorsHaveTheirStatus() throws {
    let served = try SharedArchive.get()
    let usage = try Binary.run(["--archive", served.archivePath, "serve", "--port", "70000"])
    #expect(usage.status == 2)
    let badToken = try Binary.run(["--archive", served.archivePath, "serve", "--port", "0", "--token", "a b"])
    #expect(badToken.status == 2)
    let missing = try Binary.run(["--archive", served.folder + "/nothing.sqlite", "serve", "--port", "0"])
    #expect(missing.status == 3)
    #expect(!FileManager.default.fileExists(atPath: served.folder + "/nothing.sqlite"))
    // The port of the shared server is taken.
    let taken = try Running(["serve", "--port", String(served.port)], archive: served.archivePath)
    #expect(taken.waitForExit() == 1)
    #expect(taken.stderr.hasPrefix("Error: cannot listen on 127.0.0.1 port \(served.port)"))
  }
}
