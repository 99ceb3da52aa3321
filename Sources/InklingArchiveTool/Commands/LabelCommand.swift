// `label`: names for versions (Organise/Archive+Labels.swift).

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct LabelCommand: Command {
  static let name = "label"
  static let spec = CommandSpec(
    name, abstract: "Name a version of a draft, as git tags a commit; list or remove names.",
    discussion: """
      A label names one version of its draft, compared as names are searched (any case and \
      accents), and every --version option takes it where it takes a number: `restore \
      "Plan-B" --version final`. `history`, `show` and `diff` show labels, and `search \
      'label:final'` finds the drafts with a version so named. Without NAME, lists the \
      draft's labels.

      Examples:
        inkling-archive label "Plan-B" --version 3 "sent to printer"
        inkling-archive label "Plan-B" final
        inkling-archive restore "Plan-B" --version final -o plan.inkling
        inkling-archive label "Plan-B" --remove final
        inkling-archive label "Plan-B"
      """
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(
    Argument(
      "NAME", .text, repeating: (), allowsNone: true,
      help: "The label, e.g. final or \"sent to printer\"; several words are joined by spaces. Not a whole number."))
  var words: [String]
  @Parsed(Common.version("The version to label (default: the newest).")) var version: VersionSelector?
  @Parsed(Flag("remove", help: "Take the label NAME away from the version that has it.")) var remove: Bool

  enum Action {
    case add(String, VersionSelector)
    case remove(String)
    case list
  }

  private(set) var action = Action.list

  mutating func validate(_ parsed: ParsedArguments) throws {
    let name = words.joined(separator: " ")
    if remove {
      guard !words.isEmpty else { throw parsed.usageError("give the label to remove after the draft's name") }
      guard version == nil else { throw parsed.usageError("--remove takes no --version: a label names one version") }
      action = .remove(name)
    } else if words.isEmpty {
      guard version == nil else { throw parsed.usageError("give the label's NAME after the draft's name") }
      action = .list
    } else {
      action = .add(name, version ?? .latest)
    }
  }

  static func json(_ label: VersionLabel) -> JSONValue {
    ["name": .string(label.name), "version": .int(label.version)]
  }

  func run(_ context: CommandContext) throws -> Int32 {
    switch action {
    case .add(let name, let version):
      let label = try context.openExisting().label(draft: draft, version: version, as: name)
      context.report(
        ["draft": .string(draft), "labelled": Self.json(label)],
        "Labelled \(Quoted.name(draft)) version \(label.version) \(Quoted.name(label.name)).", dataTo: .file(""))
    case .remove(let name):
      let label = try context.openExisting().removeLabel(name, fromDraft: draft)
      context.report(
        ["draft": .string(draft), "removed": Self.json(label)],
        "Removed the label \(Quoted.name(label.name)) from \(Quoted.name(draft)) version \(label.version).",
        dataTo: .file(""))
    case .list:
      let labels = try context.open(.readOnly).labels(ofDraft: draft)
      if context.json {
        context.printJSON(["draft": .string(draft), "labels": .array(labels.map(Self.json))])
        return ExitStatus.success
      }
      guard !labels.isEmpty else { return ExitStatus.success }
      var table = TextTable(columns: [.init("LABEL", maxWidth: 48), .init("VERSION", alignment: .right)])
      for label in labels { table.append([Quoted.display(label.name), "\(label.version)"]) }
      context.printRaw(table.rendered())
    }
    return ExitStatus.success
  }
}
