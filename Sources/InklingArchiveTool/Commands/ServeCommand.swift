import FoundationEssentials
import Glibc
import InklingArchive
import InklingCommandLine
import InklingPresentation
import InklingServer

struct ServeCommand: Command {
  static let name = "serve"

  static let spec = CommandSpec(
    name, abstract: "Look through the archive in a web browser.",
    discussion: """
      Serves the drafts as web pages (a grid of thumbnails, search, each draft's history as a \
      timeline, downloads of any version) and as JSON under /api/, until Ctrl-C. Read-only: \
      only rendered thumbnails are stored, in the archive's cache. Listens on 127.0.0.1.

      Every request needs the server's token, on 127.0.0.1 too (other accounts on the computer \
      reach it as well): the address printed on the first line (and opened by --open) carries \
      it, and the pages keep it in their links' paths, never in a cookie. Scripts send it as \
      ?token=TOKEN or "Authorization: Bearer TOKEN". The token is made on first use and kept \
      in $XDG_STATE_HOME/inkling-archive/serve-token (else ~/.local/state/inkling-archive/), a \
      file only the user can read, so the address stays the same from run to run; --token \
      gives another. When the output goes to the systemd journal (the packaged user unit), \
      the address is printed without its token: --print-url prints it.

      Examples:
        inkling-archive serve
        inkling-archive serve --port 0 --open
        inkling-archive serve --host 0.0.0.0 --port 8080
        inkling-archive serve --print-url    # the user unit's address, to open
      """
  ).declaring { Self() }

  @Parsed(
    Option(
      "port", valueName: "N", .integer(in: 0...65535), default: 8377, help: "The port to listen on; 0 for any free one."
    ))
  var portNumber: Int
  @Parsed(
    Option(
      "host", valueName: "ADDR", .text, help: "The address to listen on (default 127.0.0.1)."))
  var givenHost: String?
  @Parsed(
    Option(
      "token", valueName: "TOKEN", .text,
      help: "The token every request must carry (8-128 letters, digits, - or _), instead of the kept one."))
  var token: String?
  @Parsed(Flag("open", help: "Open the address in the default browser (with xdg-open).")) var opens: Bool
  @Parsed(
    Flag(
      "print-url", help: "Print the address with its token that serve with these options opens, and exit."))
  var printsURL: Bool

  var host: String { givenHost ?? "127.0.0.1" }
  var port: UInt16 { UInt16(portNumber) }

  func validate(_ parsed: ParsedArguments) throws {
    if let token, !ServerConfiguration.isValidToken(token) {
      throw parsed.usageError("--token takes 8 to 128 letters, digits, '-' or '_'")
    }
    if printsURL && port == 0 {
      throw parsed.usageError("--print-url needs the port the server listens on, not 0")
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let token: String
    do {
      token = try self.token ?? TokenFile.token()
    } catch {
      context.printError("Error: \(error)")
      return ExitStatus.someInputsRejected
    }
    if printsURL {
      let url = ServerConfiguration.url(host: host, port: port, token: token)
      if context.json { context.printJSON(["url": .string(url)]) } else { context.print(url) }
      return ExitStatus.success
    }
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
      case .invalidToken, .tokenFile: preconditionFailure("the token was checked and read above")
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
    // The journal keeps what a service prints where more than the user may read it (the adm
    // group, root): the address goes there without its token.
    let shown = Self.printsToJournal ? ServerConfiguration.url(host: host, port: server.port, token: nil) : server.url
    if context.json { context.printJSON(["url": .string(shown)]) } else { context.print(shown) }
    if Self.printsToJournal {
      context.printError(
        "The address with its token: inkling-archive serve --print-url (with the same --port and --host).")
    }
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

  /// Whether standard output is the systemd journal: $JOURNAL_STREAM names its device and inode
  /// (systemd sets it for a service whose output it logs).
  static var printsToJournal: Bool {
    guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
    var status = stat()
    guard fstat(STDOUT_FILENO, &status) == 0 else { return false }
    return stream == "\(status.st_dev):\(status.st_ino)"
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
    // In a process group of its own: a browser it becomes outlives a Ctrl-Z or the terminal's
    // SIGHUP.
    do {
      _ = try ShellCommand.run(script, [opener, url], ownProcessGroup: true)
    } catch {
      context.printError("Could not start xdg-open (\(error.reason)); open \(url) yourself.")
    }
  }
}
