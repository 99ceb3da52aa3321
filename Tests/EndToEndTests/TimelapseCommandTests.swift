import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `timelapse` run as a person would: the frames it writes, its report and every refusal.
@Suite struct TimelapseCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "timelapse")
    for (index, sample) in ["three-pen-strokes", "handwritten-half-notes"].enumerated() {
      let drawing = Data(try DeviceSamples.drawing(sample))
      let json = #"{"drawingData":"\#(drawing.base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
      try runner.temporary.write("Drafts/Plan-2026-07-0\(index + 1)T12:00:00Z.inkling", json)
    }
    try runner.temporary.write(
      "Drafts/Broken-2026-07-01T12:00:00Z.inkling", #"{"drawingData":"AAAA","color":{"r":1,"g":1,"b":1,"a":1}}"#)
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
  }

  func frameNames(_ relative: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder + "/" + relative).sorted()
  }

  @Test func framesAreWrittenAndReported() throws {
    let result = try runner.run(
      [
        "timelapse", "Plan", "--frames", "frames", "--duration", "2s", "--hold", "0.5s", "--fps", "10", "--size",
        "200x100",
      ])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    // The frame holds both saves' strokes (version 1's are all gone from version 2).
    #expect(result.stdout == "frames  (Plan, versions 1 to 2, 7 strokes, 20 frames at 10 fps = 2 s, 80 × 100 px)\n")
    #expect(try frameNames("frames") == (1...20).map { String(format: "%05d.png", $0) })

    let json = try runner.run(
      [
        "--json", "timelapse", "Plan", "--frames", "json", "--speed", "20x", "--hold", "0", "--fps", "5", "--size",
        "64",
        "--from", "2",
      ])
    #expect(json.status == 0)
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(report?["from"] as? Int == 2)
    #expect(report?["strokes"] as? Int == 4)
    #expect(report?["evenPace"] as? Bool == false)
    // Only the replayed save is marked, at a frame inside the video.
    let marks = report?["marks"] as? [[String: Any]]
    #expect(marks?.count == 1)
    #expect(marks?.first?["version"] as? Int == 2)
    let frames = try #require(report?["frames"] as? Int)
    let frame = try #require(marks?.first?["frame"] as? Int)
    // Numbered from 1, as the frame files are.
    #expect(frame >= 1 && frame <= frames)
    #expect(marks?.first?["seconds"] as? Double == Double(frame - 1) / 5)
  }

  /// TIME is one grammar for --duration and --hold: decimal numbers and the units h, min (or
  /// m), s and ms, largest first. The values read show in the library's range errors.
  @Test func timesAreReadInTheirUnits() throws {
    func error(_ arguments: [String]) throws -> (Int32, String) {
      let result = try runner.run(["timelapse", "Plan", "--frames", "f"] + arguments)
      return (result.status, String(result.stderr.prefix { $0 != "\n" }))
    }
    for (hold, seconds) in [
      ("1h", "3600"), ("1.5h", "5400"), ("1h30m", "5400"), ("1h30min", "5400"), ("11min", "660"), ("11m", "660"),
      ("10m1s", "601"), ("10min0.5s", "600.5"), ("601000ms", "601"), ("10m1s500ms", "601.5"), ("700", "700"),
      ("1H", "3600"),
    ] {
      #expect(
        try error(["--hold", hold]) == (2, "Error: --hold must be 0 to 600 seconds, not \(seconds)"), "\(hold)")
    }
    for (duration, seconds) in [("1ms", "0.0"), ("1500ms", "1.5"), ("1min", "60"), ("1m30s", "90"), ("90", "90")] {
      #expect(
        try error(["--hold", "10min", "--duration", duration])
          == (2, "Error: --duration must be longer than the hold (600 s) and at most 36000 seconds, not \(seconds)"),
        "\(duration)")
    }
    #expect(
      try error(["--duration", "10h1s"])
        == (2, "Error: --duration must be longer than the hold (2 s) and at most 36000 seconds, not 36001"))
    let expected =
      "like 45s, 1m30s, 1.5h or 500ms (units h, min or m, s, ms; a number alone is seconds)."
    for refused in [
      "0x10s", "1e3s", "1e3", "0x10", "1d", "2mo", "1m30", "30s1m", "1s1s", "1min1m", "1.s", ".5s", "1,5s", "-1s",
      "inf", "nan", "s", "1 s", "+1s", "١s",
    ] {
      #expect(
        try error(["--duration", refused])
          == (2, "Error: Invalid value '\(refused)' for '--duration TIME': expected a time above 0, \(expected)"),
        "\(refused)")
      #expect(
        try error(["--hold", refused])
          == (2, "Error: Invalid value '\(refused)' for '--hold TIME': expected a time of 0 or more, \(expected)"),
        "\(refused)")
    }
    // The help says what TIME is.
    let help = try runner.run(["timelapse", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
      separator: " ")
    #expect(
      help.contains(
        "TIME (--duration, --hold) is a decimal number and a unit, h, min (or m), s or ms, or several from the "
          + "largest unit to the smallest: 45s, 1.5h, 1m30s, 2s500ms. A number alone is seconds."))
    #expect(help.contains("(default 30s, at most 10h)") && help.contains("(at most 10min)"))
  }

  @Test func refusals() throws {
    func error(_ arguments: [String]) throws -> (Int32, String) {
      let result = try runner.run(["timelapse"] + arguments)
      return (result.status, String(result.stderr.prefix { $0 != "\n" }))
    }
    #expect(try error(["Plan"]) == (2, "Error: Say where the time-lapse goes: -o FILE or --frames DIR."))
    #expect(
      try error(["Plan", "--frames", "f", "--duration", "10s", "--speed", "2x"]).1.contains("--duration"))
    #expect(
      try error(["Plan", "--frames", "f", "--speed", "fast"])
        == (2, "Error: Invalid value 'fast' for '--speed FACTOR': expected a factor above 0, like 20x."))
    #expect(
      try error(["Plan", "--frames", "f", "--size", "0x10"])
        == (2, "Error: Invalid value '0x10' for '--size WxH': expected a size like 1920x1080 or 1080."))
    #expect(
      try error(["Plan", "--frames", "f", "--duration", "1s"])
        == (2, "Error: --duration must be longer than the hold (2 s) and at most 36000 seconds, not 1"))
    #expect(try error(["Plan", "--frames", "f", "--fps", "0"]).0 == 2)
    #expect(
      try error(["Plan", "--frames", "f", "--size", "1x1"]) == (
        2, "Error: --size must be 2 to 16384 pixels a side, not 1x1"
      ))
    #expect(
      try error(["Plan", "--frames", "f", "--from", "2", "--to", "1"]) == (
        2, "Error: --from (2) must not come after --to (1)"
      ))
    #expect(
      try error(["Plan", "--frames", "f", "--to", "3"]) == (1, "Error: \"Plan\" has 2 versions; there is no version 3"))
    #expect(
      try error(["Broken", "--frames", "f"])
        == (1, "Error: the drawing of \"Broken\" version 1 does not decode, so there is nothing to replay"))
    #expect(try error(["Nobody", "--frames", "f"]).1.hasPrefix("Error: no draft named \"Nobody\""))
    let speed = try error(["Plan", "--frames", "f", "--speed", "0.0000001x"])
    #expect(speed.0 == 2 && speed.1.hasPrefix("Error: at this pace the video would last"))
    // Factors whose frame count no Int holds are refused as well, not a crash (exit 132).
    for tiny in ["0." + String(repeating: "0", count: 19) + "1x", "0." + String(repeating: "0", count: 299) + "1x"] {
      #expect(
        try error(["Plan", "--frames", "f", "--speed", tiny])
          == (
            2,
            "Error: at this pace the video would last more than a billion seconds; at most 36000; use --duration "
              + "or a higher --speed"
          ), "\(tiny)")
    }
    // Numbers are decimal: no exponents, hexadecimal, infinities (DecimalNumber).
    for unusable in ["inf", "nan", "-1x", "1e-20x", "0x10x"] {
      #expect(try error(["Plan", "--frames", "f", "--speed", unusable]).0 == 2, "\(unusable)")
    }
    for (option, value) in [
      ("--fps", "1e300"), ("--fps", "99999999999999999999"), ("--size", "99999999999999999999"),
      ("--size", "9223372036854775807"), ("--scale", "1e300"), ("--scale", "inf"), ("--hold", "1e300"),
      ("--hold", "nan"), ("--duration", "1e300"), ("--duration", "inf"),
    ] {
      #expect(try error(["Plan", "--frames", "f", option, value]).0 == 2, "\(option) \(value)")
    }
    // Frames already there stay unless --force.
    let short = ["Plan", "--frames", "f", "--duration", "1s", "--hold", "0", "--fps", "2", "--size", "32"]
    #expect(try runner.run(["timelapse"] + short).status == 0)
    #expect(try error(short) == (1, "Error: f/00001.png already exists; use --force to replace it"))
    #expect(try runner.run(["timelapse"] + short + ["--force"]).status == 0)
  }
}

