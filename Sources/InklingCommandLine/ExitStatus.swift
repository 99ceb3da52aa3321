// The exit statuses the README and the man page promise, in one place.

package enum ExitStatus {
  /// All good.
  package static let success: Int32 = 0
  /// Some inputs were rejected; the rest were done.
  package static let someInputsRejected: Int32 = 1
  /// A search found nothing (grep's 1).
  package static let nothingMatched: Int32 = 1
  /// The command line was wrong.
  package static let usage: Int32 = 2
  /// The archive cannot be used: locked too long, corrupt, newer schema than this build.
  package static let archiveUnusable: Int32 = 3
  /// Stopped by Ctrl-C (SIGINT) after committing what it had done: 128 + 2, as shells report it.
  package static let interrupted: Int32 = 130
  /// An import or export stopped by SIGTERM before it was done: 128 + 15.
  package static let terminated: Int32 = 143
}

/// An error that knows the exit status it stands for; `CommandLineProgram` prints its
/// description as `Error: …` and exits with `exitStatus`. Other errors exit 1.
package protocol ExitStatusError: Error, CustomStringConvertible {
  var exitStatus: Int32 { get }
}
