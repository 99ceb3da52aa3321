-- 0002: what is inside each drawing, decoded once at import and kept for `show`, `diff`,
-- `history` and searches on strokes and inks. Archives made before this have no rows
-- here; `inkling-archive reindex` fills them in.
--
-- Per-stroke rows are shared between every drawing that holds the same stroke (a save
-- repeats all earlier strokes byte for byte), so the index grows with distinct strokes,
-- not with versions × strokes: a drawing refers to its strokes through a packed list of
-- id runs, and strokes added by later saves get consecutive ids, so the runs stay few.

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
CREATE INDEX drawing_by_content ON drawing(content_hash);
CREATE INDEX drawing_by_strokes ON drawing(stroke_count - hidden_count);

CREATE TABLE stroke (
  id INTEGER PRIMARY KEY,
  -- SHA-256 (first 16 bytes) of the stroke's encoded message: the same stroke in two
  -- saves is the same row; hiding or erasing it makes a new one.
  fingerprint BLOB NOT NULL UNIQUE,
  hidden INTEGER NOT NULL,
  ink TEXT NOT NULL,                     -- short ink name: pen, pencil, marker, …
  color_r REAL NOT NULL, color_g REAL NOT NULL, color_b REAL NOT NULL, color_a REAL NOT NULL,
  bounds_x REAL, bounds_y REAL, bounds_width REAL, bounds_height REAL,
  point_count INTEGER NOT NULL,
  created_s REAL                         -- the path's creation date, seconds since 1970
);

-- The inks each drawing uses (visible strokes only), for `ink:` searches.
CREATE TABLE drawing_ink (
  blob_id INTEGER NOT NULL REFERENCES blob(id),
  ink TEXT NOT NULL,
  color_r REAL NOT NULL, color_g REAL NOT NULL, color_b REAL NOT NULL, color_a REAL NOT NULL,
  stroke_count INTEGER NOT NULL,
  PRIMARY KEY (blob_id, ink, color_r, color_g, color_b, color_a)
) WITHOUT ROWID;
CREATE INDEX drawing_ink_by_ink ON drawing_ink(ink, blob_id);
