// `import PATH…` as one operation: the files and folders among the paths through the import
// (Archive+Import.swift), then the SQLite files among them merged as other archives, together
// in one run (Archive+Merge.swift), with one report of it all. A file named as a draft
// (`….inkling`) is a draft whatever it holds: only what is named as an archive is merged.

import InklingFormats

extension Archive {
  /// Imports `paths`: the draft files and folders among them first, then the SQLite files
  /// among them not named as drafts (`….inkling`) merged as other archives, in one run, counted apart in the order given. A stop
  /// asked through `options.shouldStop` ends the stage it is in; when it comes before the
  /// merges, they are not in the report.
  ///
  /// ```swift
  /// let report = try archive.importPaths(["~/Drafts", "ipad.sqlite"])
  /// print(report.total.versionsImported)
  /// ```
  ///
  /// `options.onEvent` hears each stage's end (`.filesImported`, `.merged`) besides the
  /// events of every file and version.
  ///
  /// - Parameter salvage: for the merges, go on past versions that do not verify.
  /// - Throws: what `importFiles(at:options:)` and `merge(archivesAt:salvage:options:)` throw;
  ///   the stages before the one that failed are committed.
  public func importPaths(_ paths: [String], salvage: Bool = false, options: ImportOptions = ImportOptions())
    throws(ArchiveError) -> ImportReport
  {
    let archives = paths.filter { Self.isNamedAsArchive($0) && Self.isSQLiteFile(atPath: $0) }
    let files = paths.filter { !archives.contains($0) }
    var report = ImportReport()
    if !files.isEmpty || archives.isEmpty {
      let summary = try importFiles(at: files, options: options)
      report.files = summary
      options.onEvent?(.filesImported(summary))
      // What an export's manifest says about the drafts it holds, once their files are in.
      for folder in files where options.shouldStop?() != true {
        guard let restored = try restoreMarks(fromExportIn: folder) else { continue }
        report.organising = (report.organising ?? MergedOrganising()).adding(restored)
      }
    }
    if !archives.isEmpty && options.shouldStop?() != true {
      report.merges = try merge(archivesAt: archives, salvage: salvage, options: options)
      for merged in report.merges { options.onEvent?(.merged(merged)) }
    }
    return report
  }
}

extension Archive {
  /// Whether `path` may be merged as an archive when it is a SQLite file: not when its name
  /// says it is a draft (`….inkling`). Such a file is imported as a draft, and a SQLite file is
  /// then refused as a bad one: someone who imports a drawing must not merge an archive that
  /// was named to pass for one.
  static func isNamedAsArchive(_ path: String) -> Bool {
    let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    return !DraftFileName.isDraftFileName(name)
  }
}

/// What `Archive.importPaths` did: the files and folders, then each archive merged.
public struct ImportReport: Sendable, Equatable {
  /// The draft files and folders among the paths; nil when every path was an archive.
  public var files: ImportSummary?
  /// Each archive merged, in the order given.
  public var merges: [MergeSummary] = []
  /// The stars, tags, notes and labels the manifests of export folders among the paths gave
  /// back (ExportedMarks.swift); nil when none had any.
  public var organising: MergedOrganising?

  public init() {}

  /// The files and every merge added together; the seconds of the files and of the merges,
  /// which ran together.
  public var total: ImportSummary {
    var total = files ?? ImportSummary()
    for merge in merges { total.add(merge.versions) }
    total.seconds = (files?.seconds ?? 0) + (merges.map(\.versions.seconds).max() ?? 0)
    return total
  }
}
