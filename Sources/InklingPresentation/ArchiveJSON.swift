// The JSON shape of each value the library returns, in one place, so that the command
// line's --json and the web server's /api/ print the same documents (README "JSON output").
// Dates are ISO 8601 UTC strings, sizes are numbers of bytes or pixels, keys keep this order.

import InklingArchive
import InklingFormats

extension DraftSummary {
  /// `deleted` only for drafts in the trash (`list --trash`).
  package var json: JSONValue {
    var members: [JSONValue.Member] = [
      .init("name", .string(name)), .init("versions", .int(versionCount)), .init("lastSaved", .date(lastSaved)),
    ]
    if let deleted { members.append(.init("deleted", .date(deleted))) }
    if let stars { members.append(.init("stars", .int(stars))) }
    if !tags.isEmpty { members.append(.init("tags", .array(tags.map { .string($0) }))) }
    return .object(members)
  }
}

extension VersionInfo {
  /// Its labels and notes only when it has some, so that a version nobody named or wrote
  /// about reads as before they existed.
  package var json: JSONValue {
    var members: [JSONValue.Member] = [
      .init("number", .int(number)), .init("saved", .date(saved)),
      .init("savedFrom", .string(savedFromFileName ? "fileName" : "modificationTime")),
      .init("imported", .date(imported)), .init("fileName", .string(fileName)),
      .init("fileSize", .int(Int(fileSize))), .init("fileSHA256", .string(fileSHA256)),
      .init("background", background.json), .init("drawingSHA256", .string(drawingSHA256)),
      .init("drawingSize", .int(Int(drawingSize))), .init("strokes", .optional(strokeCount.map { .int($0) })),
      .init("sameDrawingAs", .optional(sameDrawingAs.map { .int($0) })),
      .init("revertsTo", .optional(revertsTo.map { .int($0) })), .init("sources", .array(sources.map(\.json))),
    ]
    if !labels.isEmpty { members.append(.init("labels", .array(labels.map { .string($0) }))) }
    if !notes.isEmpty { members.append(.init("notes", .array(notes.map(\.json)))) }
    return .object(members)
  }
}

extension VersionSource {
  package var json: JSONValue {
    ["label": .string(label), "path": .string(path), "importRun": .int(Int(importRun)), "recorded": .date(recorded)]
  }
}

extension RestoredFile {
  package var json: JSONValue {
    [
      "path": .string(path), "version": .int(version.number), "saved": .date(version.saved),
      "renamedFrom": .optional(renamedFrom.map { .string($0) }),
      "renamedBecause": .optional(nameChange.map { .string($0.rawValue) }),
    ]
  }
}

extension AllVersionsRestore.DamagedVersion {
  package var json: JSONValue {
    ["draft": .string(draft), "version": .int(version), "fileName": .string(fileName), "detail": .string(detail)]
  }
}

extension RevertResult {
  package var json: JSONValue {
    [
      "draft": .string(version.draftName), "version": .int(version.number), "revertsTo": .int(revertedTo),
      "saved": .date(version.saved), "fileName": .string(version.fileName), "added": .bool(added),
    ]
  }
}

extension RenameResult {
  package var json: JSONValue {
    [
      "from": .string(from), "to": .string(to), "merged": .bool(merged), "versionsMoved": .int(versionsMoved),
      "duplicatesDropped": .int(duplicatesDropped), "versions": .int(versionCount),
    ]
  }
}

extension TrashedDraft {
  /// A draft of `undelete` or `purge`.
  package var json: JSONValue {
    [
      "name": .string(name), "versions": .int(versionCount), "lastSaved": .optional(lastSaved.map { .date($0) }),
      "deleted": .date(deleted),
    ]
  }

  /// A draft of `undelete`, which also says whether it was out of the trash already (and
  /// then has no date it was deleted).
  package var undeletedJSON: JSONValue {
    [
      "name": .string(name), "versions": .int(versionCount), "lastSaved": .optional(lastSaved.map { .date($0) }),
      "deleted": wasOutOfTrash ? .null : .date(deleted), "wasOutOfTrash": .bool(wasOutOfTrash),
    ]
  }

  /// A draft of `delete`, which also says whether it was in the trash already.
  package var deletedJSON: JSONValue {
    [
      "name": .string(name), "versions": .int(versionCount), "lastSaved": .optional(lastSaved.map { .date($0) }),
      "deleted": .date(deleted), "wasInTrash": .bool(wasInTrash),
    ]
  }
}

