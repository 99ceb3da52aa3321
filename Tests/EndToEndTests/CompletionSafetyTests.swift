import Foundation
import InklingTestSupport
import Testing

/// Draft names in completions: names come from file names in synced folders, so a name is never
/// run, whatever it holds, in bash, zsh or fish; an ordinary name (spaces, a colon) is inserted
/// as one word that the shell reads back as exactly the name; and the names come from the
/// archive given with --archive on the line, else from $INKLING_ARCHIVE. Each shell completes
/// through its own machinery: bash calls the function with COMP_WORDS set, zsh completes a
/// typed line in a pseudo-terminal (zpty) and runs it, fish answers `complete -C`.
@Suite struct CompletionSafetyTests {
  /// Names that would run `touch PWNED` (or glob, or split) if a script expanded them.
  static let hostile = [
    "Q$(touch PWNED)", "Q`touch PWNED`", "Q; touch PWNED", "Q*", "Q'it\"s", "Q${IFS}x", "Q\\back", "Q\nline",
  ]
  static let ordinary = ["Harbour: idea", "Logo 17275"]

  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  /// $INKLING_ARCHIVE in the shells: another archive, with one draft of its own.
  let other: String

  init() throws {
    let runner = try BinaryRunner(fresh: "complete-safe", making: ["Drafts", "Other"])
    let folder = runner.workingDirectory
    let draft = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#
    for name in Self.hostile + Self.ordinary {
      try runner.temporary.write("Drafts/\(name)-2025-10-05T14:03:12Z.inkling", draft)
    }
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    try runner.temporary.write("Other/Quiet other-2025-10-05T14:03:12Z.inkling", draft)
    let other = folder + "/other.sqlite"
    #expect(try runner.run(["--archive", other, "import", folder + "/Other"]).status == 0)
    for shell in ["bash", "zsh", "fish"] {
      let script = try runner.run(["completions", shell])
      #expect(script.status == 0)
      try runner.temporary.write(shell == "zsh" ? "zfunc/_inkling-archive" : "c.\(shell)", script.stdout)
    }
    self.runner = runner
    self.other = other
  }

  /// Runs `arguments` with the built binary first on PATH, in the test folder.
  func shell(_ arguments: [String]) throws -> ChildProcess.Result {
    let path = BinaryRunner.binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let result = try ChildProcess.run(
      arguments, environment: ["PATH": path, "INKLING_ARCHIVE": other, "HOME": folder], workingDirectory: folder,
      timeout: 60)
    #expect(!result.timedOut, "\(arguments)")
    return result
  }

  func expectNothingRan() {
    #expect(!FileManager.default.fileExists(atPath: folder + "/PWNED"))
    #expect(!filesUnder(folder).contains { $0.hasSuffix("PWNED") })
  }

  // MARK: - bash

  /// COMPREPLY for `words` (the last one being completed), each with what bash reads it as.
  func bash(_ words: [String]) throws -> [(reply: String, word: String)] {
    // The words reach bash as arguments, never as script text.
    let script = """
      source ./c.bash
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _inkling_archive
      for reply in "${COMPREPLY[@]}"; do
        eval "word=$reply"
        printf '%s\\0%s\\0' "$reply" "$word"
      done
      """
    let run = try shell(["/usr/bin/bash", "-c", script, "bash"] + words)
    #expect(run.status == 0, "\(run.stderr)")
    let fields = Array(run.stdout.split(separator: "\0", omittingEmptySubsequences: false).map(String.init).dropLast())
    return stride(from: 0, to: fields.count - 1, by: 2).map { (fields[$0], fields[$0 + 1]) }
  }

