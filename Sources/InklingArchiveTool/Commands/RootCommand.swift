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

  /// The global options as the root's spec lists them and every command's context reads them
  /// (`--json` is also read before parsing, and named in exclusive groups, hence its `static let`).
  struct GlobalOptions {
    @Parsed(RootCommand.archive) var archive: String?
    @Parsed(RootCommand.json) var json: Bool
    @Parsed(RootCommand.quiet) var quiet: Bool
  }

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
      replaced. In a folder where the archive names the files (export, restore --to, \
      timelapse --frames) only regular files are ever written or replaced: a link or a \
      device with such a name is left as it is and reported.
      """,
    sections: sections,
    lazySubcommands: Commands.all.map { command in
      CommandSpec.Subcommand(command.name, hidden: command.hidden) { command.spec }
    },
    version: version, versionDetails: { libraryLines(libraries) }
  ).declaring { GlobalOptions() }

  /// Every library linked in, with the version it reports (`--version --verbose`).
  static var libraries: [LinkedLibrary] { About.libraries + LinkedLibrary.server }

  /// The manual's EXIT STATUS, ENVIRONMENT and FILES, also at the end of `--help`.
  static let sections = [
    HelpSection(
      "EXIT STATUS",
      """
      0 all good. 1 some inputs were rejected (the rest were done), what was asked does not \
      exist, or a search matched nothing. 2 usage error: the command line is wrong, nothing \
      was done. 3 the archive cannot be used: locked by another process too long, damaged, \
      not an archive, or from a newer version. 130 stopped by Ctrl-C (SIGINT): import, watch \
      and serve first finish the batch or the requests in flight, export the file it is \
      writing, timelapse the frame it is drawing; SIGTERM ends watch and serve with 0, an \
      import, export or timelapse with 143.
      """),
    HelpSection(
      "ENVIRONMENT",
      """
      INKLING_ARCHIVE: the archive to use when --archive is not given.

      XDG_DATA_HOME: the folder of the default archive (an absolute path; a relative one is \
      ignored, as the XDG specification says), else HOME/.local/share.

      XDG_STATE_HOME: the folder of serve's kept token (inkling-archive/serve-token), else \
      HOME/.local/state.

      HOME: the home folder, when XDG_DATA_HOME or XDG_STATE_HOME is not set; without it, the \
      account's.

      TMPDIR: where a file poured into a FIFO or device (-o /dev/stdout, a pipe) is made \
      first, else /tmp.

      TZ: the local time zone, in which dates are shown and read unless they carry Z or an offset.
      """),
    HelpSection(
      "FILES",
      """
      ~/.local/share/inkling-archive/drafts.sqlite: the default archive. Beside it SQLite \
      keeps drafts.sqlite-wal and drafts.sqlite-shm while a command has it open; copy the \
      archive with `inkling-archive backup`, not with cp, while one runs. A new archive, the \
      files beside it and every file a command writes are readable by their owner alone.

      ~/.local/state/inkling-archive/serve-token: the token serve asks every request for, made \
      on its first run, readable by the user only (0600, in a 0700 folder); remove it for a \
      new one. `inkling-archive serve --print-url` prints the address with it.

      /usr/lib/systemd/user/inkling-archive-watch.service and inkling-archive-serve.service \
      (from the Debian package): `systemctl --user enable --now inkling-archive-watch` keeps \
      importing ~/Drafts, or the folders of INKLING_WATCH_FOLDERS in \
      ~/.config/inkling-archive/watch.env (separated by spaces; a folder whose name holds one \
      in double quotes, the whole list in single quotes); `systemctl --user enable --now \
      inkling-archive-serve` serves the archive on 127.0.0.1:8377 (settings in \
      ~/.config/inkling-archive/serve.env), at the address `inkling-archive serve --print-url` \
      prints.
      """),
  ]

  /// `--version --verbose`: one line per library, versions aligned.
  static func libraryLines(_ libraries: [LinkedLibrary]) -> String {
    let width = libraries.map(\.name.count).max() ?? 0
    return libraries.map { library in
      "  " + library.name + String(repeating: " ", count: width - library.name.count + 2) + library.version + "\n"
    }.joined()
  }
}
