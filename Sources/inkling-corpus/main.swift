// inkling-corpus: writes a deterministic Drafts folder the way the Inkling app does (generated
// drafts, and real drawings as drafts with --samples), or a folder of bad inputs. Used by
// tests, the demo and scripts/bench.

import Foundation
import InklingCorpus

let usage = """
  Usage: inkling-corpus --drafts N [--versions A-B] [--strokes A-B] [--seed S] [--variety]
                        [--manifest FILE] [--samples DIR] OUT_DIR
         inkling-corpus --samples DIR OUT_DIR
         inkling-corpus --bad OUT_DIR

    --drafts N       number of drafts (distinct names)
    --versions A-B   saves per draft, uniform in A…B (default 1-8)
    --strokes A-B    strokes added per save (default: by each draft's style)
    --seed S         random seed (default 1); the same arguments give the same folder
    --variety        also write files the way copies off a device look, and other JSON spellings
    --manifest FILE  write one line per file: draft name, file name, save time (ms), bytes (TSV)
    --samples DIR    also write every DIR/*.pkdrawing (device drawings) as a draft of a few
                     saves, after the generated drafts (see SampleDrafts.swift)
    --bad            write a folder of bad inputs instead (see BadInputs.swift)
  """

func fail(_ message: String, status: Int32 = 2) -> Never {
  FileHandle.standardError.write(Data("Error: \(message)\n\(status == 2 ? usage + "\n" : "")".utf8))
  exit(status)
}

func megabytes(_ bytes: Int) -> Double { (Double(bytes) / 100_000).rounded() / 10 }

func range(_ text: String) -> ClosedRange<Int>? {
  let parts = text.split(separator: "-", omittingEmptySubsequences: false)
  if parts.count == 1, let n = Int(parts[0]), n >= 0 { return n...n }
  guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b else { return nil }
  return a...b
}

var arguments = Array(CommandLine.arguments.dropFirst())
var spec = CorpusSpec(drafts: 0)
var draftsGiven = false
var bad = false
var manifest: String?
var samples: String?
var output: String?
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  func value() -> String {
    guard !arguments.isEmpty else { fail("\(argument) needs a value") }
    return arguments.removeFirst()
  }
  switch argument {
  case "-h", "--help":
    print(usage)
    exit(0)
  case "--drafts":
    guard let n = Int(value()), n >= 0 else { fail("--drafts needs a number") }
    spec.drafts = n
    draftsGiven = true
  case "--versions":
    guard let r = range(value()), r.lowerBound >= 1 else { fail("--versions needs A-B with 1 ≤ A ≤ B") }
    spec.versionsPerDraft = r
  case "--strokes":
    guard let r = range(value()), r.lowerBound >= 1 else { fail("--strokes needs A-B with 1 ≤ A ≤ B") }
    spec.strokesPerVersion = r
  case "--seed":
    guard let s = UInt64(value()) else { fail("--seed needs a non-negative integer") }
    spec.seed = s
  case "--variety": spec.layoutVariety = true
  case "--manifest": manifest = value()
  case "--samples": samples = value()
  case "--bad": bad = true
  default:
    if argument.hasPrefix("-") { fail("unknown option \(argument)") }
    guard output == nil else { fail("more than one output folder: \(output!) and \(argument)") }
    output = argument
  }
}
guard let output else { fail("no output folder given") }
let folder = URL(fileURLWithPath: output)
let start = Date()

do {
  if bad {
    let entries = try writeBadInputs(to: folder)
    for entry in entries { print("\(entry.displayName)\t\(entry.problem)") }
    print("wrote \(entries.count) bad-input entries into \(output)")
    exit(0)
  }
  guard draftsGiven || samples != nil else { fail("--drafts N or --samples DIR is required") }
  var drafts: [CorpusDraft] = []
  if draftsGiven {
    let summary = try writeCorpus(spec, to: folder)
    drafts = summary.drafts
    print(
      "wrote \(summary.files) files (\(megabytes(summary.bytes)) MB, \(summary.smallestFile)–\(summary.largestFile) bytes each) "
        + "for \(summary.drafts.count) drafts into \(output) in \(((Date().timeIntervalSince(start)) * 10).rounded() / 10) s"
    )
  }
  if let samples {
    let written = try writeSampleDrafts(from: URL(fileURLWithPath: samples), to: folder)
    let files = written.map(\.files.count).reduce(0, +)
    print("wrote \(files) files for \(written.count) drafts of the real drawings in \(samples) into \(output):")
    for draft in written { print("  \(draft.name.draftName): \(draft.files.count) saves") }
    drafts += written
  }
  if let manifest {
    var text = ""
    for draft in drafts {
      for file in draft.files {
        text += "\(draft.name.draftName)\t\(file.fileName)\t\(file.savedMilliseconds)\t\(file.bytes)\n"
      }
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
  }
} catch {
  fail("\(error)", status: 1)
}
