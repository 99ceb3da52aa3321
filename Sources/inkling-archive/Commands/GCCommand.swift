import InklingCommandLine

enum GCCommand {
  static let spec = CommandSpec(
    "gc", abstract: "Reclaim space from unused blobs and thumbnails.")
}