/// `timelapse -o FILE.mp4` checked by ffprobe and ffmpeg (skipped when FFmpeg's tools are missing).
@Suite struct TimelapseVideoTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  static let hasFFmpeg = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")

  init() throws {
    runner = try BinaryRunner(fresh: "timelapse-video")
    let drawing = Data(try DeviceSamples.drawing("handwritten-half-notes"))
    let json = #"{"drawingData":"\#(drawing.base64EncodedString())","color":{"r":1,"g":0.95,"b":0.9,"a":1}}"#
    try runner.temporary.write("Drafts/Notes-2026-07-01T12:00:00Z.inkling", json)
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
  }

  func probe(_ file: String) throws -> String {
    try ChildProcess.run([
      "/usr/bin/ffprobe", "-v", "error", "-show_entries",
      "stream=codec_name,width,height,r_frame_rate,pix_fmt,nb_frames:format=duration", "-of", "compact",
      folder + "/" + file,
    ]).stdout
  }

  @Test(.enabled(if: hasFFmpeg)) func mp4IsH264AtTheRequestedFpsSizeAndDuration() throws {
    let options = ["--duration", "4s", "--hold", "1s", "--fps", "24", "--size", "640x360"]
    let result = try runner.run(["timelapse", "Notes", "-o", "notes.mp4"] + options)
    #expect(result.stderr == "")
    #expect(result.status == 0)
    let probe = try probe("notes.mp4")
    #expect(
      probe.contains("stream|codec_name=h264|width=640|height=328|pix_fmt=yuv420p|r_frame_rate=24/1|nb_frames=96"))
    let duration = try #require(
      Double(probe.split(separator: "=").last!.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(abs(duration - 4) <= 1.0 / 24)
    // The index is at the front (+faststart): the moov box comes before the mdat box.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/notes.mp4"))
    // Its H.264 stream keeps the limits of the level it is labelled with.
    let stream = try #require(H264Conformance(mp4: [UInt8](bytes)))
    #expect(stream.violations(fps: 24, bytes: bytes.count, seconds: 4) == [], "\(stream)")
    let moov = try #require(bytes.range(of: Data("moov".utf8)))
    let mdat = try #require(bytes.range(of: Data("mdat".utf8)))
    #expect(moov.lowerBound < mdat.lowerBound)

    // The last frame is the PNG frame (render's pixels) to at least 40 dB.
    #expect(try runner.run(["timelapse", "Notes", "--frames", "frames"] + options).status == 0)
    let last = try ChildProcess.run([
      "/usr/bin/ffmpeg", "-v", "error", "-sseof", "-0.2", "-i", folder + "/notes.mp4", "-frames:v", "1", "-y",
      folder + "/last.png",
    ])
    #expect(last.status == 0)
    let psnr = try ChildProcess.run([
      "/usr/bin/ffmpeg", "-i", folder + "/last.png", "-i", folder + "/frames/00096.png", "-lavfi", "psnr", "-f",
      "null", "-",
    ])
    let average = try #require(psnr.stderr.range(of: "average:"))
    let value = Double(psnr.stderr[average.upperBound...].prefix { $0 != " " }) ?? 0
    #expect(value >= 40, "PSNR \(psnr.stderr[average.upperBound...].prefix(20))")

    // The same archive and options give the same bytes; `-o -` with --format gives them too.
    #expect(try runner.run(["timelapse", "Notes", "-o", "again.mp4"] + options).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/again.mp4")) == bytes)
    let streamed = try runner.run(["timelapse", "Notes", "-o", "-", "--format", "mp4"] + options)
    #expect(streamed.status == 0)
    #expect(Data(streamed.stdoutBytes) == bytes)
  }

  @Test(.enabled(if: hasFFmpeg)) func webpIsAnAnimationOfTheRequestedFrames() throws {
    let result = try runner.run(
      ["timelapse", "Notes", "-o", "notes.webp", "--duration", "2s", "--hold", "0.5s", "--fps", "10", "--size", "200"])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/notes.webp")))
    #expect(
      bytes.count > 100 && Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
    // An ANIM chunk, and ANMF frames whose durations (equal frames merged) add up to 2 s.
    #expect(String(decoding: bytes, as: UTF8.self).contains("ANIM"))
    var milliseconds = 0
    var offset = 12
    while offset + 8 <= bytes.count {
      let size =
        Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
        | Int(bytes[offset + 7]) << 24
      if Array(bytes[offset..<offset + 4]) == Array("ANMF".utf8) {
        let d = offset + 8 + 12
        milliseconds += Int(bytes[d]) | Int(bytes[d + 1]) << 8 | Int(bytes[d + 2]) << 16
      }
      offset += 8 + size + size % 2
    }
    #expect(milliseconds == 2000)
    let again = try runner.run(
      [
        "timelapse", "Notes", "-o", "-", "--format", "webp", "--duration", "2s", "--hold", "0.5s", "--fps", "10",
        "--size", "200",
      ])
    #expect(again.stdoutBytes == bytes)
  }

  /// Ctrl-C or SIGTERM during a long time-lapse stops it between two frames: no video and no
  /// temporary file are left, one line says so, and the status is 130 or 143, as for import.
  /// The frames of a folder written so far stay, and the line counts them.
  @Test func aSignalStopsTheTimelapseWithoutLeavingItsTemporaryFile() throws {
    // 90,000 frames of 1080 px: minutes of work, however fast the machine.
    let long = ["--archive", runner.archive, "timelapse", "Notes", "--duration", "3000s"]
    for (signal, status, target) in [
      (SIGINT, Int32(130), ["-o", folder + "/s.mp4"]), (SIGTERM, 143, ["-o", folder + "/s.mp4"]),
      (SIGINT, 130, ["--frames", folder + "/frames"]),
    ] {
      let child = try BinaryRunner.start(long + target, outputFolder: folder)
      // Signalled once it is writing: its temporary file, or its first frame, is there.
      let started = Date()
      while child.poll() == nil && Date().timeIntervalSince(started) < 60 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if names.contains(where: { $0.hasSuffix(".tmp") })
          || FileManager.default.fileExists(atPath: folder + "/frames/00001.png")
        {
          break
        }
        usleep(5_000)
      }
      usleep(200_000)
      kill(child.pid, signal)
      let outcome = child.wait(timeout: 60)
      #expect(outcome.status == status, "\(target): \(child.stderr)")
      let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      #expect(!names.contains { $0.hasSuffix(".tmp") || $0.hasPrefix("s.mp4") }, "\(names)")
      if target[0] == "-o" {
        #expect(child.stderr == "Stopped: \(folder)/s.mp4 was not written.\n")
      } else {
        let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").count
        #expect(written > 0 && written < 90_000)
        // The count has its thousands separated (11,483).
        #expect(
          child.stderr.replacingOccurrences(of: ",", with: "")
            == "Stopped: \(written) frames of the time-lapse are in \(folder)/frames; the rest were not drawn.\n")
      }
    }
  }

  /// libwebp's frames are at most 16383 pixels a side, one short of the renderer's: a wide
  /// strip at --size 16384 is refused before a frame is drawn (libwebp refused it at the
  /// first frame, "WebPEncodingError: 5"), and at --size 16383 it is written.
  @Test func webpFramesAreAtMost16383PixelsASide() throws {
    let drawing = Data(try HandwritingPage.lineBytes(length: 3000))
    let json = #"{"drawingData":"\#(drawing.base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try runner.temporary.write("Strip/Strip-2026-07-01T12:00:00Z.inkling", json)
    #expect(try runner.run(["--quiet", "import", folder + "/Strip"]).status == 0)
    let one = ["--duration", "1s", "--hold", "0", "--fps", "1"]
    for arguments in [["-o", "wide.webp"], ["-o", "-", "--format", "webp"]] {
      let result = try runner.run(["timelapse", "Strip", "--size", "16384"] + one + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(
        result.stderr.hasPrefix(
          "Error: an animated WebP is at most 16383 pixels a side, and these frames would be 16384 × "),
        "\(result.stderr)")
      #expect(result.stderr.contains("; give a smaller --size or --scale, or write an MP4\n"))
      #expect(result.stdout.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: folder + "/wide.webp"))
    let widest = try runner.run(["timelapse", "Strip", "--size", "16383", "-o", "wide.webp"] + one)
    #expect(widest.status == 0, "\(widest.stderr)")
    #expect(widest.stdout.hasPrefix("wide.webp  (Strip, versions 1 to 1, 1 stroke, 1 frames at 1 fps = 1 s, 16382 × "))
    let help = try runner.run(["timelapse", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
      separator: " ")
    #expect(help.contains("sides are even, 16384 at most (16383 for WebP) and 64 megapixels in all;"), "\(help)")
  }

  /// Every MP4 is within an H.264 level: frames larger than level 6.2's, the largest, are
  /// refused before a frame is drawn (libx264 wrote them labelled 6.2 all the same), and each
  /// size and rate written keeps the limits of the level its stream is labelled with.
  @Test(.enabled(if: hasFFmpeg)) func mp4sStayWithinTheirH264Level() throws {
    let one = ["--duration", "1s", "--hold", "0", "--fps", "1"]
    for arguments in [["-o", "large.mp4"], ["-o", "-", "--format", "mp4"]] {
      let result = try runner.run(["timelapse", "Notes", "--size", "9000"] + one + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(
        result.stderr.hasPrefix(
          "Error: an H.264 MP4's frames hold at most 139,264 blocks of 16 × 16 pixels (level 6.2, the largest: "
            + "8192 × 4352, or 16384 × 2176), and these frames would be "),
        "\(result.stderr)")
      #expect(result.stderr.contains(" blocks); give a smaller --size or --scale, or write an animated WebP or PNG"))
      #expect(result.stdout.isEmpty, "\(result.stdout.prefix(200))")
    }
    #expect(!FileManager.default.fileExists(atPath: folder + "/large.mp4"))

    let strip = Data(try HandwritingPage.lineBytes(length: 3000))
    let json = #"{"drawingData":"\#(strip.base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try runner.temporary.write("Strip/Strip-2026-07-01T12:00:00Z.inkling", json)
    #expect(try runner.run(["--quiet", "import", folder + "/Strip"]).status == 0)
    var levels: [Int] = []
    for (draft, size, fps, seconds) in [
      ("Notes", "320x240", 10, 2), ("Notes", "1080", 120, 1), ("Notes", "1920x1080", 60, 1),
      ("Notes", "4096", 1, 1), ("Strip", "16384", 2, 1),
    ] {
      let name = "\(draft)-\(size)-\(fps).mp4"
      let result = try runner.run(
        ["--json", "timelapse", draft, "--size", size, "--fps", "\(fps)", "--duration", "\(seconds)s", "--hold", "0"]
          + ["-o", name])
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
      let stream = try #require(H264Conformance(mp4: bytes), "\(name)")
      #expect(stream.violations(fps: fps, bytes: bytes.count, seconds: Double(seconds)) == [], "\(name): \(stream)")
      let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      let width = try #require(report?["width"] as? Int)
      let height = try #require(report?["height"] as? Int)
      #expect(stream.widthInMacroblocks == (width + 15) / 16 && stream.heightInMacroblocks == (height + 15) / 16)
      // ffprobe reads the same level.
      let probe = try ChildProcess.run([
        "/usr/bin/ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=level", "-of",
        "csv=p=0", folder + "/" + name,
      ])
      #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(stream.level)", "\(name)")
      levels.append(stream.level)
    }
    // The 16384-pixel strip needs level 6: the only levels whose frames may be 1024 macroblocks wide.
    #expect(levels.last == 60, "\(levels)")
    let help = try runner.run(["timelapse", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
      separator: " ")
    #expect(
      help.contains(
        "an MP4's frames hold at most 139,264 blocks of 16×16 pixels (H.264's largest level, 6.2: 8192×4352, or "
          + "16384×2176), and a larger one is refused."), "\(help)")
  }

  @Test func videoRefusals() throws {
    func error(_ arguments: [String]) throws -> (Int32, String) {
      let result = try runner.run(["timelapse", "Notes"] + arguments)
      return (result.status, String(result.stderr.prefix { $0 != "\n" }))
    }
    #expect(try error(["-o", "-"]) == (2, "Error: Say which video goes to standard output: --format mp4 or webp."))
    #expect(
      try error(["-o", "notes.gif"])
        == (2, "Error: Cannot tell the video format from 'notes.gif': end it in .mp4 or .webp or give --format."))
    #expect(try error(["-o", "a.mp4", "--frames", "f"]).0 == 2)
    try runner.temporary.write("taken.mp4", "keep")
    #expect(try error(["-o", "taken.mp4"]) == (1, "Error: taken.mp4 already exists; use --force to replace it"))
    #expect(try String(contentsOfFile: folder + "/taken.mp4", encoding: .utf8) == "keep")
    _ = try runner.temporary.makeFolder("folder.mp4")
    // timelapse has no --to: the advice names its own options.
    #expect(
      try error(["-o", "folder.mp4"])
        == (
          1,
          "Error: folder.mp4 is a folder; give the video a file name with -o, or write numbered PNG frames into it "
            + "with --frames"
        ))
    // Nothing is left behind by a refused or finished write.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") }.isEmpty)
  }
}
