// The corpus generator: deterministic, parseable by the archive's own parsers, histories that
// evolve like real saves, sizes in the range the benchmark relies on, and a bad-inputs folder
// whose entries are what they claim to be.

import Foundation
import InklingCorpus
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingCorpus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `DraftFile` as the app declares it.
private struct Envelope: Codable {
  let drawingData: Data
  let color: Components
  struct Components: Codable { let r: Double, g: Double, b: Double, a: Double }
}

@Suite struct CorpusTests {
  static let varied = CorpusSpec(drafts: 40, versionsPerDraft: 1...7, seed: 42, layoutVariety: true)
  static let plain = CorpusSpec(drafts: 40, versionsPerDraft: 1...7, seed: 42)

  /// Every entry of a folder: name bytes → (contents, mtime in ns).
  func snapshot(_ folder: URL) throws -> [String: ([UInt8], Int)] {
    var result: [String: ([UInt8], Int)] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      let path = folder.appendingPathComponent(name).path
      var info = stat()
      #expect(lstat(path, &info) == 0)
      let nanoseconds = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
      result[name] = (Array(try Data(contentsOf: URL(fileURLWithPath: path))), nanoseconds)
    }
    return result
  }

  // MARK: - Determinism

  @Test func sameSpecGivesTheSameFolderByteForByte() throws {
    let (first, second) = (try TemporaryFolder("corpus"), try TemporaryFolder("corpus"))
    let a = URL(fileURLWithPath: first.path)
    let b = URL(fileURLWithPath: second.path)
    let summaryA = try writeCorpus(Self.varied, to: a)
    let summaryB = try writeCorpus(Self.varied, to: b)
    #expect(summaryA.files == summaryB.files && summaryA.bytes == summaryB.bytes)
    let left = try snapshot(a)
    let right = try snapshot(b)
    #expect(left.count == summaryA.files)
    #expect(Set(left.keys) == Set(right.keys))
    for (name, (bytes, mtime)) in left {
      let sameBytes = right[name]?.0 == bytes
      let sameTime = right[name]?.1 == mtime
      #expect(sameBytes, "contents differ: \(name)")
      #expect(sameTime, "mtimes differ: \(name)")
    }
  }

  @Test func modificationTimesAreTheSaveTimes() throws {
    let temporary = try TemporaryFolder("corpus")
    let folder = URL(fileURLWithPath: temporary.path)
    let summary = try writeCorpus(Self.varied, to: folder)
    let files = try snapshot(folder)
    for draft in summary.drafts {
      for file in draft.files {
        #expect(files[file.fileName]?.1 == Int(file.savedMilliseconds) * 1_000_000, "\(file.fileName)")
      }
    }
  }

  @Test func anotherSeedGivesAnotherCorpus() {
    var names: [Set<String>] = []
    for seed: UInt64 in [1, 2] {
      var spec = Self.plain
      spec.seed = seed
      spec.drafts = 10
      var set: Set<String> = []
      generateCorpus(spec) { set.insert($0.fileName) }
      names.append(set)
    }
    #expect(names[0] != names[1])
  }

  @Test func refusesAFolderThatIsNotEmpty() throws {
    let temporary = try TemporaryFolder("corpus")
    let folder = URL(fileURLWithPath: temporary.path)
    try Data("x".utf8).write(to: folder.appendingPathComponent("other.txt"))
    #expect(throws: CorpusError.self) { try writeCorpus(Self.plain, to: folder) }
  }

  // MARK: - Parsing with the archive's parsers

  @Test(arguments: [plain, varied])
  func everyFileParsesWithTheArchiveParsers(spec: CorpusSpec) throws {
    var fileNames: Set<String> = []
    var styles: Set<EnvelopeStyle> = []
    var fallbacks = 0
    try generateCorpus(spec) { file in
      #expect(fileNames.insert(file.fileName).inserted, "duplicate file name \(file.fileName)")
      styles.insert(file.style)
      let envelope = try DraftEnvelope.parse(file.contents)
      #expect(envelope.drawing == file.drawingBytes)
      #expect(envelope.background == file.save.background)
      #expect(envelope.template.rebuild(drawing: envelope.drawing) == file.contents)

      let parsed = try #require(DraftFileName(file.fileName))
      #expect(parsed.draftName == file.name.draftName, "\(file.fileName)")
      if file.hasStamp {
        #expect(parsed.savedMilliseconds == file.savedMilliseconds, "\(file.fileName)")
      } else {
        #expect(parsed.savedMilliseconds == nil)
        #expect(parsed.fallbacks.contains(.noStamp))
      }
      if !spec.layoutVariety {
        #expect(parsed.fallbacks.isEmpty, "\(file.fileName): \(parsed.fallbacks)")
        #expect(file.style == .jsonEncoder)
      }
      fallbacks += parsed.fallbacks.isEmpty ? 0 : 1
    }
    if spec.layoutVariety {
      #expect(styles.count >= 5, "styles seen: \(styles)")
      #expect(fallbacks > 0)
    }
  }

  /// What the app does on load: `JSONDecoder` into `DraftFile`.
  @Test func everyStyleDecodesWithJSONDecoder() throws {
    var seen: Set<EnvelopeStyle> = []
    try generateCorpus(Self.varied) { file in
      guard seen.insert(file.style).inserted || file.versionIndex == 0 else { return }
      let decoded = try JSONDecoder().decode(Envelope.self, from: Data(file.contents))
      #expect(Array(decoded.drawingData) == file.drawingBytes)
      let c = file.save.background
      #expect(
        decoded.color.r.bitPattern == c.red.bitPattern && decoded.color.g.bitPattern == c.green.bitPattern
          && decoded.color.b.bitPattern == c.blue.bitPattern && decoded.color.a.bitPattern == c.alpha.bitPattern,
        "\(file.style)")
    }
  }

  /// Default files are JSONEncoder's own output: its sorted-keys bytes with members in one of
  /// the orders it produces unsorted (that order changes from process to process).
  @Test func defaultFilesAreExactlyWhatJSONEncoderWrites() throws {
    func token<T: Encodable>(_ value: T) throws -> String {
      String(String(decoding: try JSONEncoder().encode([value]), as: UTF8.self).dropFirst().dropLast())
    }
    func permutations(_ items: [String]) -> [[String]] {
      items.count <= 1
        ? [items]
        : items.indices.flatMap { i in
          permutations(Array(items[..<i] + items[(i + 1)...])).map { [items[i]] + $0 }
        }
    }
    var checked = 0
    try generateCorpus(CorpusSpec(drafts: 4, versionsPerDraft: 2...2, seed: 9)) { file in
      let c = file.save.background
      let value = Envelope(
        drawingData: Data(file.drawingBytes), color: .init(r: c.red, g: c.green, b: c.blue, a: c.alpha))
      let sorted = String(
        decoding: try {
          let e = JSONEncoder()
          e.outputFormatting = .sortedKeys
          return try e.encode(value)
        }(), as: UTF8.self)
      let components = [
        "\"r\":\(try token(c.red))", "\"g\":\(try token(c.green))", "\"b\":\(try token(c.blue))",
        "\"a\":\(try token(c.alpha))",
      ]
      let data = "\"drawingData\":\(try token(Data(file.drawingBytes)))"
      let candidates = permutations(components).flatMap { order -> [String] in
        let colour = "\"color\":{" + order.joined(separator: ",") + "}"
        return ["{\(colour),\(data)}", "{\(data),\(colour)}"]
      }
      #expect(candidates.contains(sorted), "the candidates do not include JSONEncoder's sorted output")
      #expect(candidates.contains(String(decoding: file.contents, as: UTF8.self)), "\(file.fileName)")
      checked += 1
    }
    #expect(checked == 8)
  }

  /// The layouts the generator assembles are JSONEncoder's: with sorted members they give
  /// exactly what `.sortedKeys` (and `.prettyPrinted`) give.
  @Test(arguments: [false, true])
  func assembledLayoutMatchesJSONEncoder(pretty: Bool) throws {
    var random = SeededRandom(seed: 5)
    for _ in 0..<20 {
      let bytes = (0..<random.int(0...300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let c = RGBA(red: random.double(-0.1, 1.1), green: 1, blue: 0.5000000000000001, alpha: random.unit())
      let encoder = JSONEncoder()
      encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
      let expected = try encoder.encode(
        Envelope(drawingData: Data(bytes), color: .init(r: c.red, g: c.green, b: c.blue, a: c.alpha)))
      let colour = EnvelopeWriter.Value.object([
        ("a", .token(try EnvelopeWriter.token(c.alpha))), ("b", .token(try EnvelopeWriter.token(c.blue))),
        ("g", .token(try EnvelopeWriter.token(c.green))), ("r", .token(try EnvelopeWriter.token(c.red))),
      ])
      let assembled = EnvelopeWriter.text(
        .object([("color", colour), ("drawingData", .token(try EnvelopeWriter.token(Data(bytes))))]), pretty: pretty,
        indent: 0)
      #expect(assembled == String(decoding: expected, as: UTF8.self))
    }
  }

  // MARK: - Drawings

  /// The drawing bytes read back, with the archive's reader, to exactly the generated model.
  @Test(arguments: [plain, varied])
  func drawingsReadBackToTheModel(spec: CorpusSpec) throws {
    var strokes = 0
    try generateCorpus(spec) { file in
      let decoded = try DrawingReader.read(file.drawingBytes)
      let drawing = try #require(decoded.drawing, "\(file.fileName): unreadable")
      #expect(drawing == file.save.drawing, "\(file.fileName)")
      strokes += drawing.strokes.count
    }
    #expect(strokes > 1_000)
  }

  // MARK: - Histories

  @Test func historiesAreCumulative() throws {
    var previous: DraftSave?
    var previousBytes: [UInt8] = []
    var sawErase = false
    var sawAppend = false
    var sawUnchanged = false
    var sawRecolour = false
    generateCorpus(Self.plain) { file in
      let save = file.save
      let drawing = save.drawing
      #expect(drawing.replicas.first == .zero)
      #expect(Set(drawing.replicas).count == drawing.replicas.count)
      for stroke in drawing.strokes {
        #expect(drawing.inks.indices.contains(stroke.inkIndex))
        #expect(stroke.versionID.map { $0.replicaIndex < UInt64(drawing.replicas.count) } == true)
        #expect(stroke.isHidden == (stroke.path == nil))
        if let path = stroke.path {
          #expect((20...400).contains(path.points.count))
          let mask = (path.varyingProperties.rawValue, path.constantProperties.rawValue)
          #expect([(0x3, 0x3FC), (0x7, 0x3F8), (0x103, 0x2FC)].contains { $0 == mask })
        }
      }
      if file.versionIndex > 0, let before = previous {
        #expect(save.savedAt >= before.savedAt + 60)
        let old = before.drawing
        #expect(drawing.uuid == old.uuid)
        #expect(drawing.strokes.count >= old.strokes.count)
        #expect(Array(drawing.inks.prefix(old.inks.count)) == old.inks)
        #expect(Array(drawing.replicas.prefix(old.replicas.count)) == old.replicas)
        for (a, b) in zip(old.strokes, drawing.strokes) {
          if a == b { continue }
          // The only change allowed to a kept stroke: erased (hidden, no path, new version).
          #expect(!a.isHidden && b.isHidden && b.path == nil)
          #expect(a.uuid == b.uuid && a.sortID == b.sortID && a.inkIndex == b.inkIndex)
          #expect(a.versionID != b.versionID)
          sawErase = true
        }
        switch save.change {
        case .addedStrokes(let n):
          #expect(drawing.strokes.count == old.strokes.count + n)
          sawAppend = true
        case .unchanged:
          #expect(drawing == old && save.background == before.background)
          #expect(file.drawingBytes == previousBytes)
          sawUnchanged = true
        case .changedBackground:
          #expect(drawing == old && save.background != before.background)
          #expect(file.drawingBytes == previousBytes)
          sawRecolour = true
        default: break
        }
      }
      previous = save
      previousBytes = file.drawingBytes
    }
    #expect(sawErase && sawAppend && sawUnchanged && sawRecolour)
  }

  @Test func sortIDsAreUniqueAndTheVersionVectorCoversThem() {
    generateCorpus(Self.plain) { file in
      let drawing = file.save.drawing
      let sortIDs = drawing.strokes.compactMap(\.sortID)
      #expect(Set(sortIDs).count == drawing.strokes.count)
      for id in sortIDs {
        let entry = drawing.versionVector.first { $0.replicaIndex == id.replicaIndex }
        #expect(entry.map { $0.clock > id.clock } == true)
      }
    }
  }

  // MARK: - Sizes

  @Test func fileSizesStayBetweenOneAnd200KB() throws {
    var spec = Self.plain
    spec.drafts = 80
    var smallest = Int.max
    var largest = 0
    var strokeCounts: [Int] = []
    generateCorpus(spec) { file in
      smallest = min(smallest, file.contents.count)
      largest = max(largest, file.contents.count)
      strokeCounts.append(file.save.drawing.strokes.count)
    }
    #expect(smallest >= 1_000)
    #expect(largest <= 200_000)
    #expect(largest >= 100_000, "the corpus should reach large drafts")
    #expect(strokeCounts.min()! <= 10 && strokeCounts.max()! >= 200)
  }

  // MARK: - Names

  @Test func namesIncludeTheHardCases() {
    var random = SeededRandom(seed: 3)
    let names = DraftNames.generate(count: 400, random: &random)
    #expect(Set(names.map(\.draftName)).count == names.count)
    #expect(
      names.contains { $0.typed.contains("/") && $0.fileNamePart.contains("-") && !$0.fileNamePart.contains("/") })
    #expect(names.contains { $0.typed.isEmpty && $0.draftName == "Untitled" })
    #expect(names.contains { Array($0.fileNamePart.utf8) != Array($0.draftName.utf8) })  // stored NFD
    #expect(names.contains { $0.draftName.contains(":") })
    #expect(names.contains { $0.draftName.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
    #expect(names.contains { $0.draftName.contains("-") })
    #expect(names.contains { $0.draftName.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) } })
  }

  // MARK: - Bad inputs

  @Test func badInputsAreWhatTheyClaim() throws {
    let temporary = try TemporaryFolder("corpus-bad")
    let folder = URL(fileURLWithPath: temporary.path)
    defer { chmod(folder.path, 0o755) }
    let entries = try writeBadInputs(to: folder)
    #expect(entries.count >= 20)
    for entry in entries {
      let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + entry.nameBytes + [0]
      var info = stat()
      let status = path.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { lstat($0, &info) }
      }
      #expect(status == 0, "\(entry.displayName) is missing")
      let name = entry.displayName
      guard name.hasSuffix(".inkling"), (info.st_mode & S_IFMT) == S_IFREG, !name.hasPrefix("Unreadable"),
        !name.hasPrefix("Caf")
      else { continue }
      let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
      let parsed = Result { try DraftEnvelope.parse(bytes) }
      let envelopeIsValid = entry.isGood || name.hasPrefix("Not PencilKit")
      switch parsed {
      case .success: #expect(envelopeIsValid, "\(name) parsed but should not")
      case .failure(let error): #expect(!envelopeIsValid, "\(name): \(error)")
      }
    }
    var info = stat()
    #expect(lstat(folder.appendingPathComponent("Pipe-2025-10-05T14:03:20Z.inkling").path, &info) == 0)
    #expect((info.st_mode & S_IFMT) == S_IFIFO)
    #expect(lstat(folder.appendingPathComponent("loop").path, &info) == 0)
    #expect((info.st_mode & S_IFMT) == S_IFLNK)
  }
}
