// Ctrl-C and SIGTERM for the commands that stop cleanly rather than die: import and watch
// stop after the batch being written commits, export before its next file, timelapse between
// two frames (removing its video's temporary file), and each says what was done.

import InklingArchive
import InklingCommandLine

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM as a request to stop: the handler notes the signal and writes one byte
/// to the stop pipe (both async-signal-safe, signal-safety(7)); the command sees it and stops
/// after its batch.
enum StopSignals {
  /// The pipe's write end, read by the handler: set before the handler is installed, and
  /// never changed after (the process stops only to exit).
  nonisolated(unsafe) static var descriptor: Int32 = -1
  /// The last signal received, 0 before any: a plain store, as a handler may make.
  nonisolated(unsafe) static var received: Int32 = 0

  /// A stop request that SIGINT and SIGTERM make from now on.
  static func install() throws -> WatchStop {
    let stop = try WatchStop()
    install(stop)
    return stop
  }

  private static func install(_ stop: WatchStop) {
    descriptor = stop.writeDescriptor
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      StopSignals.received = signal
      var byte: UInt8 = 1
      _ = write(StopSignals.descriptor, &byte, 1)
    }
    action.sa_flags = SA_RESTART
    sigemptyset(&action.sa_mask)
    sigaction(SIGINT, &action, nil)
    sigaction(SIGTERM, &action, nil)
    // A process started with them blocked (the mask is inherited across exec) would never
    // see them; the importer's threads are started later and inherit this mask.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// The exit status after a stop by `signal`, nil for none: 130 for Ctrl-C, as a shell
  /// reports a job it interrupted. SIGTERM, the way a service manager ends watch and serve,
  /// is a clean end of work that has no end; an import or export it stops is not done (143).
  static func exitStatus(after signal: Int32, workHasAnEnd: Bool = false) -> Int32? {
    switch signal {
    case SIGINT: ExitStatus.interrupted
    case SIGTERM where workHasAnEnd: ExitStatus.terminated
    default: nil
    }
  }
}
