-- The schema of an inkling archive after the migrations 0001_archive.sql to 0020_known_files.sql:
-- one definition per object as it stands now, with the comments of the migration that created
-- it (and of the one that added each later column). Generated; do not edit. Change the schema
-- with a new migration, then run
--   INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests
-- README.md says which migration owns which invariant.

-- MARK: - draft

-- (from 0001_archive.sql)
CREATE TABLE draft (
  id INTEGER PRIMARY KEY,
  -- The name as people typed it (NFC), the identity of a draft.
  name TEXT NOT NULL UNIQUE,
  created_ms INTEGER NOT NULL,           -- when the draft first entered the archive
  -- Denormalised from version for `list` at scale; maintained by the import transaction.
  version_count INTEGER NOT NULL DEFAULT 0,
  latest_saved_ms INTEGER,
  latest_version_id INTEGER,
  -- (added by 0003_search.sql)
  name_folded TEXT NOT NULL DEFAULT '',
  -- (added by 0003_search.sql)
  first_saved_ms INTEGER,
  -- (added by 0006_search_walks.sql)
  span_class INTEGER GENERATED ALWAYS AS (
    (latest_saved_ms - first_saved_ms >= 3600000) + (latest_saved_ms - first_saved_ms >= 7200000)
    + (latest_saved_ms - first_saved_ms >= 14400000) + (latest_saved_ms - first_saved_ms >= 28800000)
    + (latest_saved_ms - first_saved_ms >= 57600000) + (latest_saved_ms - first_saved_ms >= 115200000)
    + (latest_saved_ms - first_saved_ms >= 230400000) + (latest_saved_ms - first_saved_ms >= 460800000)
    + (latest_saved_ms - first_saved_ms >= 921600000) + (latest_saved_ms - first_saved_ms >= 1843200000)
    + (latest_saved_ms - first_saved_ms >= 3686400000) + (latest_saved_ms - first_saved_ms >= 7372800000)
    + (latest_saved_ms - first_saved_ms >= 14745600000) + (latest_saved_ms - first_saved_ms >= 29491200000)
    + (latest_saved_ms - first_saved_ms >= 58982400000)
  ) VIRTUAL,
  -- (added by 0008_newest_drawing_on_draft.sql)
  latest_strokes INTEGER,
  -- (added by 0008_newest_drawing_on_draft.sql)
  latest_inks INTEGER NOT NULL DEFAULT 0,
  -- (added by 0008_newest_drawing_on_draft.sql)
  first_imported_ms INTEGER,
  -- (added by 0008_newest_drawing_on_draft.sql)
  latest_imported_ms INTEGER,
  -- (added by 0012_trash_and_reverts.sql)
  -- When the draft went to the trash (ms since 1970); NULL while it is live (invariant 1).
  deleted_ms INTEGER,
  -- (added by 0019_organising.sql)
  -- Invariant 3.
  stars INTEGER CHECK (stars BETWEEN 1 AND 5)
);

-- (from 0003_search.sql)
-- Exact names and glob patterns with a literal prefix.
CREATE INDEX draft_by_folded ON draft(name_folded);

-- (from 0003_search.sql)
-- `saved:<X`: drafts with a version saved before X. With first_saved_ms beside
-- latest_saved_ms in both indexes, "drafts saved both before and after X" (those that may
-- have a version inside a period ending at X) is read from one index without the table.
CREATE INDEX draft_by_first ON draft(first_saved_ms, latest_saved_ms);

-- (from 0003_search.sql)
CREATE INDEX draft_by_versions ON draft(version_count);

-- (from 0003_search.sql)
-- From a version (found by strokes, ink) to the draft whose newest version it is.
CREATE INDEX draft_by_latest_version ON draft(latest_version_id);