  @Test func bashRunsNothingAndQuotesEveryName() throws {
    let replies = try bash(["inkling-archive", "--archive", runner.archive, "history", "Q"])
    expectNothingRan()
    #expect(Set(replies.map(\.word)) == Set(Self.hostile), "\(replies)")
    #expect(replies.first { $0.word == "Q$(touch PWNED)" }?.reply == #"Q\$\(touch\ PWNED\)"#)
    #expect(replies.first { $0.word == "Q\nline" }?.reply == "$'Q\\nline'")
    expectNothingRan()

    let harbour = try bash(["inkling-archive", "--archive", runner.archive, "restore", "Harb"])
    #expect(harbour.map(\.reply) == [#"Harbour\:\ idea"#])
    #expect(harbour.map(\.word) == ["Harbour: idea"])
    // Typed with a backslash already, or after an opening quote (readline closes it).
    #expect(
      try bash(["inkling-archive", "--archive", runner.archive, "show", #"Logo\ 1"#]).map(\.word) == ["Logo 17275"])
    #expect(try bash(["inkling-archive", "--archive", runner.archive, "show", "'Logo"]).map(\.reply) == ["Logo 17275"])
    // `--archive=FILE` reaches the function as three words; after the command it counts too.
    #expect(
      try bash(["inkling-archive", "--archive", "=", runner.archive, "show", "Lo"]).map(\.word) == ["Logo 17275"])
    #expect(try bash(["inkling-archive", "show", "--archive", runner.archive, "Lo"]).map(\.word) == ["Logo 17275"])
    // Without --archive, $INKLING_ARCHIVE's names.
    #expect(try bash(["inkling-archive", "history", "Q"]).map(\.word) == ["Quiet other"])
    expectNothingRan()
  }

  @Test func bashFileNamesAreNotSplitOrGlobbed() throws {
    try runner.temporary.write("in folder/a b*.png", "x")
    let replies = try bash(["inkling-archive", "thumbnail", "Logo 17275", "-o", "in\\ folder/a"])
    #expect(replies.map(\.reply) == ["in folder/a b*.png"])
  }

  // MARK: - zsh

  /// What the command line `typed` + Tab runs in an interactive zsh: the arguments it passes
  /// to `inkling-archive` (a function standing in for the program, which the completion
  /// itself bypasses with `command`).
  func zsh(_ typed: String) throws -> String? {
    let driver = #"""
      zmodload zsh/zpty
      zpty -b z 'TERM=dumb zsh -f -i'
      zpty -w z 'PS1="%% "; unsetopt beep; fpath=(./zfunc $fpath); autoload -Uz compinit; compinit -u -D; inkling-archive() { print -r -- "RES""ULT<${(j:|:)@}>END" }'
      zpty -w -n z "$1"$'\t'
      zpty -w -n z $'\r'
      local all="" line
      integer deadline=$(( SECONDS + 30 ))
      while (( SECONDS < deadline )) && [[ $all != *RESULT\<*\>END* ]]; do
        zpty -rt z line && all+=$line || sleep 0.05
      done
      zpty -d z
      print -rn -- "${${all##*RESULT<}%%>END*}"
      """#
    try runner.temporary.write("drive.zsh", driver)
    let run = try shell(["/usr/bin/zsh", "-f", "drive.zsh", typed])
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout.isEmpty ? nil : run.stdout
  }

  @Test func zshRunsNothingAndInsertsOneWordPerName() throws {
    let archive = runner.archive
    for name in Self.hostile where name != "Q\nline" {
      // Typed up to its third character, each special one after a backslash; Tab does the rest.
      let typed = name.prefix(3).map { $0.isLetter ? String($0) : "\\\($0)" }.joined()
      let ran = try zsh("inkling-archive --archive \(archive) history " + typed)
      expectNothingRan()
      #expect(ran == ["--archive", archive, "history", name].joined(separator: "|"), "\(typed)")
    }
    #expect(
      try zsh("inkling-archive --archive \(archive) history Harb")
        == ["--archive", archive, "history", "Harbour: idea"].joined(separator: "|"))
    #expect(
      try zsh("inkling-archive --archive=\(archive) show Lo")
        == ["--archive=" + archive, "show", "Logo 17275"].joined(separator: "|"))
    #expect(try zsh("inkling-archive history Qu") == ["history", "Quiet other"].joined(separator: "|"))
    expectNothingRan()
  }

  // MARK: - fish

  /// The names `complete --escape -C` gives for `line`, as fish reads each escaped one back.
  func fish(_ line: String) throws -> [String] {
    // The line reaches fish as an argument, never as script text; each candidate ends in a
    // tab and its description.
    let script = """
      source c.fish
      for candidate in (complete --escape -C $argv[1])
          set -l escaped (string split -m 1 \\t -- $candidate)[1]
          eval "set word $escaped"
          printf '%s\\0' $word
      end
      """
    let run = try shell(["/usr/bin/fish", "-c", script, line])
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout.split(separator: "\0").map(String.init)
  }

  @Test func fishRunsNothingAndHonoursTheArchive() throws {
    let candidates = try fish("inkling-archive --archive \(runner.archive) history Q")
    expectNothingRan()
    #expect(Set(candidates) == Set(Self.hostile), "\(candidates)")
    #expect(try fish("inkling-archive --archive=\(runner.archive) show Harb") == ["Harbour: idea"])
    #expect(try fish("inkling-archive show --archive \(runner.archive) Lo") == ["Logo 17275"])
    #expect(try fish("inkling-archive history Q") == ["Quiet other"])
    // `~/` as the shell expands it on the line (HOME is the test's folder).
    let home = "~/" + (runner.archive as NSString).lastPathComponent
    #expect(runner.archive.hasPrefix(folder + "/"))
    #expect(try fish("inkling-archive --archive \(home) show Harb") == ["Harbour: idea"])
    #expect(try fish("inkling-archive --archive=\(home) show Harb") == ["Harbour: idea"])
    expectNothingRan()
  }
}