extension PurgeReport {
  package var json: JSONValue {
    [
      "purged": .array(drafts.map(\.json)), "versionsRemoved": .int(versionsRemoved), "dryRun": .bool(dryRun),
    ]
  }
}

extension ExportReport {
  package var json: JSONValue {
    [
      "folder": .string(folder), "manifest": .string(manifest), "manifestWritten": .bool(manifestWritten),
      "drafts": .int(drafts), "versions": .int(versions), "filesWritten": .int(filesWritten),
      "filesUnchanged": .int(filesUnchanged), "filesReplaced": .int(filesReplaced),
      "picturesWritten": .int(picturesWritten), "picturesUnchanged": .int(picturesUnchanged),
      "earlierFilesListed": .int(earlierFilesListed), "bytesWritten": .int(Int(bytesWritten)),
      "complete": .bool(isComplete), "stopped": .bool(stopped),
      "renamed": .array(
        renamed.map {
          ["path": .string($0.path), "renamedFrom": .string($0.renamedFrom), "because": .string($0.change.rawValue)]
        }),
      "problems": .array(
        problems.map {
          [
            "kind": .string($0.kind.rawValue), "draft": .string($0.draft), "version": .int($0.version),
            "path": .string($0.path), "detail": .string($0.detail),
          ]
        }),
      "seconds": .seconds(seconds),
    ]
  }
}

extension ImportSummary {
  package var json: JSONValue {
    [
      "versionsImported": .int(versionsImported), "draftsCreated": .int(draftsCreated),
      "broughtBackFromTrash": .array(draftsBroughtBack.map(JSONValue.string)), "versionsInTrash": .int(versionsInTrash),
      "alreadyArchived": .int(alreadyArchived), "repaired": .int(versionsRepaired),
      "notRepaired": .int(versionsNotRepaired), "ignored": .int(ignored), "rejected": .int(rejected),
      "drawingsNotIndexed": .int(drawingsNotIndexed), "bytesRead": .int(Int(bytesRead)), "seconds": .seconds(seconds),
      "notDownloaded": .array(
        savesNotDownloaded.sorted { $0.key < $1.key }.map { ["draft": .string($0.key), "saves": .int($0.value)] }),
    ]
  }
}

extension ImportReport {
  /// The summary of the files, or with merges the totals and each archive merged; what export
  /// folders' manifests gave back, when they had any.
  package var json: JSONValue {
    guard !merges.isEmpty || organising != nil, case .object(var members) = total.json else { return total.json }
    if let organising { members.append(.init("organising", organising.json)) }
    if !merges.isEmpty { members.append(.init("merged", .array(merges.map(\.json)))) }
    return .object(members)
  }
}

extension MergeSummary {
  package var json: JSONValue {
    [
      "archive": .string(path), "versionsImported": .int(versions.versionsImported),
      "draftsCreated": .int(versions.draftsCreated), "alreadyArchived": .int(versions.alreadyArchived),
      "leftOut": .int(versions.rejected), "drawingsNotIndexed": .int(versions.drawingsNotIndexed),
      "draftsInTrashNotMerged": .int(draftsInTrashNotMerged),
      "versionsInTrashNotMerged": .int(versionsInTrashNotMerged), "organising": organising.json,
      "bytesRead": .int(Int(versions.bytesRead)), "seconds": .seconds(versions.seconds),
    ]
  }
}

extension MergedOrganising {
  package var json: JSONValue {
    [
      "tagsAdded": .int(tagsAdded), "starsSet": .int(starsSet), "notesAdded": .int(notesAdded),
      "labelsAdded": .int(labelsAdded), "rowsRefused": .int(rowsRefused),
      "rowsWithoutMergedVersion": .int(rowsWithoutMergedVersion), "conflictCount": .int(conflictCount),
      "conflicts": .array(conflicts.map(\.json)),
    ]
  }
}

extension OrganisingConflict {
  package var json: JSONValue {
    switch self {
    case .stars(let draft, let ours, let theirs):
      ["kind": .string("stars"), "draft": .string(draft), "ours": .int(ours), "theirs": .int(theirs)]
    case .label(let draft, let name, let ours, let theirs):
      [
        "kind": .string("label"), "draft": .string(draft), "label": .string(name), "oursVersion": .int(ours),
        "theirsVersion": .int(theirs),
      ]
    }
  }
}