-- (from 0003_search.sql)
CREATE TRIGGER draft_search_insert AFTER INSERT ON draft BEGIN
  SELECT RAISE(ABORT, 'a draft name is at most 4096 characters')
    WHERE length(inkling_fold(NEW.name)) > 4096;
  UPDATE draft SET name_folded = inkling_fold(NEW.name) WHERE id = NEW.id;
  INSERT OR IGNORE INTO name_gram(gram, draft_id)
    SELECT substr(d.name_folded || char(1, 1), p.i, 3), d.id
    FROM draft d JOIN search_position p ON p.i <= length(d.name_folded) WHERE d.id = NEW.id;
END;

-- (from 0003_search.sql)
CREATE TRIGGER draft_search_rename AFTER UPDATE OF name ON draft WHEN NEW.name IS NOT OLD.name BEGIN
  SELECT RAISE(ABORT, 'a draft name is at most 4096 characters')
    WHERE length(inkling_fold(NEW.name)) > 4096;
  DELETE FROM name_gram WHERE draft_id = OLD.id AND gram IN
    (SELECT substr(OLD.name_folded || char(1, 1), i, 3) FROM search_position WHERE i <= length(OLD.name_folded));
  UPDATE draft SET name_folded = inkling_fold(NEW.name) WHERE id = NEW.id;
  INSERT OR IGNORE INTO name_gram(gram, draft_id)
    SELECT substr(d.name_folded || char(1, 1), p.i, 3), d.id
    FROM draft d JOIN search_position p ON p.i <= length(d.name_folded) WHERE d.id = NEW.id;
END;

-- (from 0003_search.sql)
CREATE TRIGGER draft_search_delete AFTER DELETE ON draft BEGIN
  DELETE FROM name_gram WHERE draft_id = OLD.id AND gram IN
    (SELECT substr(OLD.name_folded || char(1, 1), i, 3) FROM search_position WHERE i <= length(OLD.name_folded));
END;

-- (from 0011_newest_drawing_rule_once.sql)
-- The newest version changed (an import, or any writer of latest_version_id).
CREATE TRIGGER draft_newest_drawing AFTER UPDATE OF latest_version_id ON draft
WHEN NEW.latest_version_id IS NOT OLD.latest_version_id BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) VALUES (NEW.id);
END;

-- (from 0011_newest_drawing_rule_once.sql)
CREATE TRIGGER draft_newest_drawing_insert AFTER INSERT ON draft WHEN NEW.latest_version_id IS NOT NULL BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) VALUES (NEW.id);
END;

-- (from 0012_trash_and_reverts.sql)
-- Newest-first walks of live drafts: (latest, first, id) in key order, then what the walk's
-- terms read without the table (0008).
CREATE INDEX draft_by_latest ON draft(latest_saved_ms, first_saved_ms, id, version_count, name_folded, latest_strokes,
  latest_inks, first_imported_ms, latest_imported_ms) WHERE deleted_ms IS NULL;

-- (from 0012_trash_and_reverts.sql)
-- The period plan's ranges, one per span class (0006), of live drafts.
CREATE INDEX draft_by_span ON draft(span_class, latest_saved_ms, first_saved_ms) WHERE deleted_ms IS NULL;

