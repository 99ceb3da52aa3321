-- 0017: drawings compressed as point streams (docs/decisions.md, "Drawings are stored as point
-- streams").
--
-- blob.streams = 1 says that `data` compresses `PointStreams.form(bytes)` (InklingFormats):
-- the drawing without its point arrays, then every point value gathered across the strokes,
-- column by column, as the residual codes of layout 1 (0007) in byte planes or a palette. It is
-- layout 1 gathered out of the drawing's structure; BlobLayout.pointStreams in the store. A
-- delta's prefix is its base in the delta's own form, as before. Rows stored before this
-- migration keep streams = 0 and read as before; `gc --repack` re-encodes them.
--
-- A column of its own rather than layout 2: the CHECK that 0007 put on `layout` cannot be
-- widened in place, and rebuilding `blob` would copy every stored drawing (and leave the
-- file that much larger until a VACUUM).

ALTER TABLE blob ADD COLUMN streams INTEGER NOT NULL DEFAULT 0 CHECK (streams IN (0, 1) AND (streams = 0 OR layout = 1));
