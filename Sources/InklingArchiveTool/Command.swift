// What every command is: a spec declared once (options, arguments, help), a reading of the
// parsed command line into typed values that checks them (the validate stage, throwing usage
// errors), and a run that calls one library operation and prints what it returns.

import InklingCommandLine

protocol Command: SendableMetatype {
  /// The command's name, as typed; the same as its spec's.
  static var name: String { get }
  /// The command's name, help, options and arguments; everything the user sees of it.
  static var spec: CommandSpec { get }
  /// Reads and checks the values (stage 4 of parsing): a mistake throws `UsageError`, or an
  /// `ArchiveError` that is a usage error (a date that is not a date).
  init(_ parsed: ParsedArguments) throws
  /// Does the work; returns the exit status.
  func run(_ context: CommandContext) throws -> Int32
  /// What to do when the file to write is a folder (`ArchiveError.destinationIsFolder`), in
  /// this command's options: the end of "PATH is a folder; …". Only restore can write into
  /// the folder with --to.
  static var folderAdvice: String { get }
  /// Left out of help, the manual and completions (`CommandSpec.Subcommand.hidden`).
  static var hidden: Bool { get }
}

extension Command {
  static var folderAdvice: String { "give a file name with -o" }
  static var hidden: Bool { false }
}
