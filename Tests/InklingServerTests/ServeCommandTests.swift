// `inkling-archive serve` as a person runs it: the URL it prints (or {"url"} with --json),
// with the token it keeps where only the user can read it (a second account gets neither the
// archive nor the token), the warning beyond loopback, --open without a browser,
// --print-url, its errors, and a clean stop on SIGTERM and SIGINT that lets a request in
// flight finish.

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
    /// The XDG state folder it keeps its token in, unless the test gave one.
    private let state: TemporaryFolder

    init(_ arguments: [String], archive: String, environment: [String: String?] = [:]) throws {
      state = try TemporaryFolder("serve-state")
      child = try ChildProcess(
        [Binary.path, "--archive", archive] + arguments,
        environment: ["XDG_STATE_HOME": state.path].merging(environment) { $1 })
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

  /// The token in a printed address (`…/?token=TOKEN`).
  static func token(of url: String) -> String? {
    url.range(of: "/?token=").map { String(url[$0.upperBound...]) }
  }

  @Test func servesUntilSIGTERMAndPrintsJSON() throws {
    let served = try SharedArchive.get()
    let running = try Running(["--json", "serve", "--port", "0"], archive: served.archivePath)
    let line = running.readLine()
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
    let url = try #require(object["url"])
    #expect(url.hasPrefix("http://127.0.0.1:"))
    let port = try #require(Self.port(of: url))
    let token = try #require(Self.token(of: url))
    #expect(try HTTPClient.get(port, "/?token=\(token)").status == 302)
    #expect(try HTTPClient.get(port, "/t/\(token)/").status == 200)
    #expect(running.stop() == 0)
    #expect(running.stderr == "")
    #expect(throws: ClientError.self) { try HTTPClient.get(port, "/") }
  }

  @Test func aRequestInFlightFinishesAfterSIGINT() throws {
    let served = try SharedArchive.get()
    let running = try Running(["serve", "--port", "0"], archive: served.archivePath)
    let url = running.readLine()
    let port = try #require(Self.port(of: url))
    let token = try #require(Self.token(of: url))
    // The request line is in, the head not yet: the request is in flight when the signal comes.
    let socket = try HTTPClient.connect(port)
    defer { close(socket) }
    try HTTPClient.send(
      socket, Array("GET /api/drafts?limit=2&token=\(token) HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
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

  /// On loopback too the server needs its token, which it keeps in a file only the user can
  /// read; another account on the computer (nobody, through setpriv) gets 401 and cannot read
  /// the file, though every folder above it is open to all, as a home folder often is.
  @Test(.enabled(if: geteuid() == 0, "switching to a second account (setpriv --reuid) needs root"))
  func anotherAccountGetsNeitherTheArchiveNorTheToken() throws {
    let served = try SharedArchive.get()
    let state = try TemporaryFolder("serve-state")
    chmod(state.path, 0o755)
    let running = try Running(
      ["serve", "--port", "0"], archive: served.archivePath, environment: ["XDG_STATE_HOME": state.path])
    let url = running.readLine()
    let port = try #require(Self.port(of: url))
    let token = try #require(Self.token(of: url))
    let file = state.path("inkling-archive/serve-token")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == token + "\n")
    let modes = try [state.path("inkling-archive"), file].map {
      try #require(FileManager.default.attributesOfItem(atPath: $0)[.posixPermissions] as? Int)
    }
    #expect(modes == [0o700, 0o600])
    let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    let address = "http://127.0.0.1:\(port)"
    for target in ["/", "/api/drafts", "/versions/1/file", "/t/guess-the-token/"] {
      let curl = try ChildProcess.run(
        nobody + ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", address + target])
      #expect(curl.stdout == "401", "\(target): \(curl.stdout) \(curl.stderr)")
    }
    let cat = try ChildProcess.run(nobody + ["cat", file])
    #expect(cat.status != 0 && cat.stdout.isEmpty)
    // The user, with the address printed, reads the archive; a second run prints the same one.
    let user = try ChildProcess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url])
    #expect(user.stdout == "302")
    #expect(running.stop() == 0)
    let again = try Running(
      ["serve", "--port", "0"], archive: served.archivePath, environment: ["XDG_STATE_HOME": state.path])
    #expect(Self.token(of: again.readLine()) == token)
    #expect(again.stop() == 0)
  }

  /// The packaged user unit's output goes to the journal: the address is printed there without
  /// its token, and `--print-url` prints it with the token, as the server accepts it.
  @Test func theJournalGetsNoTokenAndPrintURLGivesIt() throws {
    let served = try SharedArchive.get()
    let state = try TemporaryFolder("serve-state")
    let environment: [String: String?] = ["XDG_STATE_HOME": state.path]
    let printed = try ChildProcess.run(
      [Binary.path, "--archive", served.archivePath, "serve", "--port", "18377", "--print-url"],
      environment: environment)
    #expect(printed.status == 0)
    let token = try #require(Self.token(of: printed.stdout.trimmingCharacters(in: .newlines)))
    #expect(printed.stdout == "http://127.0.0.1:18377/?token=\(token)\n")
    #expect(try String(contentsOfFile: state.path("inkling-archive/serve-token"), encoding: .utf8) == token + "\n")
    #expect(try Binary.run(["serve", "--port", "0", "--print-url"]).status == 2)
    // Standard output as systemd gives a service's: $JOURNAL_STREAM names its device and inode.
    let output = state.path("journal")
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    var status = stat()
    stat(output, &status)
    let shell = "exec \"$0\" --archive \"$1\" serve --port 0 >\"$2\""
    let child = try ChildProcess(
      ["/bin/sh", "-c", shell, Binary.path, served.archivePath, output],
      environment: ["XDG_STATE_HOME": state.path, "JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"])
    defer { if child.poll() == nil { _ = child.killNow() } }
    let deadline = Date().addingTimeInterval(30)
    var journal = ""
    while !journal.contains("\n") && Date() < deadline {
      usleep(20_000)
      journal = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
    #expect(journal.hasPrefix("http://127.0.0.1:") && journal.hasSuffix("/\n"), "\(journal)")
    #expect(!journal.contains(token))
    kill(child.pid, SIGTERM)
    #expect(child.wait(timeout: 30).status == 0)
    #expect(child.stderr.hasPrefix("The address with its token: inkling-archive serve --print-url"), "\(child.stderr)")
    #expect(!child.stderr.contains(token))
  }

  @Test func errorsHaveTheirStatus() throws {
    let served = try SharedArchive.get()
    let usage = try Binary.run(["--archive", served.archivePath, "serve", "--port", "70000"])
    #expect(usage.status == 2)
    let badToken = try Binary.run(["--archive", served.archivePath, "serve", "--port", "0", "--token", "a b"])
    #expect(badToken.status == 2)
    let missing = try Binary.run(
      ["--archive", served.folder + "/nothing.sqlite", "serve", "--port", "0", "--token", "chosen-token-1"])
    #expect(missing.status == 3)
    #expect(!FileManager.default.fileExists(atPath: served.folder + "/nothing.sqlite"))
    // The port of the shared server is taken.
    let taken = try Running(["serve", "--port", String(served.port)], archive: served.archivePath)
    #expect(taken.waitForExit() == 1)
    #expect(taken.stderr.hasPrefix("Error: cannot listen on 127.0.0.1 port \(served.port)"))
  }
}
