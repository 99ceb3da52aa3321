import FoundationEssentials
import Glibc
import InklingArchive
import InklingCommandLine
import InklingPresentation
import InklingServer

struct ServeCommand: Command {
  static let port = Option(
    "port", valueName: "N", .integer(in: 0...65535), default: 8377, help: "The port to listen on; 0 for any free one.")
  static let host = Option(
    "host", valueName: "ADDR", .text, help: "The address to listen on (default 127.0.0.1); another needs a token.")
  static let token = Option(
    "token", valueName: "TOKEN", .text, help: "The token every request must carry (8-128 letters, digits, - or _).")
  static let open = Flag("open", help: "Open the address in the default browser (with xdg-open).")

  static let name = "serve"

  static let spec = CommandSpec(
    name, abstract: "Look through the archive in a web browser.",
    discussion: """
      Serves the drafts as web pages (a grid of thumbnails, search, each draft's history as a \
      timeline, downloads of any version) and as JSON under /api/, until Ctrl-C. Read-only: \
      only rendered thumbnails are stored, in the archive's cache. Listens on 127.0.0.1; \
      another address needs a token, which is generated and printed in the address unless \
      --token gives one.

      Examples:
        inkling-archive serve
        inkling-archive serve --port 0 --open
        inkling-archive serve --host 0.0.0.0 --port 8080
      """,
    options: [port.spec, host.spec, token.spec, open.spec])

  let host: String
  let port: UInt16
  let token: String?
  let opens: Bool

  init(_ parsed: ParsedArguments) throws {
    token = try parsed.value(Self.token)
    if let token, !ServerConfiguration.isValidToken(token) {
      throw parsed.usageError("--token takes 8 to 128 letters, digits, '-' or '_'")
    }
    host = try parsed.value(Self.host) ?? "127.0.0.1"
    port = UInt16(try parsed.value(Self.port))
    opens = parsed.value(Self.open)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    // Blocked before the server's threads start, which inherit the mask, so that only
    // sigwait below receives them and the server is stopped cleanly.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    signal(SIGPIPE, SIG_IGN)
    let server: ArchiveServer
    do {
      server = try ArchiveServer(
        ServerConfiguration(archivePath: context.archivePath, host: host, port: port, token: token))
    } catch {
      switch error {
      case .archive(let archiveError): throw archiveError
      case .invalidToken: preconditionFailure("init checked the token")
      case .listen(let message):
        context.printError("Error: \(message); choose another --port (0 for any free one) or --host")
        return ExitStatus.someInputsRejected
      }
    }
    if !ServerConfiguration.isLoopback(host) {
      context.printError(
        "Warning: listening on \(host), beyond this machine: whoever can reach it and has the token "
          + "can read the archive.")
    }
    if context.json { context.printJSON(["url": .string(server.url)]) } else { context.print(server.url) }
    if opens { Self.open(server.url, context) }
    let started = ContinuousClock.now
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    // The requests in flight are answered first (a few seconds at most), then the archive closes.
    server.stop()
    if !context.quiet && !context.json {
      let served = started.duration(to: .now).components.seconds
      context.printError("Stopped after serving for \(Format.span(seconds: served)).")
    }
    return StopSignals.exitStatus(after: received) ?? ExitStatus.success
  }

  /// Starts xdg-open on `url` without waiting for it, or says that there is none.
  private static func open(_ url: String, _ context: CommandContext) {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let opener = path.split(separator: ":").map({ $0 + "/xdg-open" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      context.printError("No xdg-open on this machine to start a browser; open \(url) yourself.")
      return
    }
    // Through a shell that starts it in the background and exits at once, so that xdg-open
    // (and the browser it may become) is nobody's child here: nothing to wait for later.
    let script = "\"$0\" \"$1\" </dev/null >/dev/null 2>&1 &"
    let words: [String] = ["/bin/sh", "-c", script, opener, url]
    let arguments = words.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    // The child starts as a new program would: no signal blocked or ignored (this process
    // blocks SIGINT and SIGTERM to wait for them, and ignores SIGPIPE), in a process group of
    // its own (a browser it becomes outlives a Ctrl-Z or the terminal's SIGHUP). It inherits
    // no descriptor: SQLite, libmicrohttpd and FileOutput open every one close-on-exec.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    var shell = pid_t()
    let code = posix_spawn(&shell, "/bin/sh", nil, &attributes, arguments, environ)
    guard code == 0 else {
      context.printError("Could not start xdg-open (\(String(cString: strerror(code)))); open \(url) yourself.")
      return
    }
    var status: Int32 = 0
    while waitpid(shell, &status, 0) == -1 && errno == EINTR {}
  }
}
