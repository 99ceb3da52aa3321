-- 0005: a leaner drawing index, so that indexing adds little to the archive's size. Nothing
-- that `show`, `diff`, `history` or the `strokes:` and `ink:` searches read is lost; what goes
-- is repetition:
--
--  - A stroke row named its ink by text and its colour by four REALs (about 40 bytes),
--    though an archive holds a few dozen (ink, colour) pairs: it now names a row of `ink`.
--  - The 16-byte fingerprint had a UNIQUE index, whose inserts land at random places in
--    a B-tree (a hash has no order): that cost the import more than any other write of
--    the index (docs/decisions.md, "The drawing index costs at most 15 % of an import").
--    The importer finds a draft's earlier strokes through the stroke lists of the draft's
--    versions instead (DrawingIndexWriter), so the fingerprint stays in the row, unindexed. A stroke pasted into another draft gets a row of its own there.
--  - `drawing_ink` kept one row per (ink, colour) with the colour, in a rowid table and an
--    index; only `ink:NAME` searches read it, by name. It now keeps one row per ink name,
--    WITHOUT ROWID, keyed by (blob_id, ink), plus the index by name.
--
-- Stroke ids do not change, so the drawings' packed stroke lists stay valid as they are.

CREATE TABLE ink (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,                    -- short ink name: pen, pencil, marker, …
  color_r REAL NOT NULL, color_g REAL NOT NULL, color_b REAL NOT NULL, color_a REAL NOT NULL,
  UNIQUE (name, color_r, color_g, color_b, color_a)
);
INSERT INTO ink(name, color_r, color_g, color_b, color_a)
  SELECT DISTINCT ink, color_r, color_g, color_b, color_a FROM stroke ORDER BY 1, 2, 3, 4, 5;

ALTER TABLE stroke RENAME TO stroke_0002;
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
INSERT INTO stroke(id, ink_id, hidden, point_count, bounds_x, bounds_y, bounds_width, bounds_height, created_s, uuid,
    fingerprint)
  SELECT s.id, i.id, s.hidden, s.point_count, s.bounds_x, s.bounds_y, s.bounds_width, s.bounds_height, s.created_s,
    s.uuid, s.fingerprint
  FROM stroke_0002 AS s JOIN ink AS i ON i.name = s.ink AND i.color_r = s.color_r AND i.color_g = s.color_g
    AND i.color_b = s.color_b AND i.color_a = s.color_a
  ORDER BY s.id;
DROP TABLE stroke_0002;

-- The ink names each drawing's visible strokes use, for `ink:` searches.
ALTER TABLE drawing_ink RENAME TO drawing_ink_0002;
DROP INDEX drawing_ink_by_ink;
CREATE TABLE drawing_ink (
  blob_id INTEGER NOT NULL REFERENCES blob(id),
  ink TEXT NOT NULL,
  stroke_count INTEGER NOT NULL,
  PRIMARY KEY (blob_id, ink)
) WITHOUT ROWID;
INSERT INTO drawing_ink(blob_id, ink, stroke_count)
  SELECT blob_id, ink, sum(stroke_count) FROM drawing_ink_0002 GROUP BY blob_id, ink ORDER BY blob_id, ink;
DROP TABLE drawing_ink_0002;
CREATE INDEX drawing_ink_by_ink ON drawing_ink(ink);
