// `timelapse`: a draft's drawing being made, rebuilt from its saves (no recorder needed).
//
// The versions `from` … `to` go oldest first into a `TimelapsePlanner`
// (InklingRendering/Timelapse), which keeps each distinct stroke once: as the drawing index
// lists their strokes, with the pieces of each stroke from the few drawings that hold them all
// (`TimelapseSaves`), so that a long history is not every save's drawing read again; and each
// save as the strokes after those it shares at its start with the save before (the planner
// has those), so that it is not every save's whole stroke list gone through again. The
// version before `from`, when there is one, is the state the replay starts from. Versions
// whose drawing does not decode are skipped and named in the summary. The plan's frames
// (`TimelapseFrames`, painted incrementally) go to a frame sink: numbered PNGs, an H.264 MP4
// or an animated WebP. The same archive and options give the same bytes.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

#if canImport(Glibc)
  import Glibc
#endif

/// How a time-lapse is made.
public struct TimelapseOptions: Sendable, Equatable {
  /// How long the drawing takes on screen.
  public var pace: TimelapsePace = .duration(30)
  /// Frames per second, 1 … 120.
  public var fps = 30
  /// Seconds the last frame is held, 0 … 600.
  public var hold = 2.0
  /// The frames' size.
  public var size: TimelapseSize = .fit(width: 1080, height: 1080)
  /// The first and last version replayed, as every `--version` names one (a number, 1 being
  /// the oldest, or a label); nil for the first and the newest.
  public var from: VersionSelector?
  public var to: VersionSelector?

  public init() {}

  /// The longest drawing part of a video (ten hours): a longer one is refused, whatever the
  /// pace asks, rather than drawn for days.
  public static let maximumSeconds = 36_000.0
  public static let fpsRange = 1...120
  public static let maximumHold = 600.0
  /// The widest and tallest frame of an animated WebP: libwebp's `WEBP_MAX_DIMENSION`, one
  /// pixel short of the renderer's `RenderGeometry.maxDimension`.
  public static let maximumWebPSide = 16_383
  /// The most 16 × 16-pixel blocks (macroblocks) an MP4's frame holds: H.264 level 6.2's,
  /// the largest of the standard's level table (8192 × 4352 pixels, or 16384 × 2176).
  public static let maximumMP4Macroblocks = H264Level.maximumMacroblocks
}

/// What a time-lapse video is written as.
public enum TimelapseFormat: String, Sendable, Equatable, CaseIterable {
  /// H.264 in MP4 (yuv420p, index first), for every browser and phone.
  case mp4
  /// An animated WebP that loops, for chat apps and browsers.
  case webp
}

/// Where a time-lapse goes.
public enum TimelapseDestination: Sendable, Equatable {
  /// Numbered PNGs (`00001.png`, …) in a folder, created when missing.
  case frames(folder: String)
  /// One video file at this path (`timelapseVideo` gives the bytes instead).
  case video(String, TimelapseFormat)
}

/// A version the time-lapse left out because its drawing does not decode.
public struct SkippedVersion: Sendable, Equatable {
  public var number: Int
  public var reason: String
}

/// Where a save shows in a time-lapse: the first frame with that version's drawing done.
public struct TimelapseMark: Sendable, Equatable {
  public var version: Int
  /// 1 for the first frame, as `--frames` numbers its files (`00001.png`) and as versions
  /// are numbered.
  public var frame: Int
  /// The frame's time in the video, `(frame - 1) / fps`.
  public var seconds: Double
  /// The version's labels (`Archive.label`), as `history` lists them; empty when it has none.
  public var labels: [String] = []
}

/// What a time-lapse shows and how it was written.
public struct TimelapseSummary: Sendable, Equatable {
  public var draftName: String
  /// The first and last version replayed.
  public var firstVersion: Int
  public var lastVersion: Int
  public var frames: Int
  public var width: Int
  public var height: Int
  public var fps: Int
  /// `frames / fps`.
  public var seconds: Double
  /// The strokes drawn (those the replayed saves added).
  public var strokes: Int
  /// Versions in the range that do not decode, oldest first.
  public var skipped: [SkippedVersion]
  /// True when the strokes had no usable times, so each was drawn in the same time.
  public var evenPace: Bool
  /// Each replayed version's place in the video, oldest first (the skipped ones have none).
  public var marks: [TimelapseMark]
  /// How many drawings were read to plan it: the few saves that hold every stroke once.
  package var drawingsRead = 0
  /// How many strokes the planner looked at: those each save does not share at its start with
  /// the save before it, and every stroke of the newest.
  package var strokesPlanned = 0
}

/// Receives a time-lapse's frames in order.
protocol TimelapseSink {
  mutating func add(_ image: RenderedImage) throws(ArchiveError)
  /// Called once after the last frame: the output is complete when it returns.
  mutating func finish() throws(ArchiveError)
}