-- (from 0012_trash_and_reverts.sql)
-- Live drafts with a version imported before their first save (0008's `imported:` periods).
CREATE INDEX draft_by_early_import ON draft(latest_saved_ms, first_saved_ms, id)
  WHERE first_imported_ms < first_saved_ms AND deleted_ms IS NULL;

-- (from 0012_trash_and_reverts.sql)
-- The trash, newest deletion last; `purge --older-than` reads a prefix of it.
CREATE INDEX draft_in_trash ON draft(deleted_ms) WHERE deleted_ms IS NOT NULL;

-- (from 0019_organising.sql)
-- `stars:>=4`, `list --starred` and the sort by stars: live starred drafts, most stars first.
CREATE INDEX draft_by_stars ON draft(stars, latest_saved_ms, id) WHERE stars IS NOT NULL AND deleted_ms IS NULL;

-- MARK: - blob

-- (from 0001_archive.sql)
-- Content-addressed drawing bytes (the decoded drawingData), stored compactly.
CREATE TABLE blob (
  id INTEGER PRIMARY KEY,
  sha256 BLOB NOT NULL UNIQUE CHECK (length(sha256) = 32),
  size INTEGER NOT NULL,                 -- decoded length in bytes
  -- 0 = stored as is, 1 = zstd frame, 2 = zstd frame using the base blob as prefix.
  encoding INTEGER NOT NULL CHECK (encoding IN (0, 1, 2)),
  base_id INTEGER REFERENCES blob(id),
  depth INTEGER NOT NULL DEFAULT 0,      -- number of deltas between this blob and a full one
  data BLOB NOT NULL,
  -- (added by 0007_point_columns.sql)
  layout INTEGER NOT NULL DEFAULT 0 CHECK (layout IN (0, 1)),
  -- (added by 0017_point_streams.sql)
  streams INTEGER NOT NULL DEFAULT 0 CHECK (streams IN (0, 1) AND (streams = 0 OR layout = 1)),
  CHECK ((encoding = 2) = (base_id IS NOT NULL)),
  CHECK (base_id IS NULL OR base_id <> id)
);

-- (from 0001_archive.sql)
CREATE INDEX blob_by_base ON blob(base_id) WHERE base_id IS NOT NULL;

-- MARK: - envelope

-- (from 0001_archive.sql)
-- What of a file is not the drawing: the JSON with the drawingData string's content cut
-- out. Many versions share one (same colour, same layout), so they are stored once.
CREATE TABLE envelope (
  id INTEGER PRIMARY KEY,
  sha256 BLOB NOT NULL UNIQUE,           -- of (base64_style, drawing_offset, text)
  text BLOB NOT NULL,                    -- the file's bytes without the base64 content
  drawing_offset INTEGER NOT NULL,       -- where the base64 content goes back in
  -- How the base64 text is rebuilt from the drawing bytes: 0 = standard base64 with '/'
  -- written '\/' (JSONEncoder), 1 = standard base64 with plain '/', 2 = the original
  -- string content kept verbatim in base64_text (any other spelling).
  base64_style INTEGER NOT NULL CHECK (base64_style IN (0, 1, 2)),
  base64_text BLOB,
  CHECK ((base64_style = 2) = (base64_text IS NOT NULL))
);

-- MARK: - version

-- (from 0001_archive.sql)
CREATE TABLE version (
  id INTEGER PRIMARY KEY,
  draft_id INTEGER NOT NULL REFERENCES draft(id),
  saved_ms INTEGER NOT NULL,             -- the save time: from the file name, else its mtime
  -- Where saved_ms came from: 'stamp' (the file name), or 'mtime' (no usable stamp).
  saved_source TEXT NOT NULL CHECK (saved_source IN ('stamp', 'mtime')),
  imported_ms INTEGER NOT NULL,
  file_name TEXT NOT NULL,               -- the original file name, restored as is
  file_sha256 BLOB NOT NULL CHECK (length(file_sha256) = 32),
  file_size INTEGER NOT NULL,
  file_mtime_ns INTEGER NOT NULL,
  blob_id INTEGER NOT NULL REFERENCES blob(id),
  envelope_id INTEGER NOT NULL REFERENCES envelope(id),
  -- The background colour as parsed; the exact text is kept in the envelope.
  background_r REAL NOT NULL,
  background_g REAL NOT NULL,
  background_b REAL NOT NULL,
  background_a REAL NOT NULL,
  -- (added by 0012_trash_and_reverts.sql)
  -- The version whose file a revert repeats (invariant 2); NULL for an imported file.
  reverts_version_id INTEGER REFERENCES version(id),
  UNIQUE (draft_id, saved_ms, file_sha256)
);

-- (from 0001_archive.sql)
CREATE INDEX version_by_draft ON version(draft_id, saved_ms);

-- (from 0001_archive.sql)
CREATE INDEX version_by_blob ON version(blob_id);

-- (from 0001_archive.sql)
CREATE INDEX version_by_envelope ON version(envelope_id);

-- (from 0003_search.sql)
-- Covering indexes from a date range to drafts without reading version rows. The first
-- replaces version_by_saved(saved_ms), which it contains.
CREATE INDEX version_by_saved_draft ON version(saved_ms, draft_id);

-- (from 0003_search.sql)
CREATE INDEX version_by_imported_draft ON version(imported_ms, draft_id);

-- (from 0008_newest_drawing_on_draft.sql)
CREATE TRIGGER version_search_delete AFTER DELETE ON version BEGIN
  UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE draft_id = OLD.draft_id),
    first_imported_ms = (SELECT min(imported_ms) FROM version WHERE draft_id = OLD.draft_id),
    latest_imported_ms = (SELECT max(imported_ms) FROM version WHERE draft_id = OLD.draft_id)
    WHERE id = OLD.draft_id;