extension ImportedVersion {
  /// One line of `watch --json`.
  package var json: JSONValue {
    [
      "draft": .string(draft), "version": .int(number), "saved": .date(saved),
      "savedFrom": .string(savedFromFileName ? "fileName" : "modificationTime"), "path": .string(path),
      "fileSize": .int(Int(fileSize)), "source": .optional(source.map { .string($0) }), "newDraft": .bool(newDraft),
      "broughtBackFromTrash": .bool(broughtBackFromTrash),
    ]
  }
}

extension TimelapseSummary {
  /// A time-lapse in `timelapse --json` and in the API's draft, after what names its video
  /// there (`named`: the file written, or the address it is served at).
  package func json(named: JSONValue.Member) -> JSONValue {
    .object([
      named, .init("draft", .string(draftName)), .init("from", .int(firstVersion)), .init("to", .int(lastVersion)),
      .init("frames", .int(frames)), .init("fps", .int(fps)), .init("seconds", .double(seconds)),
      .init("width", .int(width)), .init("height", .int(height)), .init("strokes", .int(strokes)),
      .init("skipped", .array(skipped.map { .int($0.number) })), .init("evenPace", .bool(evenPace)),
      .init(
        "marks",
        .array(marks.map(\.json))),
    ])
  }
}

extension TimelapseMark {
  /// A save's place in a time-lapse; its labels only where it has some, as `diff` shows them.
  package var json: JSONValue {
    var members: [JSONValue.Member] = [
      .init("version", .int(version)), .init("frame", .int(frame)), .init("seconds", .double(seconds)),
    ]
    if !labels.isEmpty { members.append(.init("labels", .array(labels.map { .string($0) }))) }
    return .object(members)
  }
}

extension RGBA {
  package var json: JSONValue {
    ["r": .double(red), "g": .double(green), "b": .double(blue), "a": .double(alpha)]
  }
}

extension Rect {
  package var json: JSONValue {
    ["x": .double(x), "y": .double(y), "width": .double(width), "height": .double(height)]
  }
}

extension StrokeSummary {
  package var json: JSONValue {
    [
      "number": .int(number), "ink": .string(ink), "color": color.json, "hidden": .bool(hidden),
      "points": .int(pointCount), "bounds": .optional(bounds?.json), "created": .optional(created.map { .date($0) }),
      "partlyErased": .bool(partlyErased),
    ]
  }
}

extension DrawingSummary {
  /// The drawing's facts; with `strokes`, every stroke too.
  package func json(strokes withStrokes: Bool) -> JSONValue {
    var members: [JSONValue.Member] = [
      .init("status", .string(status.rawValue)),
      .init("problem", .optional(problem.map { .string($0) })),
      .init("formatVersion", .optional(formatVersion.map { .int($0) })),
      .init("strokes", .int(strokeCount)), .init("visibleStrokes", .int(visibleCount)),
      .init("hiddenStrokes", .int(hiddenCount)), .init("eraserStrokes", .int(eraserCount)),
      .init("partlyErasedStrokes", .int(partlyErasedCount)), .init("points", .int(pointCount)),
      .init("bounds", .optional(bounds?.json)),
      .init("firstPoint", .optional(firstPoint.map { .date($0) })),
      .init("lastPoint", .optional(lastPoint.map { .date($0) })),
      .init("maxInkVersion", .optional(maxInkVersion.map { .int($0) })),
      .init(
        "inks", .array(inks.map { ["ink": .string($0.ink), "color": $0.color.json, "strokes": .int($0.strokeCount)] })),
    ]
    if withStrokes { members.append(.init("strokeList", .array(strokes.map(\.json)))) }
    return .object(members)
  }
}

extension DrawingDiff {
  /// The versions' labels only where they have some, after their numbers.
  package var json: JSONValue {
    var members: [JSONValue.Member] = [
      .init("draft", .string(from.draftName)), .init("from", .int(from.number)), .init("to", .int(to.number)),
    ]
    if !from.labels.isEmpty { members.append(.init("fromLabels", .array(from.labels.map { .string($0) }))) }
    if !to.labels.isEmpty { members.append(.init("toLabels", .array(to.labels.map { .string($0) }))) }
    members += [
      .init("added", .array(added.map(\.json))), .init("removed", .array(removed.map(\.json))),
      .init("hidden", .array(hidden.map(\.json))), .init("unhidden", .array(unhidden.map(\.json))),
      .init("partlyErased", .array(partlyErased.map(\.json))),
      .init("background", .optional(backgroundChange.map { ["from": $0.from.json, "to": $0.to.json] })),
    ]
    return .object(members)
  }
}

