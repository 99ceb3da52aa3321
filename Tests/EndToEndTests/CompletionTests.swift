import Foundation
import InklingTestSupport
import Testing

/// The man page and the completion scripts, made from the command table, used by real
/// shells and man.
@Suite struct CompletionTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "complete", making: ["Drafts/some folder"])
    for name in ["Cat", "Café sketch", "Dog"] {
      try runner.temporary.write(
        "Drafts/\(name)-2025-10-05T14:03:12Z.inkling",
        #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#)
    }
    #expect(try runner.run(["-q", "import", folder + "/Drafts"]).status == 0)
  }

  /// Runs `script` in `shell` with the built binary first on PATH and the test archive as
  /// the default one.
  func shell(_ shell: String, _ arguments: [String]) throws -> ChildProcess.Result {
    let path = BinaryRunner.binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return try ChildProcess.run(
      ["/usr/bin/env", shell] + arguments, environment: ["PATH": path, "INKLING_ARCHIVE": folder + "/archive.sqlite"],
      workingDirectory: folder)
  }

  /// What bash's completion offers for `words` (the last one being completed), from the
  /// script `completions bash` prints.
  func completeInBash(_ words: [String]) throws -> [String] {
    let script = try runner.run(["completions", "bash"])
    #expect(script.status == 0)
    try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/c.bash"))
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let run = try shell(
      "bash",
      [
        "-c",
        "source c.bash; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _inkling_archive; "
          + "printf '%s\\n' \"${COMPREPLY[@]}\"",
      ])
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsValuesAndDraftNames() throws {
    func complete(_ words: [String]) throws -> [String] { try completeInBash(words) }
    #expect(try complete(["inkling-archive", "res"]) == ["restore"])
    #expect(try complete(["inkling-archive", "history", "Ca"]).sorted() == [#"Café\ sketch"#, "Cat"])
    #expect(try complete(["inkling-archive", "restore", "Cat", "--v"]) == ["--version"])
    #expect(try complete(["inkling-archive", "list", "--sort", "o"]) == ["oldest"])
    #expect(try complete(["inkling-archive", "restore", "Cat", "--to", "Dr"]) == ["Drafts"])
    #expect(try complete(["inkling-archive", "completions", "z"]) == ["zsh"])
  }

  /// The bash script is shell code like any other: `shellcheck -S warning` finds nothing in
  /// it (SC2207 aside: `COMPREPLY=($(compgen -W …))` over our own fixed words is the usual
  /// completion idiom). Its `--archive ~/FILE` still reaches the program as the home folder's.
  @Test func shellcheckFindsNothingInTheBashScript() throws {
    let script = try runner.run(["completions", "bash"])
    #expect(script.status == 0)
    try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/c.bash"))
    let shellcheck = "/usr/bin/shellcheck"
    try #require(FileManager.default.isExecutableFile(atPath: shellcheck), "scripts/setup test installs shellcheck")
    let lint = try ChildProcess.run([shellcheck, "-S", "warning", "-e", "SC2207", "-s", "bash", folder + "/c.bash"])
    #expect(lint.status == 0 && lint.stdout.isEmpty, "\(lint.stdout)\(lint.stderr)")

    let path = BinaryRunner.binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let tilde = try ChildProcess.run(
      [
        "/usr/bin/env", "bash", "-c",
        "source c.bash; COMP_WORDS=(inkling-archive --archive '~/archive.sqlite' history Ca); COMP_CWORD=4; "
          + "_inkling_archive; printf '%s\\n' \"${COMPREPLY[@]}\"",
      ], environment: ["PATH": path, "HOME": folder, "INKLING_ARCHIVE": folder + "/elsewhere.sqlite"],
      workingDirectory: folder)
    #expect(tilde.stdout.split(separator: "\n").sorted() == [#"Café\ sketch"#, "Cat"], "\(tilde.stderr)")
  }

  /// The scripts ask the program for the names that start with the word typed (never for
  /// every name), and it answers from the archive's names, case and accents aside, at most
  /// --limit of them, in folded order; the command is not in the command list.
  @Test func theProgramGivesTheNamesThatStartWithTheWordTyped() throws {
    let cafe = try runner.run(["complete-names", "--", "cafe"])
    #expect(cafe.status == 0)
    #expect(cafe.stdout == "Café sketch\0")
    #expect(try runner.run(["complete-names", "--limit", "2"]).stdout == "Café sketch\0Cat\0")
    #expect(try runner.run(["complete-names", "--", "-x"]).stdout == "")
    #expect(try runner.run(["complete-names", "--trash", "--", "D"]).stdout == "")
    #expect(!(try runner.run(["--help"]).stdout.contains("complete-names")))
    for shellName in ["bash", "zsh", "fish"] {
      let script = try runner.run(["completions", shellName])
      #expect(script.stdout.contains("complete-names"), "\(shellName)")
      #expect(!script.stdout.contains("list --paths"), "\(shellName)")
    }
    #expect(try completeInBash(["inkling-archive", "history", "Caf"]) == [#"Café\ sketch"#])
    #expect(try completeInBash(["inkling-archive", "history", "D"]) == ["Dog"])
  }

  @Test func fishCompletesTheSame() throws {
    let script = try runner.run(["completions", "fish"])
    try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/c.fish"))
    func complete(_ line: String) throws -> [String] {
      let run = try shell("fish", ["-c", "source c.fish; complete -C '\(line)'"])
      #expect(run.status == 0, "\(run.stderr)")
      return run.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
    #expect(try complete("inkling-archive res") == ["restore"])
    #expect(try complete("inkling-archive history Ca").sorted() == ["Café sketch", "Cat"])
    #expect(try complete("inkling-archive list --sort ").contains("oldest"))
  }

  /// `undelete` offers what is in the trash, not the live drafts, in every shell.
  @Test func undeleteCompletesTheDraftsInTheTrash() throws {
    #expect(try runner.run(["delete", "Dog"]).status == 0)
    for shellName in ["bash", "fish", "zsh"] {
      let script = try runner.run(["completions", shellName])
      #expect(script.stdout.contains("complete-names --trash"), "\(shellName)")
    }
    #expect(try completeInBash(["inkling-archive", "undelete", ""]) == ["Dog"])
    #expect(try completeInBash(["inkling-archive", "delete", "D"]) == [])
    let fish = try runner.run(["completions", "fish"])
    try Data(fish.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/c.fish"))
    let run = try shell("fish", ["-c", "source c.fish; complete -C 'inkling-archive undelete '"])
    #expect(run.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") } == ["Dog"])
  }

  @Test func zshReadsItsScript() throws {
    let script = try runner.run(["completions", "zsh"])
    #expect(script.stdout.hasPrefix("#compdef inkling-archive\n"))
    try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/_inkling-archive"))
    let check = try shell("zsh", ["-n", "_inkling-archive"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(script.stdout.contains("'restore:Write a version of a draft back out, byte for byte.'"))
    #expect(script.stdout.contains("{_inkling_archive_prefixed complete-names}"))
  }

  @Test func theManualPageRendersWithoutWarnings() throws {
    let page = try runner.run(["manual"])
    #expect(page.status == 0)
    #expect(page.stdout.hasPrefix(".TH INKLING-ARCHIVE 1"))
    try Data(page.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/inkling-archive.1"))
    let rendered = try shell("man", ["--warnings", "-E", "UTF-8", "-l", "inkling-archive.1"])
    #expect(rendered.status == 0)
    #expect(rendered.stderr == "", "\(rendered.stderr)")
    // Every command of the help is in the manual, with its options.
    for command in ["import", "restore", "thumbnail", "completions", "manual"] {
      #expect(rendered.stdout.contains("inkling-archive \(command)"), "\(command)")
    }
    #expect(rendered.stdout.contains("--all-versions"))
    // The sections a reader of a manual page looks for, at the end as man-pages(7) orders them.
    let headings = page.stdout.split(separator: "\n").filter { $0.hasPrefix(".SH ") }
    #expect(headings.suffix(3) == [".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH FILES"])
    #expect(rendered.stdout.contains("INKLING_ARCHIVE: the archive to use when --archive is not given."))
  }

  /// The page passes the validators of man pages: `mandoc -T lint` reports nothing (a `.TH`
  /// with the version's date, no paragraph macro right after a heading, no input line over
  /// 80 bytes), `groff -ww` reads it as it is (ASCII only: `…` and `×` are escapes), and
  /// rendered at 80 columns no line is wider, examples included.
  @Test func theManualPagePassesMandocLintAndGroff() throws {
    let page = try runner.run(["manual"])
    #expect(page.status == 0)
    try Data(page.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/inkling-archive.1"))
    let version = try String(
      contentsOfFile: PackageFolder.path("Sources/InklingArchive/About/VERSION"), encoding: .utf8
    ).split(separator: "\n")
    #expect(version.count == 2 && version[1].wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "VERSION: \(version)")
    #expect(
      page.stdout.hasPrefix(".TH INKLING-ARCHIVE 1 \(version[1]) \"inkling-archive \(version[0])\"\n"),
      "\(page.stdout.prefix(80))")
    let ascii = page.stdout.unicodeScalars.allSatisfy { $0.isASCII }
    #expect(ascii)
    let lines = page.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    for (heading, next) in zip(lines, lines.dropFirst()) where heading.hasPrefix(".SH") || heading.hasPrefix(".SS") {
      #expect(next != ".PP" && next != ".LP" && next != ".P", "\(heading) is followed by \(next)")
    }
    #expect(page.stdout.contains("\\&...") && page.stdout.contains("\\(mu"))

    let lint = try shell("mandoc", ["-T", "lint", "-W", "style", "inkling-archive.1"])
    #expect(lint.status == 0, "mandoc -T lint: \(lint.status)")
    #expect(lint.stdout + lint.stderr == "", "mandoc -T lint:\n\(lint.stdout)\(lint.stderr)")
    let groff = try shell("groff", ["-ww", "-man", "-z", "inkling-archive.1"])
    #expect(groff.status == 0)
    #expect(groff.stderr == "", "groff -ww:\n\(groff.stderr)")

    let rendered = try shell("mandoc", ["-T", "utf8", "-O", "width=80", "inkling-archive.1"])
    #expect(rendered.status == 0)
    // Bold and underlined text is written with backspaces, which take no column.
    let plain = rendered.stdout.replacing(/.\x08/, with: "")
    let wide = plain.split(separator: "\n").filter { $0.count > 80 }
    #expect(wide.isEmpty, "wider than 80 columns:\n\(wide.joined(separator: "\n"))")
    #expect(plain.contains("inkling-archive search --paths \\\n"))
  }
}
