// The root of the command tree: global options and the list of commands, in help order.

import InklingCommandLine

enum RootCommand {
  static let version = "0.1.0"

  static let spec = CommandSpec(
    "inkling-archive",
    abstract: "Every saved version of every Inkling draft in one SQLite file.",
    discussion: """
      The archive is $INKLING_ARCHIVE, else $XDG_DATA_HOME/inkling-archive/drafts.sqlite \
      (~/.local/share/inkling-archive/drafts.sqlite); it is created on first use.

      Exit status: 0 all good; 1 some inputs were rejected (the rest were done); 2 usage \
      error; 3 the archive cannot be used (locked, corrupt, or from a newer version).
      """,
    options: [
      .value(
        "archive", valueName: "FILE",
        help: "The archive to use instead of $INKLING_ARCHIVE or the default location."),
      .flag("json", help: "Print JSON: one object, or one object per line for streams."),
      .flag("quiet", short: "q", help: "Print only errors."),
    ],
    subcommands: [
      ImportCommand.spec, ListCommand.spec, SearchCommand.spec, ShowCommand.spec,
      HistoryCommand.spec, DiffCommand.spec, RestoreCommand.spec, RevertCommand.spec,
      ExportCommand.spec, ThumbnailCommand.spec, RenderCommand.spec, ContactSheetCommand.spec,
      RenameCommand.spec, DeleteCommand.spec, UndeleteCommand.spec, PurgeCommand.spec,
      CheckCommand.spec, BackupCommand.spec, StatsCommand.spec, GCCommand.spec, ReindexCommand.spec,
    ],
    version: version)
}
