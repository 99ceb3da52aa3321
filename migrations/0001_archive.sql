-- 0001: the archive's core: drafts, their versions, the drawing blobs and envelopes that
-- rebuild every imported file byte for byte, and a log of import runs.
--
-- Invariants (checked by `inkling-archive check`):
--  1. Every version rebuilds its source file exactly: envelope text with the drawing's
--     base64 spliced in at envelope.drawing_offset gives bytes whose SHA-256 is
--     version.file_sha256 (verified before each commit, and by `check --full`).
--  2. blob.sha256 is the SHA-256 of the blob's decoded bytes, whatever its encoding.
--  3. A delta's base is another blob (never itself), chains are at most blob.depth long,
--     and depth = base.depth + 1; full blobs have depth 0 and no base.
--  4. One row per (draft, saved date, file content): importing a file again is a no-op.

CREATE TABLE draft (
  id INTEGER PRIMARY KEY,
  -- The name as people typed it (NFC), the identity of a draft.
  name TEXT NOT NULL UNIQUE,
  created_ms INTEGER NOT NULL,           -- when the draft first entered the archive
  -- Denormalised from version for `list` at scale; maintained by the import transaction.
  version_count INTEGER NOT NULL DEFAULT 0,
  latest_saved_ms INTEGER,
  latest_version_id INTEGER
);
CREATE INDEX draft_by_latest ON draft(latest_saved_ms);

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
  CHECK ((encoding = 2) = (base_id IS NOT NULL)),
  CHECK (base_id IS NULL OR base_id <> id)
);
CREATE INDEX blob_by_base ON blob(base_id) WHERE base_id IS NOT NULL;

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
  UNIQUE (draft_id, saved_ms, file_sha256)
);
CREATE INDEX version_by_draft ON version(draft_id, saved_ms);
CREATE INDEX version_by_blob ON version(blob_id);
CREATE INDEX version_by_envelope ON version(envelope_id);
CREATE INDEX version_by_saved ON version(saved_ms);

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

CREATE TABLE import_problem (
  run_id INTEGER NOT NULL REFERENCES import_run(id),
  path TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX import_problem_by_run ON import_problem(run_id);