extension CheckReport {
  /// The report, with the archive it is about.
  package func json(archive: String) -> JSONValue {
    [
      "archive": .string(archive), "full": .bool(full), "healthy": .bool(isHealthy),
      "problemCount": .int(problemCount), "drawingIndexProblemCount": .int(drawingIndexProblemCount),
      "problems": .array(problems.map { ["location": .string($0.location), "message": .string($0.message)] }),
      "damagedVersionCount": .int(damagedVersionCount),
      "repairable": .array(
        repairable.map { ["location": .string($0.location), "paths": .array($0.paths.map(JSONValue.string))] }),
      "counts": [
        "drafts": .int(counts.drafts), "versions": .int(counts.versions), "blobs": .int(counts.blobs),
        "envelopes": .int(counts.envelopes), "blobsVerified": .int(counts.blobsVerified),
        "filesVerified": .int(counts.filesVerified), "fileBytesVerified": .int(Int(counts.fileBytesVerified)),
        "drawingsDecoded": .int(counts.drawingsDecoded), "drawingsOpaque": .int(counts.drawingsOpaque),
        "drawingsNotIndexed": .int(counts.drawingsNotIndexed), "thumbnails": .int(counts.thumbnails),
        "unneededThumbnails": .int(counts.unneededThumbnails),
        "unusedBlobs": .int(counts.unusedBlobs), "unusedEnvelopes": .int(counts.unusedEnvelopes),
        "interruptedImports": .int(counts.interruptedImports), "runningImports": .int(counts.runningImports),
      ],
      "notChecked": .array(
        notChecked.map {
          switch $0 {
          case .storedBytes(let drawings, let versions):
            ["what": "storedBytes", "drawings": .int(drawings), "versions": .int(versions)]
          }
        }),
      "seconds": .seconds(seconds),
    ]
  }
}

extension GarbageReport {
  package var json: JSONValue {
    [
      "drawingsRemoved": .int(drawingsRemoved), "envelopesRemoved": .int(envelopesRemoved),
      "strokesRemoved": .int(strokesRemoved), "thumbnailsRemoved": .int(thumbnailsRemoved),
      "drawingsRepacked": .int(drawingsRepacked), "bytesBefore": .int(Int(bytesBefore)),
      "bytesAfter": .int(Int(bytesAfter)),
    ]
  }
}

extension ArchiveStatistics {
  package var json: JSONValue {
    [
      "drafts": .int(drafts), "versions": .int(versions), "fileBytes": .int(Int(fileBytes)),
      "drawings": .int(drawings), "drawingBytes": .int(Int(drawingBytes)),
      "stored": [
        "full": .int(Int(fullBytes)), "delta": .int(Int(deltaBytes)), "envelope": .int(Int(envelopeBytes)),
        "index": .int(Int(indexBytes)), "thumbnails": .int(Int(thumbnailBytes)),
      ],
      "deltas": .int(deltaCount), "longestDeltaChain": .int(longestDeltaChain),
      "archiveBytes": .int(Int(archiveFileBytes)), "ratio": .double((ratio * 10_000).rounded() / 10_000),
    ]
  }
}

extension BackupReport {
  package var json: JSONValue {
    [
      "path": .string(path), "bytes": .int(Int(bytes)), "checked": .bool(true), "fullCheck": .bool(check.full),
      "versions": .int(check.counts.versions), "seconds": .seconds(seconds),
    ]
  }
}

extension LinkedLibrary {
  /// One library of `--json --version --verbose`.
  package var json: JSONValue {
    ["name": .string(name), "version": .string(version)]
  }
}

extension JSONValue {
  /// A duration in seconds, to the millisecond.
  package static func seconds(_ seconds: Double) -> JSONValue {
    .double((seconds * 1000).rounded() / 1000)
  }
}

extension DraftAnnotations {
  /// The members `show` and `history` add to their object: only those with something in them.
  package var jsonMembers: [JSONValue.Member] {
    var members: [JSONValue.Member] = []
    if let stars { members.append(.init("stars", .int(stars))) }
    if !tags.isEmpty { members.append(.init("tags", .array(tags.map { .string($0) }))) }
    if !notes.isEmpty { members.append(.init("notes", .array(notes.map(\.json)))) }
    return members
  }

  /// `Stars:` and `Tags:` lines, as `show` aligns its lines; none for what is not there.
  package var lines: [String] {
    (stars.map { ["Stars:       " + Format.stars($0)] } ?? [])
      + (tags.isEmpty ? [] : ["Tags:        " + tags.map(Quoted.display).joined(separator: ", ")])
  }
}
