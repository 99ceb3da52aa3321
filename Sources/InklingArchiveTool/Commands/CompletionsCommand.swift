import InklingCommandLine

struct CompletionsCommand: Command {
  static let name = "completions"

  static let spec = CommandSpec(
    name, abstract: "Print a shell completion script: commands, options, files and draft names.",
    discussion: """
      Draft names are completed from the archive by `inkling-archive complete-names [--trash] \
      -- TEXT`, which prints at most 200 names that start with the text typed (case and accents \
      aside), from the archive's index of names, and a query that starts with @ by the names \
      of the saved searches (`complete-names --saved -- @TEXT`); the command is left out of the \
      command list as it is \
      the scripts' own: the archive given with --archive on the line, else $INKLING_ARCHIVE or \
      the default one. \
      A name is inserted as one word, quoted for the shell, and never run, whatever it \
      holds (`$(…)`, backticks, `;`, `*`, quotes or newlines).

      Examples:
        inkling-archive completions bash \\
          > ~/.local/share/bash-completion/completions/inkling-archive
        inkling-archive completions zsh > ~/.zfunc/_inkling-archive
        inkling-archive completions fish \\
          > ~/.config/fish/completions/inkling-archive.fish
      """
  ).declaring { Self() }

  @Parsed(Argument("SHELL", .choice(CompletionScript.Shell.allCases), help: "bash, zsh or fish."))
  var shell: CompletionScript.Shell

  func validate(_ parsed: ParsedArguments) throws {
    try Common.refuseJSON(parsed, prints: "a shell script")
  }

  func run(_ context: CommandContext) throws -> Int32 {
    context.printRaw(CompletionScript.render(RootCommand.spec, shell: shell))
    return ExitStatus.success
  }
}
