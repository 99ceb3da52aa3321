import InklingCommandLine

enum BackupCommand {
  static let spec = CommandSpec(
    "backup", abstract: "Copy the archive safely, even while it is in use.",
    arguments: [.required("DEST", help: "The file to write the copy to.")])
}