END;

-- (from 0008_newest_drawing_on_draft.sql)
CREATE TRIGGER version_search_move AFTER UPDATE OF saved_ms, imported_ms, draft_id ON version BEGIN
  UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE draft_id = draft.id),
    first_imported_ms = (SELECT min(imported_ms) FROM version WHERE draft_id = draft.id),
    latest_imported_ms = (SELECT max(imported_ms) FROM version WHERE draft_id = draft.id)
    WHERE id IN (OLD.draft_id, NEW.draft_id);
END;

-- (from 0011_newest_drawing_rule_once.sql)
-- A version pointed at another blob.
CREATE TRIGGER version_newest_blob AFTER UPDATE OF blob_id ON version BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT id FROM draft WHERE latest_version_id = NEW.id;
END;

-- (from 0012_trash_and_reverts.sql)
-- The foreign key's child index: deleting a version (purge, merge) looks up the versions
-- that revert to it, which would otherwise read the whole table per deleted row.
CREATE INDEX version_by_reverted ON version(reverts_version_id) WHERE reverts_version_id IS NOT NULL;

-- MARK: - import_run

-- (from 0001_archive.sql)
CREATE TABLE import_run (
  id INTEGER PRIMARY KEY,
  started_ms INTEGER NOT NULL,
  finished_ms INTEGER,
  versions_imported INTEGER NOT NULL DEFAULT 0,
  drafts_created INTEGER NOT NULL DEFAULT 0,
  already_archived INTEGER NOT NULL DEFAULT 0,
  ignored INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  bytes_read INTEGER NOT NULL DEFAULT 0
);

-- MARK: - import_problem

-- (from 0001_archive.sql)
CREATE TABLE import_problem (
  run_id INTEGER NOT NULL REFERENCES import_run(id),
  path TEXT NOT NULL,
  reason TEXT NOT NULL
);

-- (from 0001_archive.sql)
CREATE INDEX import_problem_by_run ON import_problem(run_id);

-- MARK: - drawing

