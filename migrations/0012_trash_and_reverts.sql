-- 0012: a trash for drafts, and versions that revert to an earlier one.
--
-- A draft in the trash keeps its name, its versions and everything they use, so it can come
-- back whole (`undelete`) or be restored from; it only leaves the lists. Purging removes its
-- draft and version rows; its blobs, envelopes, index rows and thumbnails then become what
-- `gc` already removes (rows no version needs).
--
-- The walks of SearchCompiler read drafts newest first from draft_by_latest, draft_by_span and
-- draft_by_early_import and stop after `limit` matches. Those indexes become partial, on live
-- drafts only: a trashed draft costs a walk nothing (not even an index entry it must skip),
-- and SQLite refuses `INDEXED BY` on them unless the query says `deleted_ms IS NULL`, so no
-- plan can forget the trash. The trash itself is listed from draft_in_trash. Drivers (name
-- grams, version dates, drawings) may name trashed drafts; the WHERE clause drops them.
--
-- Invariants (`inkling-archive check` verifies 2):
--  1. draft.deleted_ms is NULL for a live draft, else when it went to the trash (ms since 1970).
--  2. A version with reverts_version_id R was added by `revert`: R is a version of the same
--     draft with the same file content (file_sha256), and R itself reverts to nothing (a revert
--     of a revert names the original).

-- When the draft went to the trash (ms since 1970); NULL while it is live (invariant 1).
ALTER TABLE draft ADD COLUMN deleted_ms INTEGER;
-- The version whose file a revert repeats (invariant 2); NULL for an imported file.
ALTER TABLE version ADD COLUMN reverts_version_id INTEGER REFERENCES version(id);

-- The walks' indexes of 0006 and 0008, the same columns, now partial on live drafts (see above).
DROP INDEX draft_by_latest;
-- Newest-first walks of live drafts: (latest, first, id) in key order, then what the walk's
-- terms read without the table (0008).
CREATE INDEX draft_by_latest ON draft(latest_saved_ms, first_saved_ms, id, version_count, name_folded, latest_strokes,
  latest_inks, first_imported_ms, latest_imported_ms) WHERE deleted_ms IS NULL;
DROP INDEX draft_by_span;
-- The period plan's ranges, one per span class (0006), of live drafts.
CREATE INDEX draft_by_span ON draft(span_class, latest_saved_ms, first_saved_ms) WHERE deleted_ms IS NULL;
DROP INDEX draft_by_early_import;
-- Live drafts with a version imported before their first save (0008's `imported:` periods).
CREATE INDEX draft_by_early_import ON draft(latest_saved_ms, first_saved_ms, id)
  WHERE first_imported_ms < first_saved_ms AND deleted_ms IS NULL;

-- The trash, newest deletion last; `purge --older-than` reads a prefix of it.
CREATE INDEX draft_in_trash ON draft(deleted_ms) WHERE deleted_ms IS NOT NULL;

-- The foreign key's child index: deleting a version (purge, merge) looks up the versions
-- that revert to it, which would otherwise read the whole table per deleted row.
CREATE INDEX version_by_reverted ON version(reverts_version_id) WHERE reverts_version_id IS NOT NULL;
