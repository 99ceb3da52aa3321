import InklingArchive
import InklingCommandLine
import InklingPresentation

enum RestoreCommand {
  static let spec = CommandSpec(
    "restore", abstract: "Write a version of a draft back out, byte for byte.",
    discussion: """
      Without --version or --at, the newest version is restored; without --to or -o, it is \
      written into the current folder under its original file name.

      Examples:
        inkling-archive restore Cat --version 3 -o cat-v3.inkling
        inkling-archive restore Cat --at yesterday --to ~/Desktop
      """,
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Restore version N."),
      .value("at", valueName: "DATE", help: "Restore the version that was newest at DATE."),
      .value("to", valueName: "DIR", help: "Write into DIR under the original file name."),
      .value("output", short: "o", valueName: "FILE", help: "Write to FILE."),
      .flag("all-versions", help: "Restore every version into the folder (--to, else the current folder)."),
      .flag("force", short: "f", help: "Replace files that already exist."),
    ],
    exclusive: [["--version", "--at", "--all-versions"], ["--to", "--output"], ["--all-versions", "--output"]])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let draft = parsed.argument("DRAFT")!
      let force = parsed.flag("--force")
      var selector = VersionSelector.latest
      if let number = try parsed.int("--version") { selector = .number(number) }
      if let at = parsed.string("--at") { selector = .at(try DateExpression.parse(at)) }
      let archive = try context.open(.readOnly)
      let restored: [RestoredFile]
      if parsed.flag("--all-versions") {
        restored = try archive.restoreAllVersions(draft: draft, to: parsed.string("--to") ?? ".", overwrite: force)
      } else {
        let destination: RestoreDestination =
          switch parsed.string("--output") {
          case "-": .standardOutput
          case let file?: .file(file)
          case nil: .folder(parsed.string("--to") ?? ".")
          }
        restored = [try archive.restore(draft: draft, version: selector, to: destination, overwrite: force)]
      }
      // With the file on standard output, what was written is said on standard error.
      let toStandardOutput = restored.contains { $0.path == "-" }
      func say(_ text: String) { toStandardOutput ? context.printError(text) : context.print(text) }
      if context.json {
        let files: [JSONValue] = restored.map(json)
        say(JSONWriter().string(["restored": .array(files)]))
      } else if !context.quiet {
        for file in restored {
          let renamed = file.renamedFrom.map { "; renamed: \(Quoted.text($0)) is another version's file name" } ?? ""
          say(
            "\(Quoted.text(file.path))  (version \(file.version.number), saved \(Format.date(file.version.saved))\(renamed))"
          )
        }
      }
      return ExitStatus.success
    }
  }

  static func json(_ file: RestoredFile) -> JSONValue {
    [
      "path": .string(file.path), "version": .int(file.version.number), "saved": .date(file.version.saved),
      "renamedFrom": .optional(file.renamedFrom.map { .string($0) }),
    ]
  }
}
