// `note`: notes on drafts and on versions (Organise/Archive+Notes.swift).

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct NoteCommand: Command {
  static let name = "note"
  static let spec = CommandSpec(
    name, abstract: "Write a note on a draft or on one of its versions; list or remove notes.",
    discussion: """
      A note is kept by the archive, not in the draft's files: `show` and `history` print it, \
      and `search 'note:TEXT'` finds the drafts whose notes hold TEXT (any case and accents). \
      A draft or a version may have several notes; each has an id, which --remove takes.

      Examples:
        inkling-archive note "Plan-B" "Anna wants the roof in blue"
        inkling-archive note "Plan-B" --version 3 sent to the printer
        inkling-archive note "Plan-B" --edit
        inkling-archive note "Plan-B" --list
        inkling-archive note "Plan-B" --remove 7
      """
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(
    Argument(
      "TEXT", .text, repeating: (), allowsNone: true,
      help: "The note; several words are joined by spaces (quote the note to keep its own spacing)."))
  var words: [String]
  @Parsed(Common.version("Write the note on version N instead of on the draft.")) var version: VersionSelector?
  @Parsed(
    Flag(
      "edit", help: "Write the note in $VISUAL or $EDITOR (else vi) instead of giving TEXT; an empty file writes none.")
  )
  var edit: Bool
  @Parsed(Flag("list", help: "List the notes of the draft and of its versions, with their ids.")) var list: Bool
  @Parsed(
    Option(
      "remove", valueName: "ID", .positive, help: "Remove the note with this id (as --list, show and history give it).")
  )
  var remove: Int?

  enum Action {
    case add(String, VersionSelector?)
    case edit(VersionSelector?)
    case list
    case remove(Int64)
  }

  private(set) var action = Action.list

  mutating func validate(_ parsed: ParsedArguments) throws {
    let listing = list
    let removing = remove
    if edit {
      guard words.isEmpty else { throw parsed.usageError("--edit takes no TEXT: the note is written in the editor") }
      guard !listing && removing == nil else {
        throw parsed.usageError("--edit writes a note; leave out --list and --remove")
      }
      action = .edit(version)
    } else if listing || removing != nil {
      guard !(listing && removing != nil) else { throw parsed.usageError("give either --list or --remove, not both") }
      guard words.isEmpty else { throw parsed.usageError("--list and --remove take no TEXT") }
      guard version == nil else { throw parsed.usageError("--list and --remove take no --version") }
      action = removing.map { .remove(Int64($0)) } ?? .list
    } else {
      guard !words.isEmpty else { throw parsed.usageError("give the note's TEXT after the draft's name, or --list") }
      action = .add(words.joined(separator: " "), version)
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    var action = action
    if case .edit(let version) = action {
      // The draft and the version are found before the editor opens, not after a note is written.
      let archive = try context.openExisting()
      _ = try archive.show(draft: draft, version: version ?? .latest)
      do {
        action = .add(try NoteEditor.edit(), version)
      } catch {
        context.printError("Error: " + error.sentence)
        return ExitStatus.someInputsRejected
      }
    }
    switch action {
    case .edit: preconditionFailure("the editor's text became an .add above")
    case .add(let text, let version):
      let note = try context.openExisting().addNote(toDraft: draft, version: version, text: text)
      context.report(
        ["draft": .string(draft), "added": note.json],
        "Added note \(note.id) to \(Quoted.name(draft))\(note.version.map { " version \($0)" } ?? "").",
        dataTo: .file(""))
    case .remove(let id):
      let note = try context.openExisting().removeNote(id, fromDraft: draft)
      context.report(
        ["draft": .string(draft), "removed": note.json],
        "Removed note \(note.id) from \(Quoted.name(draft))\(note.version.map { " version \($0)" } ?? "").",
        dataTo: .file(""))
    case .list:
      let notes = try context.open(.readOnly).notes(ofDraft: draft)
      if context.json {
        context.printJSON(["draft": .string(draft), "notes": .array(notes.map(\.json))])
        return ExitStatus.success
      }
      guard !notes.isEmpty else { return ExitStatus.success }
      var table = TextTable(columns: [
        .init("ID", alignment: .right), .init("VERSION", alignment: .right), .init("WRITTEN"),
        .init("NOTE", maxWidth: 80),
      ])
      for note in notes {
        table.append([
          "\(note.id)", note.version.map(String.init) ?? "-", Format.date(note.written), Quoted.display(note.text),
        ])
      }
      context.printRaw(table.rendered())
    }
    return ExitStatus.success
  }
}
