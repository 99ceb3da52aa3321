// Programs the tool starts for a person (their editor, the browser's opener) run through
// /bin/sh as a shell would start them: no signal blocked, and those this process blocks to
// wait for (SIGINT, SIGTERM) or ignores (SIGPIPE) at their defaults, with SIGHUP. They inherit
// no descriptor: SQLite, libmicrohttpd and FileOutput open every one close-on-exec.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum ShellCommand {
  /// Why the shell did not start: strerror of what posix_spawn said.
  struct NotStarted: Error {
    let reason: String
  }

  /// Runs `/bin/sh -c script arguments…` (the first argument is the script's `$0`), waits for
  /// the shell and gives its exit status (128 + the signal for one killed). With
  /// `ownProcessGroup`, what it starts outlives a Ctrl-Z or the terminal's SIGHUP.
  static func run(_ script: String, _ arguments: [String], ownProcessGroup: Bool = false) throws(NotStarted)
    -> Int32
  {
    let words = ["/bin/sh", "-c", script] + arguments
    let argv = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
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
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if ownProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var shell = pid_t()
    let code = posix_spawn(&shell, "/bin/sh", nil, &attributes, argv, environ)
    guard code == 0 else { throw NotStarted(reason: String(cString: strerror(code))) }
    var status: Int32 = 0
    while waitpid(shell, &status, 0) == -1 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot call.
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
