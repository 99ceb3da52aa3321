// The one registry of commands, in the order `--help` lists them.

enum Commands {
  static var all: [any Command.Type] {
    [
      ImportCommand.self, WatchCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self,
      HistoryCommand.self,
      DiffCommand.self, RestoreCommand.self, RevertCommand.self, ExportCommand.self, ThumbnailCommand.self,
      RenderCommand.self, ContactSheetCommand.self, TimelapseCommand.self,
      TagCommand.self, UntagCommand.self, TagsCommand.self, StarCommand.self, UnstarCommand.self, NoteCommand.self,
      LabelCommand.self,
      RenameCommand.self, DeleteCommand.self, UndeleteCommand.self,
      PurgeCommand.self, CheckCommand.self, BackupCommand.self, StatsCommand.self, GCCommand.self, ReindexCommand.self,
      ServeCommand.self,
      ManualCommand.self, CompletionsCommand.self, LicensesCommand.self, CompleteNamesCommand.self,
    ]
  }

  /// The command called `name`.
  static func named(_ name: String) -> (any Command.Type)? {
    all.first { $0.name == name }
  }
}
