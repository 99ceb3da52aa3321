import InklingCommandLine

enum ImportCommand {
  static let spec = CommandSpec(
    "import", abstract: "Add .inkling files and folders of drafts to the archive.",
    discussion: """
      Folders are searched recursively. Importing the same file twice adds nothing. Each file \
      is reported; files that cannot be read are reported and skipped, never half-stored. \
      Progress is shown while standard error is a terminal.

      Examples:
        inkling-archive import ~/Drafts
        inkling-archive import "Cat.inkling" "Dog 2.inkling"
      """,
    arguments: [.oneOrMore("PATH", help: "A .inkling file or a folder of them.")])
}
