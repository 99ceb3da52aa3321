// swift-tools-version:6.0
//
// inkling-archive: every saved version of every Inkling draft in one SQLite file.
//
// The modules are layered, each depending only on those above it:
//
//   InklingFormats       bytes <-> values: .inkling envelopes, file names, PencilKit drawings, JSON (no I/O)
//   InklingRendering     drawings -> pixels -> PNG; text in any script (FreeType, HarfBuzz)
//   InklingStore         the SQLite archive: schema, typed statements, content-addressed blobs
//   InklingArchive       operations: import, merge, watch, query, restore, thumbnails, check, backup, gc
//   InklingCommandLine   a declarative argument parser: help, man page, completions (knows nothing of drafts)
//   InklingPresentation  how archive values are shown: dates, sizes, quoted names, JSON shapes,
//                        text tables, the terminal's progress line
//   InklingServer        `serve`: the archive's web pages and JSON API over libmicrohttpd
//   InklingArchiveTool   the `inkling-archive` command line: parses arguments, calls one operation, prints
//
// Beside them, for people and programs that exercise the library rather than use it:
//
//   InklingCorpus        deterministic Drafts folders written as the app writes them, and the
//                        seeded random generator; inkling-corpus is its command line
//   InklingTestSupport   what every test target shares: temporary folders, a process runner,
//                        generated drawings and archives (Tests/InklingTestSupport)
//   inkling-bench        every benchmark, one subcommand each, run by scripts/bench*
//
// C libraries come from Debian through system-library targets (see scripts/setup): CSQLite,
// CZstd, CCrypto, CZlib, CUtf8proc, CPNG, CFreeType, CHarfBuzz, CFontconfig, CCairo; and PNGBridge, a C shim for
// libpng's error handling.
import PackageDescription

