// inkling-bench: every benchmark of the project, one subcommand each. The scripts/bench*
// scripts build it in release and run it beside the tools people would use instead; each
// subcommand prints the figures BENCHMARKS.md records, under the same names.
//
//   inkling-bench search      query latency at a million drafts, and `find` as the baseline
//   inkling-bench restore     restore latency inside one process, through the library
//   inkling-bench thumbnails  cold and cached thumbnails of an imported archive
//   inkling-bench zstd        zstd levels and the blob path on drawing-like bytes
//   inkling-bench blobs       an archive's drawings encoded again in several ways: size and CPU
//   inkling-bench drawing     the drawing reader, writer and fingerprint, MB/s on one core
//   inkling-bench render      cold 256-px thumbnails of generated pages, on one core
//   inkling-bench import      an import through the library, with or without the drawing index
//   inkling-bench bigdraft    one draft file of 200,000 strokes, for the time-lapse benchmark
//   inkling-bench vectors     SVG bytes per stroke over the corpus; a large draft's PDF vs its PNG

import Foundation

@main
enum EntryPoint {
  /// A subcommand: its name, a line for the help, its options, and what runs it.
  struct Benchmark: Sendable {
    var name: String
    var abstract: String
    var usage: String
    /// The options that take no value.
    var flags: Set<String> = []
    var run: @Sendable (inout BenchArguments) throws -> Int32
  }

  static let benchmarks: [Benchmark] = [
    SearchBench.benchmark, RestoreBench.benchmark, ThumbnailBench.benchmark, ZstdBench.benchmark,
    BlobsBench.benchmark, DrawingBench.benchmark, RenderBench.benchmark, ImportBench.benchmark, BigDraftBench.benchmark,
    ManySavesBench.benchmark, VectorBench.benchmark,
  ]

  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first, !name.hasPrefix("-") else {
      FileHandle.standardError.write(Data(help().utf8))
      exit(arguments.first == "--help" || arguments.first == "-h" ? 0 : 2)
    }
    arguments.removeFirst()
    guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
      BenchArguments.fail("no benchmark \"\(name)\"\n\n" + help())
    }
    if arguments.contains("--help") || arguments.contains("-h") {
      print("usage: inkling-bench \(benchmark.name) \(benchmark.usage)\n\n\(benchmark.abstract)")
      exit(0)
    }
    var parsed = BenchArguments(
      arguments, flagNames: benchmark.flags, usage: "inkling-bench \(benchmark.name) \(benchmark.usage)")
    do {
      exit(try benchmark.run(&parsed))
    } catch {
      FileHandle.standardError.write(Data("inkling-bench \(name): \(error)\n".utf8))
      exit(1)
    }
  }

  static func help() -> String {
    var text = "usage: inkling-bench BENCHMARK [OPTIONS]   (BENCHMARK --help for its options)\n\n"
    for benchmark in benchmarks {
      text += "  " + benchmark.name.padding(toLength: 12, withPad: " ", startingAt: 0) + benchmark.abstract + "\n"
    }
    return text
  }
}
