-- 0013: where each version came from, so that drafts gathered from several devices can be
-- told apart and searched by origin: a source label (`--source LABEL`; by default
-- the folder the file was imported from, or the labels an archive merged in had kept), the
-- file's path there, and the import run that recorded it.
--
-- A version is one file content of one draft at one save time (0001, invariant 4), so the same
-- file reaching the archive from two sources (two iPads syncing the same draft, two merged
-- archives that both hold it) is still one version, and every source that delivered it is
-- recorded beside it: one version_source row per (version, source), holding the path and the
-- run of the first time that source delivered it. Two files of one draft with the same save
-- time but different contents are two versions (UNIQUE (draft_id, saved_ms, file_sha256)),
-- each with its own sources. Versions archived before this migration have no row: where they
-- came from was not kept, and nothing here guesses it.
--
-- Invariants:
--  1. source.label is NFC text, unique; source.label_folded = inkling_fold(label), what
--     `source:TEXT` matches (a generated column, so whoever writes a label keeps it).
--  2. version_source rows go with their version (ON DELETE CASCADE): removing a version needs
--     no knowledge of this table. Sources themselves are never removed; they are few (one per
--     device or folder).
--  3. At most one row per (version, source): importing a file again from the same source, or
--     merging the same archive again, adds nothing.
--  4. run_id is the import run of this archive that recorded the row (for a merged version,
--     the merge's run; the version keeps its own imported_ms).

CREATE TABLE source (
  id INTEGER PRIMARY KEY,
  label TEXT NOT NULL UNIQUE,
  label_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(label)) STORED
);

CREATE TABLE version_source (
  version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES source(id),
  -- The file's path when it was imported (absolute), or as the merged archive recorded it
  -- (the merged archive's own path for versions it had no source for).
  path TEXT NOT NULL,
  run_id INTEGER NOT NULL REFERENCES import_run(id),
  PRIMARY KEY (version_id, source_id)
) WITHOUT ROWID;
-- `source:TEXT` and `list --source`: the versions, hence drafts, of the matching sources.
CREATE INDEX version_source_by_source ON version_source(source_id, version_id);
