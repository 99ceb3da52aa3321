-- 0004: the thumbnail cache. A thumbnail is a pure function of what it shows, so a row is
-- keyed by exactly that, never by draft or version: versions (of any draft) with the same
-- visible drawing content and background share one row.
--
--   key = SHA-256 over ("inkling-thumbnail\0", content kind, content_hash, the background's
--         four IEEE-754 bit patterns, pixel size, renderer version); see ThumbnailCache.swift (InklingArchive/Images).
--
-- Invariants:
--  1. png is what the renderer of renderer_version drew for these inputs, PNG-encoded with
--     only a Software text chunk; per-version text (draft, version, saved date) is added when
--     a thumbnail is read, so that one row can serve every version that shares it.
--  2. A renderer change changes every key (Renderer.version is in it): old rows are never
--     found again and `gc` (ThumbnailCache.removeUnneeded) drops them; no manual step.
--  3. content_hash is drawing.content_hash of the drawings it shows, or NULL for the
--     placeholder shown for drawings that do not decode (drawing.status <> 0). A row is
--     needed while some version has that content (or an undecodable drawing) and that
--     background; `gc` drops the others. Nothing refers to this table: it is a cache, and
--     deleting any or all of its rows is always safe.

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