-- (from 0002_drawing_index.sql)
CREATE TABLE drawing (
  blob_id INTEGER PRIMARY KEY REFERENCES blob(id),
  -- 0 = decoded; 1 = not a PencilKit drawing we can read (legacy or unknown format,
  -- archived as opaque bytes); 2 = damaged (a PencilKit container that does not decode).
  status INTEGER NOT NULL CHECK (status IN (0, 1, 2)),
  problem TEXT,                          -- why, when status is not 0
  format_version INTEGER,
  stroke_count INTEGER NOT NULL DEFAULT 0,   -- every stroke, hidden ones too
  hidden_count INTEGER NOT NULL DEFAULT 0,
  point_count INTEGER NOT NULL DEFAULT 0,
  -- The union of the visible strokes' render bounds; NULL when nothing is visible.
  bounds_x REAL, bounds_y REAL, bounds_width REAL, bounds_height REAL,
  -- The time span of the strokes' points, seconds since 1970.
  first_point_s REAL, last_point_s REAL,
  max_ink_version INTEGER,
  -- Equal for drawings with the same visible content, whatever their bytes.
  content_hash BLOB,
  -- The drawing's strokes in order, as runs of consecutive stroke ids: varint pairs
  -- (first id minus the previous run's end, run length); see DrawingIndexRecords.
  strokes BLOB NOT NULL DEFAULT x''
);

-- (from 0002_drawing_index.sql)
CREATE INDEX drawing_by_strokes ON drawing(stroke_count - hidden_count);

-- (from 0011_newest_drawing_rule_once.sql)
-- A drawing indexed (at import, after its ink rows), reindexed or dropped.
CREATE TRIGGER drawing_newest_insert AFTER INSERT ON drawing
WHEN EXISTS (SELECT 1 FROM newest_version_blob WHERE blob_id = NEW.blob_id) BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = NEW.blob_id;
END;

-- (from 0011_newest_drawing_rule_once.sql)
CREATE TRIGGER drawing_newest_update AFTER UPDATE OF blob_id, stroke_count, hidden_count ON drawing BEGIN
  INSERT INTO refresh_newest_drawing(draft_id)
    SELECT draft_id FROM newest_version_blob WHERE blob_id IN (OLD.blob_id, NEW.blob_id);
END;

-- (from 0011_newest_drawing_rule_once.sql)
CREATE TRIGGER drawing_newest_delete AFTER DELETE ON drawing BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = OLD.blob_id;
END;

-- MARK: - search_position

-- (from 0003_search.sql)
-- 1, 2, …, 4096: the positions of a name's grams (CTEs are not allowed in triggers).
CREATE TABLE search_position (i INTEGER PRIMARY KEY);
-- 4096 rows, inserted by 0003_search.sql.

-- MARK: - name_gram

-- (from 0003_search.sql)
-- Three characters of a padded folded name → the drafts holding them.
CREATE TABLE name_gram (
  gram TEXT NOT NULL,
  draft_id INTEGER NOT NULL,
  PRIMARY KEY (gram, draft_id)
) WITHOUT ROWID;

-- MARK: - thumbnail

-- (from 0004_thumbnails.sql)
CREATE TABLE thumbnail (
  id INTEGER PRIMARY KEY,
  key BLOB NOT NULL UNIQUE CHECK (length(key) = 32),
  content_hash BLOB,
  background_r REAL NOT NULL,
  background_g REAL NOT NULL,
  background_b REAL NOT NULL,
  background_a REAL NOT NULL,
  pixel_size INTEGER NOT NULL CHECK (pixel_size > 0),
  renderer_version INTEGER NOT NULL,
  png BLOB NOT NULL,
  byte_size INTEGER NOT NULL,            -- length(png), kept for `stats` without reading blobs
  created_ms INTEGER NOT NULL
);

-- MARK: - ink

-- (from 0005_lean_drawing_index.sql)
CREATE TABLE ink (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,                    -- short ink name: pen, pencil, marker, …
  color_r REAL NOT NULL, color_g REAL NOT NULL, color_b REAL NOT NULL, color_a REAL NOT NULL,
  UNIQUE (name, color_r, color_g, color_b, color_a)
);

-- MARK: - stroke

-- (from 0005_lean_drawing_index.sql)
CREATE TABLE stroke (
  id INTEGER PRIMARY KEY,
  ink_id INTEGER NOT NULL REFERENCES ink(id),
  hidden INTEGER NOT NULL,
  point_count INTEGER NOT NULL,
  -- Render bounds, rounded out to whole points (stored as small integers by SQLite).
  bounds_x REAL, bounds_y REAL, bounds_width REAL, bounds_height REAL,
  created_s REAL,                        -- the path's creation date, seconds since 1970
  uuid BLOB,                             -- the stroke's UUID: `diff` tells a hidden stroke by it
  -- Two XXH64 of the stroke's encoded message (StrokeFingerprint): the same stroke in two saves
  -- of a draft is the same row; hiding or erasing it makes a new one.
  fingerprint BLOB NOT NULL
);

-- MARK: - drawing_ink

-- (from 0005_lean_drawing_index.sql)
CREATE TABLE drawing_ink (
  blob_id INTEGER NOT NULL REFERENCES blob(id),
  ink TEXT NOT NULL,
  stroke_count INTEGER NOT NULL,
  PRIMARY KEY (blob_id, ink)
) WITHOUT ROWID;

-- (from 0005_lean_drawing_index.sql)
CREATE INDEX drawing_ink_by_ink ON drawing_ink(ink);

-- (from 0011_newest_drawing_rule_once.sql)
-- A drawing's ink rows written or dropped: they count only once the drawing has its row.
CREATE TRIGGER drawing_ink_newest_insert AFTER INSERT ON drawing_ink
WHEN EXISTS (SELECT 1 FROM drawing WHERE blob_id = NEW.blob_id) BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = NEW.blob_id;
END;

-- (from 0011_newest_drawing_rule_once.sql)
CREATE TRIGGER drawing_ink_newest_change AFTER UPDATE OF blob_id, ink ON drawing_ink BEGIN
  INSERT INTO refresh_newest_drawing(draft_id)
    SELECT draft_id FROM newest_version_blob WHERE blob_id IN (OLD.blob_id, NEW.blob_id);
END;

-- (from 0011_newest_drawing_rule_once.sql)
CREATE TRIGGER drawing_ink_newest_delete AFTER DELETE ON drawing_ink
WHEN EXISTS (SELECT 1 FROM drawing WHERE blob_id = OLD.blob_id) BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = OLD.blob_id;
END;

-- MARK: - source

-- (from 0013_sources.sql)
CREATE TABLE source (
  id INTEGER PRIMARY KEY,
  label TEXT NOT NULL UNIQUE,
  label_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(label)) STORED
);

