// The drawings of an imported archive encoded again in several ways, one thread: the bytes
// each way stores and the CPU its encoding and decoding take. What BENCHMARKS.md's size
// directions were measured with, so that a way is judged by the archive's own
// drawings, in their drafts' order, before any import changes.
//
//   inkling-bench blobs ARCHIVE --variants streams,columns,streams:rev:L3 [--rounds N]
//
// A variant is a layout (`streams`, what the store writes since migration 0017, or `columns`,
// point columns in place as before it) and options joined by `:`: `rev` encodes each draft's
// newest drawing whole and every older one as a delta of the one saved after it (what
// `gc --repack` writes; otherwise each is a delta of the one before, as an import writes),
// `L<n>` a zstd level (default the store's), `B<n>` the shortest block (BlobEncoder.shortestBlock),
// `deltablocks` deltas in blocks that end where their streams do, as whole drawings' do.

import Foundation
import InklingStore

enum BlobsBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "blobs",
    abstract: "An archive's drawings encoded again in several ways: bytes stored, encode and decode CPU.",
    usage: "ARCHIVE --variants V,V,… [--rounds N]", run: run)

  struct Variant {
    var name: String
    var streams = true
    var reverse = false
    var level = BlobEncoder.defaultLevel
    var shortestBlock = 256
    var blocksInDeltas = false

    init(_ name: String) {
      self.name = name
      for option in name.split(separator: ":") {
        switch option {
        case "streams": streams = true
        case "columns": streams = false
        case "rev": reverse = true
        case "deltablocks": blocksInDeltas = true
        case _ where option.hasPrefix("L"): level = Int32(option.dropFirst()) ?? level
        case _ where option.hasPrefix("B"): shortestBlock = Int(option.dropFirst()) ?? shortestBlock
        default: BenchArguments.fail("unknown variant option \"\(option)\"")
        }
      }
    }

    func encoder() -> BlobEncoder {
      let encoder = BlobEncoder(level: level)
      encoder.pointStreams = streams
      encoder.shortestBlock = shortestBlock
      encoder.blocksInDeltas = blocksInDeltas
      return encoder
    }
  }

  /// What one variant stored and took.
  struct Outcome {
    var full = 0, delta = 0, raw = 0, deltas = 0
    var encodeSeconds = 0.0, decodeSeconds = 0.0
    var total: Int { full + delta + raw }
  }

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let variants = arguments.required("--variants").split(separator: ",").map { Variant(String($0)) }
    let rounds = arguments.int("--rounds", default: 1)
    arguments.finish(operands: 1...1)
    let path = arguments.operands[0]
    let drafts = try drawings(of: path)
    let count = drafts.reduce(0) { $0 + $1.count }
    let bytes = drafts.joined().reduce(0) { $0 + $1.bytes.count }
    print("\(path): \(drafts.count) drafts, \(count) distinct drawings of their versions, \(bytes) bytes")
    var outcomes = [Outcome](repeating: Outcome(), count: variants.count)
    for round in 0..<rounds {
      // Alternating order, so that no variant always runs on a warmer (or busier) machine.
      let order = round % 2 == 0 ? Array(variants.indices) : variants.indices.reversed()
      for index in order {
        let outcome = try encode(drafts, variants[index])
        outcomes[index].encodeSeconds += outcome.encodeSeconds / Double(rounds)
        outcomes[index].decodeSeconds += outcome.decodeSeconds / Double(rounds)
        (outcomes[index].full, outcomes[index].delta, outcomes[index].raw) = (outcome.full, outcome.delta, outcome.raw)
        outcomes[index].deltas = outcome.deltas
      }
    }
    print("variant | stored bytes | full | deltas (count) | raw | encode CPU s | decode CPU s")
    for (variant, outcome) in zip(variants, outcomes) {
      print(
        "\(variant.name) | \(outcome.total) | \(outcome.full) | \(outcome.delta) (\(outcome.deltas)) | \(outcome.raw) | "
          + String(format: "%.3f | %.3f", outcome.encodeSeconds, outcome.decodeSeconds))
    }
    return 0
  }

  /// Each draft's distinct drawings, oldest first, and their hashes.
  static func drawings(of path: String) throws -> [[HashedBytes]] {
    let db = try ArchiveDatabase.open(path: path, mode: .readOnly)
    defer { db.close() }
    let store = BlobStore(db)
    var drafts: [Int64: [HashedBytes]] = [:]
    var order: [Int64] = []
    var seen = Set<Int64>()
    try db.makeStatement("SELECT draft_id, blob_id FROM version ORDER BY draft_id, saved_ms, id").forEach { row in
      let (draft, blob) = (row.int64(0), row.int64(1))
      guard seen.insert(blob).inserted else { return }
      if drafts[draft] == nil { order.append(draft) }
      drafts[draft, default: []].append(HashedBytes(try store.bytes(ofBlob: blob)))
    }
    return order.map { drafts[$0]! }
  }

  /// Encodes every draft's drawings as `variant` says, then decodes each over its base.
  static func encode(_ drafts: [[HashedBytes]], _ variant: Variant) throws -> Outcome {
    let encoder = variant.encoder()
    var outcome = Outcome()
    var encoded: [(blob: EncodedBlob, base: BlobBase?)] = []
    let start = Clocks.threadCPU()
    for versions in drafts {
      var base: BlobBase?
      for drawing in variant.reverse ? versions.reversed() : versions {
        let (blob, form) = try encoder.encodeKeepingForm(drawing, base: base)
        encoded.append((blob, base))
        base = BlobBase(sha256: drawing.sha256, bytes: drawing.bytes, depth: blob.depth, form: form)
        switch blob.encoding {
        case .zstd: outcome.full += blob.data.count
        case .delta:
          outcome.delta += blob.data.count
          outcome.deltas += 1
        case .raw: outcome.raw += blob.data.count
        }
      }
    }
    outcome.encodeSeconds = Clocks.threadCPU() - start
    let decodeStart = Clocks.threadCPU()
    let decompressor = ZstdDecompressor()
    for (blob, base) in encoded {
      _ = try BlobEncoder.decode(blob, base: blob.encoding == .delta ? base : nil, decompressor: decompressor)
    }
    outcome.decodeSeconds = Clocks.threadCPU() - decodeStart
    return outcome
  }
}
