// The root of the command tree: the global options and the commands of the registry.

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingServer

enum RootCommand {
  static let version = About.version

  static let archive = Option(
    "archive", valueName: "FILE", .file,
    help: "The archive to use instead of $INKLING_ARCHIVE or the default location.")
  static let json = Flag("json", help: "Print JSON: one object, or one object per line for streams.")
  static let quiet = Flag("quiet", short: "q", help: "Print only errors.")

  static let spec = CommandSpec(
    "inkling-archive",
    abstract: "Every saved version of every Inkling draft in one SQLite file.",
    discussion: """
      The archive is $INKLING_ARCHIVE, else $XDG_DATA_HOME/inkling-archive/drafts.sqlite \
      (~/.local/share/inkling-archive/drafts.sqlite); it is created on first use.

      Files written (-o FILE of restore, thumbnail, render and contact-sheet; backup DEST): \
      `-` is standard output; a new file is written whole under a temporary name and then \
      given its own; an existing regular file is replaced only with --force; a symbolic link \
      is followed, and what it points to is written or replaced; a FIFO, a device (such as \
      /dev/null) or a socket is written into as it is, with or without --force, and never \
      replaced. In an export folder only regular files are ever replaced: a link or a \
      device there is left as it is and reported.

      Exit status: 0 all good; 1 some inputs were rejected (the rest were done), what was \
      asked does not exist, or a search matched nothing; 2 usage error; 3 the archive cannot be used (locked, corrupt, or \
      from a newer version).
      """,
    options: [archive.spec, json.spec, quiet.spec],
    lazySubcommands: Commands.all.map { command in CommandSpec.Subcommand(command.name) { command.spec } },
    version: version, versionDetails: { libraryLines(About.libraries + LinkedLibrary.server) })

  /// `--version --verbose`: one line per library, versions aligned.
  static func libraryLines(_ libraries: [LinkedLibrary]) -> String {
    let width = libraries.map(\.name.count).max() ?? 0
    return libraries.map { library in
      "  " + library.name + String(repeating: " ", count: width - library.name.count + 2) + library.version + "\n"
    }.joined()
  }
}