-- MARK: - version_source

-- (from 0013_sources.sql)
CREATE TABLE version_source (
  version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES source(id),
  -- The file's path when it was imported (absolute), or as the merged archive recorded it
  -- (the merged archive's own path for versions it had no source for).
  path TEXT NOT NULL,
  run_id INTEGER NOT NULL REFERENCES import_run(id),
  PRIMARY KEY (version_id, source_id)
) WITHOUT ROWID;

-- (from 0013_sources.sql)
-- `source:TEXT` and `list --source`: the versions, hence drafts, of the matching sources.
CREATE INDEX version_source_by_source ON version_source(source_id, version_id);

-- (from 0020_known_files.sql)
CREATE INDEX version_source_by_path ON version_source(path);

-- MARK: - damaged_version

-- (from 0018_damaged_versions.sql)
CREATE TABLE damaged_version (
  version_id INTEGER PRIMARY KEY REFERENCES version(id) ON DELETE CASCADE,
  found_ms INTEGER NOT NULL
);

-- MARK: - tag

-- (from 0019_organising.sql)
CREATE TABLE tag (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  name_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(name)) STORED
);

-- (from 0019_organising.sql)
-- `tag:X` is one entry; `tag:client:` a range of entries (invariant 1).
CREATE UNIQUE INDEX tag_by_folded ON tag(name_folded);

-- MARK: - draft_tag

-- (from 0019_organising.sql)
CREATE TABLE draft_tag (
  draft_id INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tag(id),
  PRIMARY KEY (draft_id, tag_id)
) WITHOUT ROWID;