let package = Package(
  name: "inkling-archive",
  products: [
    .executable(name: "inkling-archive", targets: ["InklingArchiveTool"]),
    .library(name: "InklingArchive", targets: ["InklingArchive"]),
  ],
  targets: [
    // MARK: - C libraries (Debian packages, installed by scripts/setup)
    .systemLibrary(
      name: "CSQLite", path: "Sources/C/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CZstd", path: "Sources/C/CZstd", pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"])]),
    .systemLibrary(
      name: "CCrypto", path: "Sources/C/CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CZlib", path: "Sources/C/CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]),
    // No pkgConfig: libutf8proc.pc's cflags (-DUTF8PROC_EXPORTS) are a flag SwiftPM refuses
    // with a warning, and the header and library are in the default paths.
    .systemLibrary(name: "CUtf8proc", path: "Sources/C/CUtf8proc", providers: [.apt(["libutf8proc-dev"])]),
    .systemLibrary(
      name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng16",
      providers: [.apt(["libpng-dev"])]),
    // Caption text: FreeType rasterises glyphs, HarfBuzz shapes runs, fontconfig finds fonts.
    .systemLibrary(
      name: "CFreeType", path: "Sources/C/CFreeType", pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"])]),
    .systemLibrary(
      name: "CHarfBuzz", path: "Sources/C/CHarfBuzz", pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"])]),
    .systemLibrary(
      name: "CFontconfig", path: "Sources/C/CFontconfig", pkgConfig: "fontconfig",
      providers: [.apt(["libfontconfig-dev"])]),
    // SVG and PDF renders and the PDF contact sheet: cairo writes PDF from path calls, its
    // fonts embedded through FreeType.
    .systemLibrary(
      name: "CCairo", path: "Sources/C/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    // libpng reports errors with longjmp, which Swift cannot survive; this C shim catches them.
    .target(name: "PNGBridge", dependencies: ["CPNG"], path: "Sources/C/PNGBridge"),
    .systemLibrary(
      name: "CMicroHTTPD", path: "Sources/C/CMicroHTTPD", pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]),
    // MHD_start_daemon and MHD_get_daemon_info are variadic; this C shim calls them for Swift.
    .target(name: "HTTPDBridge", dependencies: ["CMicroHTTPD"], path: "Sources/C/HTTPDBridge"),

    // `timelapse` videos: H.264 MP4 through libavformat + libavcodec's libx264 encoder
    // (libswscale converts RGBA to yuv420p); VideoBridge holds the C that FFmpeg's macros need.
    .systemLibrary(
      name: "CFFmpeg", path: "Sources/C/CFFmpeg", pkgConfig: "libavformat",
      providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswscale-dev"])]),
    // Animated WebP: libwebp's WebPAnimEncoder (in libwebpmux).
    .systemLibrary(
      name: "CWebP", path: "Sources/C/CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
    // A C target links only what the module map of a module imported from Swift names, and
    // pkg-config gives libavformat alone: the other libraries are named here.
    .target(
      name: "VideoBridge", dependencies: ["CFFmpeg", "CWebP"], path: "Sources/C/VideoBridge",
      linkerSettings: [
        .linkedLibrary("avcodec"), .linkedLibrary("swscale"), .linkedLibrary("avutil"), .linkedLibrary("webpmux"),
        .linkedLibrary("webp"),
      ]),

    // MARK: - The library, layer by layer
    // How many terminal columns text takes: for the argument parser's help and the tables alike,
    // so the parser needs nothing of the drawing formats.
    .target(name: "InklingTextWidth"),
    // Pure values: the .inkling envelope, file names, the PencilKit drawing format, JSON text.
    .target(name: "InklingFormats", dependencies: ["CZlib", "CUtf8proc"]),
    // Drawings to RGBA pixels over a background, PNG encoding, and text in every script.
    .target(
      name: "InklingRendering",
      dependencies: ["InklingFormats", "PNGBridge", "CFreeType", "CHarfBuzz", "CFontconfig", "CCairo"]),
    // The SQLite archive: connection, statements, migrations, hashing, compression, blobs, name folding.
    .target(
      name: "InklingStore", dependencies: ["InklingFormats", "CSQLite", "CZstd", "CCrypto", "CUtf8proc"],
      // The numbered migrations are embedded; the generated listing and the README are for people.
      exclude: ["migrations/schema.sql", "migrations/README.md"], resources: [.embedInCode("migrations")]),
    // What a user does: import, merge, watch, list, history, restore, show, thumbnails, check, backup, gc.
    .target(
      name: "InklingArchive", dependencies: ["InklingFormats", "InklingRendering", "InklingStore", "VideoBridge"],
      // The version and the licence notice, embedded so the tool prints them from any directory.
      resources: [.embedInCode("About/VERSION"), .embedInCode("About/THIRD-PARTY-NOTICES.md")]),
    // Deterministic Drafts folders written the way the app writes them (demo, tests, bench).
    .target(name: "InklingCorpus", dependencies: ["InklingFormats"]),
    // A small declarative argument parser: command tree, options, generated help, man page,
    // completions and usage errors.
    .target(
      name: "InklingCommandLine", dependencies: ["InklingTextWidth"], path: "Sources/InklingCommandLine",
      // The completion scripts' fixed text, embedded so the tool writes them from any directory.
      exclude: ["README.md"], resources: [.embedInCode("Completions")]),
    // How archive values are shown: dates, sizes, safely quoted names, the JSON shapes, text
    // tables, the terminal and its progress line; for the CLI and the web pages alike.
    .target(name: "InklingPresentation", dependencies: ["InklingArchive", "InklingFormats", "InklingTextWidth"]),
    // The web pages and JSON API of `serve`: HTTP over libmicrohttpd, routing, escaping, views.
    .target(
      name: "InklingServer",
      dependencies: [
        "InklingArchive", "InklingPresentation", "InklingFormats", "InklingRendering", "HTTPDBridge", "CMicroHTTPD",
      ],
      exclude: ["README.md"], resources: [.embedInCode("Assets")]),

    // MARK: - Executables
    // The `inkling-archive` command (the product's name); its folder is named apart from the
    // library's, Sources/InklingArchive.
    .executableTarget(
      name: "InklingArchiveTool",
      dependencies: [
        "InklingFormats", "InklingRendering", "InklingArchive", "InklingCommandLine", "InklingPresentation",
        "InklingServer",
      ]),
    .executableTarget(name: "inkling-corpus", dependencies: ["InklingCorpus"]),
    // The benchmarks: one subcommand each (search, restore, thumbnails, zstd, drawing, render,
    // import), called by scripts/bench*, which compare them with other tools.
    .executableTarget(
      name: "inkling-bench",
      dependencies: [
        "InklingArchive", "InklingStore", "InklingRendering", "InklingFormats", "InklingCorpus",
        "InklingTestSupport",
      ]),

    // MARK: - Tests
    // A plain target (test targets cannot depend on each other), in Tests/ since it is no part
    // of the library.
    .target(
      name: "InklingTestSupport", dependencies: ["InklingCorpus", "InklingFormats", "InklingStore"],
      path: "Tests/InklingTestSupport"),
    .testTarget(name: "InklingFormatsTests", dependencies: ["InklingFormats", "InklingCorpus", "InklingTestSupport"]),
    .testTarget(
      name: "InklingRenderingTests", dependencies: ["InklingRendering", "InklingFormats", "InklingTestSupport"]),
    .testTarget(
      name: "InklingStoreTests",
      dependencies: ["InklingStore", "InklingFormats", "CSQLite", "InklingCorpus", "InklingTestSupport"]),
    .testTarget(name: "InklingCommandLineTests", dependencies: ["InklingCommandLine", "InklingTestSupport"]),
    .testTarget(
      name: "InklingPresentationTests",
      dependencies: [
        "InklingPresentation", "InklingFormats", "InklingTextWidth", "InklingCorpus", "InklingTestSupport",
      ]),
    .testTarget(
      name: "InklingArchiveTests",
      dependencies: [
        "InklingArchive", "InklingCorpus", "InklingStore", "InklingFormats", "InklingRendering",
        "InklingTestSupport", "CSQLite",
      ]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["InklingCorpus", "InklingTestSupport", "InklingFormats", "InklingRendering"]),
    .testTarget(
      name: "InklingServerTests",
      dependencies: [
        "InklingServer", "InklingArchive", "InklingCorpus", "InklingFormats", "InklingRendering", "InklingPresentation",
        "InklingTestSupport", "CMicroHTTPD", "HTTPDBridge",
      ]),
  ]
)
