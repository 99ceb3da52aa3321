import InklingCommandLine

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
    ],
    exclusive: [["--version", "--at"], ["--to", "--output"]])
}