-- (from 0019_organising.sql)
-- The drafts of a tag (`tag:X` as a search's driver, `tags` counts); the primary key answers
-- "the tags of this draft" and `tag:X` tested on one draft.
CREATE INDEX draft_tag_by_tag ON draft_tag(tag_id, draft_id);

-- MARK: - note

-- (from 0019_organising.sql)
CREATE TABLE note (
  id INTEGER PRIMARY KEY,
  draft_id INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
  version_id INTEGER REFERENCES version(id) ON DELETE CASCADE,
  text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 65536),
  -- What `note:TEXT` matches, folded as names are.
  text_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(text)) STORED,
  written_ms INTEGER NOT NULL
);

-- (from 0019_organising.sql)
-- A draft's notes and its versions' (`show`, `history`; `note:` tested on one draft).
CREATE INDEX note_by_draft ON note(draft_id, version_id);

-- (from 0019_organising.sql)
CREATE INDEX note_by_version ON note(version_id) WHERE version_id IS NOT NULL;

-- MARK: - version_label

-- (from 0019_organising.sql)
CREATE TABLE version_label (
  id INTEGER PRIMARY KEY,
  version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
  draft_id INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  name_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(name)) STORED,
  CHECK (name GLOB '*[^0-9]*')
);

-- (from 0019_organising.sql)
-- Invariant 5: one version per name in a draft; `--version NAME` is one entry.
CREATE UNIQUE INDEX version_label_by_draft ON version_label(draft_id, name_folded);

-- (from 0019_organising.sql)
-- The labels of a version (history, diff, time-lapse marks), and rows going with it.
CREATE INDEX version_label_by_version ON version_label(version_id);

-- (from 0019_organising.sql)
-- `label:NAME`: the drafts with a version so named.
CREATE INDEX version_label_by_name ON version_label(name_folded, draft_id);

-- MARK: - saved_search

-- (from 0019_organising.sql)
CREATE TABLE saved_search (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  name_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(name)) STORED,
  query TEXT NOT NULL,
  saved_ms INTEGER NOT NULL
);

-- (from 0019_organising.sql)
CREATE UNIQUE INDEX saved_search_by_name ON saved_search(name_folded);

-- MARK: - Views

-- (from 0011_newest_drawing_rule_once.sql)
CREATE VIEW version_drawing_summary(version_id, visible_strokes, ink_bits) AS
  SELECT v.id, dr.stroke_count - dr.hidden_count,
    CASE WHEN dr.blob_id IS NULL THEN 0 ELSE coalesce((SELECT sum(DISTINCT inkling_ink_bit(di.ink))
      FROM drawing_ink AS di WHERE di.blob_id = v.blob_id), 0) END
  FROM version AS v LEFT JOIN drawing AS dr ON dr.blob_id = v.blob_id;

-- (from 0011_newest_drawing_rule_once.sql)
-- The draft whose newest version holds each blob (version_by_blob, then draft_by_latest_version).
CREATE VIEW newest_version_blob(draft_id, blob_id) AS
  SELECT draft.id, version.blob_id FROM draft JOIN version ON version.id = draft.latest_version_id;

-- (from 0011_newest_drawing_rule_once.sql)
-- Inserting a draft's id here sets its latest_strokes and latest_inks (a stored procedure, as
-- SQLite spells one). The sum of DISTINCT bits in version_drawing_summary is their OR:
-- drawing_ink has one row per (blob, name), so only the bit of "another ink" can repeat.
CREATE VIEW refresh_newest_drawing(draft_id) AS SELECT id FROM draft WHERE 0;

-- (from 0011_newest_drawing_rule_once.sql)
CREATE TRIGGER refresh_newest_drawing_instead INSTEAD OF INSERT ON refresh_newest_drawing BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT visible_strokes FROM version_drawing_summary WHERE version_id = draft.latest_version_id),
    latest_inks = coalesce((SELECT ink_bits FROM version_drawing_summary WHERE version_id = draft.latest_version_id), 0)
  WHERE id = NEW.draft_id;
END;