extension Archive {
  /// Writes the time-lapse of the draft called `name` to `destination`, calling `progress`
  /// with the frames written and the frames in all after each frame. `shouldStop` is asked
  /// before each frame (Ctrl-C in the command line): when it says true, the time-lapse ends
  /// there.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.noSuchVersion` for a `from` or `to` the draft
  ///   does not have, `.invalidArgument(.timelapse…)` for options out of range,
  ///   `.noReadableVersions` when no version in the range decodes, `.destinationExists`
  ///   (a file, or a frame in the folder) unless `overwrite`, `.destinationIsFolder`,
  ///   `.invalidArgument(.timelapse(.webpSize))` for WebP frames wider or taller than
  ///   `TimelapseOptions.maximumWebPSide`, `.invalidArgument(.timelapse(.mp4Size))` for MP4
  ///   frames larger than `TimelapseOptions.maximumMP4Macroblocks`, `.fileSystem`, `.imageEncoding`,
  ///   `.videoEncoding`, or `.timelapseStopped` when `shouldStop` asked.
  public func timelapse(
    of name: String, options: TimelapseOptions = TimelapseOptions(), to destination: TimelapseDestination,
    overwrite: Bool = false, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
    shouldStop: () -> Bool = { false }
  ) throws(ArchiveError) -> TimelapseSummary {
    let (plan, summary) = try timelapsePlan(of: name, options: options)
    var sink: any TimelapseSink
    switch destination {
    case .frames(let folder): sink = try FrameFolderSink(folder: folder, overwrite: overwrite)
    case .video(let target, .mp4):
      sink = try MP4Sink(target: target, overwrite: overwrite, geometry: plan.geometry, fps: plan.fps)
    case .video(let target, .webp):
      sink = try WebPSink(target: target, overwrite: overwrite, geometry: plan.geometry, fps: plan.fps)
    }
    var frames = TimelapseFrames(plan)
    let total = plan.frameCount
    while !shouldStop() {
      guard let image = frames.next() else {
        try sink.finish()
        return summary
      }
      try sink.add(image)
      progress(frames.nextFrame, total)
    }
    // The sink goes with this scope: a video's temporary file with it (MP4Sink's deinit),
    // while the frames of a folder, each a whole PNG, stay.
    if case .frames = destination { throw .timelapseStopped(framesWritten: frames.nextFrame) }
    throw .timelapseStopped(framesWritten: 0)
  }

