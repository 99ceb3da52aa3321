// What every command is: its options and arguments, each declared once as a `@Parsed`
// property (Parsed.swift), from which its spec, help and completions are made; a check of the
// values together once they are read (the validate stage, throwing usage errors); and a run
// that calls one library operation and prints what it returns.

import InklingCommandLine

protocol Command: SendableMetatype {
  /// The command's name, as typed; the same as its spec's.
  static var name: String { get }
  /// The command's name, help, options and arguments; everything the user sees of it:
  /// `CommandSpec(name, abstract: …).declaring { Self() }`, so that the options are the
  /// `@Parsed` properties, in the order they are written.
  static var spec: CommandSpec { get }
  /// Makes the command; each `@Parsed` property declares itself or reads its value
  /// (`CommandReading`). Nothing else happens here: the same initialiser describes the command.
  init()
  /// Checks across values, once every one is read (stage 4 of parsing): a mistake throws
  /// `UsageError`, or an `ArchiveError` that is a usage error (a date that is not a date).
  mutating func validate(_ parsed: ParsedArguments) throws
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

  mutating func validate(_ parsed: ParsedArguments) throws {}

  /// The command the command line asks for, read and checked.
  ///
  /// - Throws: the first value that does not convert (`UsageError`), else what `validate` throws.
  init(_ parsed: ParsedArguments) throws {
    self = try CommandReading.read(parsed) { Self() }
    try validate(parsed)
  }
}
