import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation
import InklingRendering

struct TimelapseCommand: Command {
  static let name = "timelapse"
  static let folderAdvice = "give the video a file name with -o, or write numbered PNG frames into it with --frames"

  static let spec = CommandSpec(
    name, abstract: "Replay a draft being drawn, stroke by stroke, across every save.",
    discussion: """
      The time-lapse is rebuilt from the archive, with no recorder: each stroke is drawn \
      in the order it was made, along the time offsets of its points (or, when its points \
      carry none, until the next stroke was made), over the background of its save. The \
      frames hold every stroke the replay draws, those erased later too. A stroke erased by a later save disappears at that save, one brought back \
      reappears, a background change shows at its save, and a revert shows as the jump it \
      was. Pauses between strokes, sittings and saves are shortened to a second. The frames \
      are the drawing's share image (as `render` draws it), fitted into --size. Versions \
      whose drawings do not decode are skipped with a note; strokes without usable times \
      are drawn at an even pace, with a note. Progress is shown while standard error is a \
      terminal. Ctrl-C or SIGTERM stops it between two frames: no video is written (nor a \
      temporary file left), and the frames already in --frames DIR stay.

      TIME (--duration, --hold) is a decimal number and a unit, h, min (or m), s or ms, or \
      several from the largest unit to the smallest: 45s, 1.5h, 1m30s, 2s500ms. A number \
      alone is seconds.

      Examples:
        inkling-archive timelapse Cat -o cat.mp4
        inkling-archive timelapse Cat -o cat.mp4 --duration 10s --fps 24 \\
          --size 1920x1080
        inkling-archive timelapse Cat -o cat.webp --size 480 --fps 15
        inkling-archive timelapse Cat -o - --format mp4 --from 3 --speed 20x \\
          > cat.mp4
        inkling-archive timelapse Cat --frames cat-frames
        inkling-archive timelapse Cat -o final.mp4 --to final
      """,
    exclusive: [["output", "frames"], ["format", "frames"], ["duration", "speed", "real-time"], ["size", "scale"]]
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(
    Option(
      "output", short: "o", valueName: "FILE", .file,
      help: "Write the video to FILE: FILE.mp4 is H.264 MP4, FILE.webp an animated WebP that loops. "
        + "`-` writes to standard output (with --format)."))
  var output: String?
  @Parsed(
    Option(
      "format", valueName: "FORMAT", .choice(TimelapseFormat.allCases),
      help: "mp4 or webp: the video format when FILE's extension does not say it (needed for `-o -`)."))
  var format: TimelapseFormat?
  @Parsed(
    Option(
      "frames", valueName: "DIR", .folder,
      help:
        "Write each frame as a numbered PNG (00001.png, …) into DIR, created when missing; "
        + "--json's marks give each save's frame by the same number."))
  var frames: String?
  @Parsed(
    Option(
      "duration", valueName: "TIME", ValueKind.time.where("a time above 0, " + ValueKind.timeForms) { $0 > 0 },
      help: "How long the video lasts, the hold included (default 30s, at most "
        + "\(Format.number(TimelapseOptions.maximumSeconds / 3600))h): the drawing time is fitted to it."))
  var duration: Double?
  @Parsed(
    Option(
      "speed", valueName: "FACTOR", Self.factor,
      help: "Play the drawing time (long pauses shortened) this many times faster, like 20x, instead of fitting it."))
  var speed: Double?
  @Parsed(
    Flag(
      "real-time", help: "Play the drawing as fast as it was drawn (long pauses still shortened to a second)."))
  var realTime: Bool
  @Parsed(
    Option(
      "fps", valueName: "N", .integer(in: TimelapseOptions.fpsRange), default: 30, help: "Frames per second."))
  var fps: Int
  @Parsed(
    Option(
      "size", valueName: "WxH", Self.dimensions,
      help: "Fit the frames into W×H pixels, or N pixels on the long side (default 1080); sides are even, "
        + "\(RenderGeometry.maxDimension) at most (\(TimelapseOptions.maximumWebPSide) for WebP) and "
        + "\(RenderGeometry.maxPixels / (1024 * 1024)) megapixels in all; an MP4's frames hold at most "
        + "\(Format.count(TimelapseOptions.maximumMP4Macroblocks)) blocks of 16×16 pixels (H.264's largest level, "
        + "6.2: 8192×4352, or 16384×2176), and a larger one is refused."))
  var size: (Int, Int)?
  @Parsed(
    Option(
      "scale", valueName: "S", .number(above: 0, atMost: 16),
      help: "Draw at S pixels per point instead of fitting a size, as `render --scale` does."))
  var scale: Double?
  @Parsed(
    Option(
      "from", valueName: "N", .version, help: "Start the replay at version N (1 is the oldest, or a label: `label`)."))
  var from: VersionSelector?
  @Parsed(
    Option(
      "to", valueName: "N", .version, help: "End the replay at version N (default: the newest; or a label)."))
  var to: VersionSelector?
  @Parsed(
    Option(
      "hold", valueName: "TIME", ValueKind.time.where("a time of 0 or more, " + ValueKind.timeForms) { $0 >= 0 },
      default: 2,
      help: "Hold the last frame this long (at most \(Format.number(TimelapseOptions.maximumHold / 60))min)."))
  var hold: Double
  @Parsed(Common.force) var force: Bool

  /// Where the time-lapse goes: where the library writes it, or standard output (`-o -`),
  /// where the command writes the video the library gives.
  enum Destination {
    case written(TimelapseDestination)
    case standardOutput(TimelapseFormat)
  }

  var options: TimelapseOptions {
    var options = TimelapseOptions()
    options.hold = hold
    if let duration {
      options.pace = .duration(duration)
    } else if let speed {
      options.pace = .speed(speed)
    } else if realTime {
      options.pace = .realTime
    }
    options.fps = fps
    if let scale {
      options.size = .scale(scale)
    } else if let (width, height) = size {
      options.size = .fit(width: width, height: height)
    }
    options.from = from
    options.to = to
    return options
  }

  private(set) var destination = Destination.standardOutput(.mp4)

  mutating func validate(_ parsed: ParsedArguments) throws {
    if let folder = frames {
      destination = .written(.frames(folder: folder))
    } else if let path = output {
      let target = OutputTarget(argument: path)
      let named = TimelapseFormat.allCases.first { path.lowercased().hasSuffix("." + $0.rawValue) }
      guard let format = format ?? named else {

        throw UsageError(
          target == .standardOutput
            ? "Say which video goes to standard output: --format \(Self.formatNames)."
            : "Cannot tell the video format from '\(path)': end it in \(Self.extensions) or give --format.")
      }
      switch target {
      case .file(let path): destination = .written(.video(path, format))
      case .standardOutput: destination = .standardOutput(format)
      }
    } else {
      throw UsageError("Say where the time-lapse goes: -o FILE or --frames DIR.")
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    let progress = context.progressLine()
    // Ctrl-C or SIGTERM ends the time-lapse between two frames, so that the library removes
    // the video's temporary file, which a signal's default action would leave behind.
    let stop = try StopSignals.install()
    let summary: TimelapseSummary
    do {
      let show = { (done: Int, total: Int) in
        if progress.isEnabled && (done == total || done % 10 == 0) {
          progress.update("Drawing frame \(Format.count(done)) of \(Format.count(total)) …")
        }
      }
      switch destination {
      case .written(let destination):
        summary = try archive.timelapse(
          of: draft, options: options, to: destination, overwrite: force, progress: show,
          shouldStop: { stop.isRequested })
      case .standardOutput(let format):
        let video: [UInt8]
        (video, summary) = try archive.timelapseVideo(
          of: draft, options: options, format: format, progress: show, shouldStop: { stop.isRequested })
        try OutputTarget.writeToStandardOutput(video)
      }
    } catch ArchiveError.timelapseStopped(let written) {
      progress.finish()
      if !context.quiet { context.printError("Stopped: " + stoppedSentence(framesWritten: written)) }
      return StopSignals.exitStatus(after: StopSignals.received, workHasAnEnd: true) ?? ExitStatus.interrupted
    } catch {
      progress.finish()
      throw error
    }
    progress.finish()
    for skipped in summary.skipped {
      context.printError(
        "note: version \(skipped.number) of \(Quoted.name(summary.draftName)) is left out: its drawing does not decode "
          + "(\(skipped.reason))")
    }
    if summary.evenPace {
      context.printError(
        "note: the strokes of \(Quoted.name(summary.draftName)) carry no usable times, so each is drawn at the same pace"
      )
    }
    let target: OutputTarget
    switch destination {
    case .written(.frames(let folder)): target = .file(folder)
    case .written(.video(let path, _)): target = .file(path)
    case .standardOutput: target = .standardOutput
    }
    let path = target.path
    context.report(
      summary.json(named: .init("path", .string(path))),
      "\(Quoted.text(path))  (\(Quoted.display(summary.draftName)), versions \(summary.firstVersion) to "
        + "\(summary.lastVersion), \(Plural.count(summary.strokes, "stroke")), \(Format.count(summary.frames)) frames "
        + "at \(summary.fps) fps = \(Format.number(summary.seconds)) s, \(summary.width) × \(summary.height) px)",
      dataTo: target)
    return ExitStatus.success
  }

  /// What a stop left: no video, or the frames written so far.
  private func stoppedSentence(framesWritten: Int) -> String {
    switch destination {
    case .written(.frames(let folder)):
      "\(Plural.count(framesWritten, "frame")) of the time-lapse \(framesWritten == 1 ? "is" : "are") in "
        + "\(Quoted.text(folder)); the rest were not drawn."
    case .written(.video(let path, _)): "\(Quoted.text(path)) was not written."
    case .standardOutput: "nothing was written to standard output."
    }
  }

  private static var formatNames: String { TimelapseFormat.allCases.map(\.rawValue).joined(separator: " or ") }
  private static var extensions: String { TimelapseFormat.allCases.map { "." + $0.rawValue }.joined(separator: " or ") }

  // MARK: - Value kinds

  /// `20x` or `20`: a speed factor above 0.
  static let factor = ValueKind<Double>(
    expected: "a factor above 0, like 20x", format: { Format.number($0) + "x" }, parse: parseFactor)

  private static func parseFactor(_ text: String) -> Double? {
    let digits = text.hasSuffix("x") ? String(text.dropLast()) : text
    guard let value = DecimalNumber.parse(digits), value > 0 else { return nil }
    return value
  }

  /// `1920x1080`, or `1080` for that many pixels on the long side.
  static let dimensions = ValueKind<(Int, Int)>(
    expected: "a size like 1920x1080 or 1080", format: { "\($0.0)x\($0.1)" }, parse: parseDimensions)

  private static func parseDimensions(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let width = Int(parts[0]), let height = Int(parts[parts.count - 1]),
      width > 0, height > 0
    else { return nil }
    return (width, height)
  }
}