  /// The draft's time-lapse as the bytes of one video, for a caller that keeps it or sends it
  /// on rather than writing a file (the server's draft page, `timelapse -o -`). It is made in
  /// a temporary file in `$TMPDIR`.
  ///
  /// - Throws: as `timelapse(of:options:to:overwrite:progress:shouldStop:)`.
  public func timelapseVideo(
    of name: String, options: TimelapseOptions = TimelapseOptions(), format: TimelapseFormat = .mp4,
    progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }, shouldStop: () -> Bool = { false }
  ) throws(ArchiveError) -> (video: [UInt8], summary: TimelapseSummary) {
    let path = try FileOutput.temporaryFile(for: nil, overwrite: true)
    defer { unlink(path) }
    let summary = try timelapse(
      of: name, options: options, to: .video(path, format), overwrite: true, progress: progress,
      shouldStop: shouldStop)
    return (try FileOutput.contents(of: path), summary)
  }

  /// The plan of the draft's time-lapse and what it will show, without drawing a frame.
  ///
  /// - Throws: as `timelapse(of:options:to:overwrite:progress:shouldStop:)`, less the output's errors.
  public func timelapsePlan(of name: String, options: TimelapseOptions) throws(ArchiveError) -> (
    TimelapsePlan, TimelapseSummary
  ) {
    try Self.check(options)
    let versions = try versions(of: name)
    let draftName = versions[0].info.draftName
    let first = try versionNumber(options.from, draft: name) ?? 1
    let last = try versionNumber(options.to, draft: name) ?? versions.count
    for number in [first, last] where !(1...versions.count).contains(number) {
      throw .noSuchVersion(draft: draftName, number: number, versionCount: versions.count)
    }
    guard first <= last else { throw .invalidArgument(.timelapse(.range(from: first, to: last))) }
    // The newest version before the range that reads is what the replay starts from: one
    // the index lists reads (it decoded when indexed); another is read to know.
    var start: Int?
    for number in (1..<first).reversed() {
      let row = versions[number - 1].row
      if try storeCall({ try TimelineRecords.strokeList(blobID: row.blobID, in: database) }) == nil,
        case .unreadable = try TimelapseSaves([row], archive: self).saves[0]
      {
        continue
      }
      start = number
      break
    }
    let numbers = (start.map { [$0] } ?? []) + Array(first...last)
    var planner = TimelapsePlanner()
    var skipped: [SkippedVersion] = []
    var replayed: [Int] = []
    // One snapshot: the saves read as the planner takes them are those the index listed.
    let read = try inSnapshot { () throws(ArchiveError) -> TimelapseSaves in
      var read = try TimelapseSaves(numbers.map { versions[$0 - 1].row }, archive: self)
      // The list of the save the planner was given last, when the index lists it: the
      // strokes a save shares with it at their start are the planner's already.
      var before: StrokeRunList?
      for (place, number) in numbers.enumerated() {
        let row = versions[number - 1].row
        let isStart = number == start
        var save = read.saves[place]
        if case .unlisted = save { save = try read.read(row, archive: self) }
        switch save {
        case .strokes(let list):
          let shared = before.map { list.commonPrefixCount(with: $0) } ?? 0
          let ids = list.ids(from: shared)
          let newest = read.newest.flatMap { $0.place == place ? $0.measured : nil }
          planner.add(
            // Every row of a listed save has its key (TimelapseSaves reads them all, and the
            // store throws for a row that is missing).
            ids.map { read.keys[$0]! }, keeping: shared,
            pieces: { index in newest.map { $0.pieces(ofStroke: index) } ?? read.pieces[ids[index - shared]] ?? nil },
            canvas: newest?.canvasBounds, newest: newest != nil, background: row.background,
            saved: Self.referenceSeconds(row), replayed: !isStart)
          if !isStart { replayed.append(number) }
          before = list
        case .drawing(let drawing):
          planner.add(drawing, background: row.background, saved: Self.referenceSeconds(row), replayed: !isStart)
          if !isStart { replayed.append(number) }
          before = nil
        case .unreadable(let reason):
          if !isStart { skipped.append(SkippedVersion(number: number, reason: reason)) }
        case .unlisted: break  // read just above
        }
      }
      return read
    }
    guard !replayed.isEmpty else { throw .noReadableVersions(draft: draftName, from: first, to: last) }
    // Refused before it is made into frames: a speed factor like 1e-300 (or a stroke whose
    // times say it took centuries) asks for more frames than an Int holds.
    let drawing = planner.drawingSeconds(pace: options.pace, hold: options.hold)
    guard drawing <= TimelapseOptions.maximumSeconds else {
      throw .invalidArgument(.timelapse(.length(seconds: drawing + options.hold)))
    }
    let plan = planner.plan(pace: options.pace, fps: options.fps, hold: options.hold, size: options.size)
    let seconds = Double(plan.frameCount) / Double(plan.fps)
    guard seconds <= TimelapseOptions.maximumSeconds + options.hold else {
      throw .invalidArgument(.timelapse(.length(seconds: seconds)))
    }
    let summary = TimelapseSummary(
      draftName: draftName, firstVersion: first, lastVersion: last, frames: plan.frameCount,
      width: plan.geometry.width, height: plan.geometry.height, fps: plan.fps,
      seconds: seconds, strokes: plan.drawnStrokes, skipped: skipped,
      evenPace: plan.evenPace,
      marks: zip(replayed, plan.saveFrames).map {
        // The plan counts frames from 0; a person and the frame files count from 1.
        TimelapseMark(
          version: $0, frame: $1 + 1, seconds: Double($1) / Double(plan.fps), labels: versions[$0 - 1].info.labels)
      }, drawingsRead: read.drawingsRead, strokesPlanned: planner.visited)
    return (plan, summary)
  }

  /// The number of the version `selector` names in the draft called `name`; nil for nil.
  /// A number is taken as it is, so that one past the newest is refused with the range.
  ///
  /// - Throws: `ArchiveError.noSuchLabel`, `.noVersionSavedBy`.
  private func versionNumber(_ selector: VersionSelector?, draft name: String) throws(ArchiveError) -> Int? {
    switch selector {
    case nil: nil
    case .number(let number): number
    case .some(let selector): try VersionLookup(self).version(draft: name, selector).info.number
    }
  }

  /// The save date in seconds since 2001-01-01, the clock of strokes' creation dates.
  private static func referenceSeconds(_ row: VersionRow) -> Double {
    Double(row.savedMilliseconds) / 1000 - 978_307_200
  }

  private static func check(_ options: TimelapseOptions) throws(ArchiveError) {
    guard TimelapseOptions.fpsRange.contains(options.fps) else { throw .invalidArgument(.timelapse(.fps(options.fps))) }
    guard options.hold.isFinite, options.hold >= 0, options.hold <= TimelapseOptions.maximumHold else {
      throw .invalidArgument(.timelapse(.hold(options.hold)))
    }
    switch options.pace {
    case .duration(let seconds):
      guard seconds.isFinite, seconds > options.hold, seconds <= TimelapseOptions.maximumSeconds else {
        throw .invalidArgument(.timelapse(.duration(seconds, hold: options.hold)))
      }
    case .speed(let factor):
      guard factor.isFinite, factor > 0 else { throw .invalidArgument(.timelapse(.speed(factor))) }
    case .realTime: break
    }
    switch options.size {
    case .fit(let width, let height):
      guard (2...RenderGeometry.maxDimension).contains(width), (2...RenderGeometry.maxDimension).contains(height)
      else { throw .invalidArgument(.timelapse(.size(width: width, height: height))) }
    case .scale(let scale):
      guard scale.isFinite, scale > 0, scale <= 16 else { throw .invalidArgument(.renderScale(scale)) }
    }
  }
}
