-- 0007: drawings compressed in point columns (a draft's history must stay small).
--
-- blob.layout says what form of the drawing `data` compresses: 0 the bytes as written,
-- 1 `PointColumns.columnar(bytes)`, the same bytes with every point array rearranged as
-- columns of differences (about a third smaller under zstd). A delta's prefix is its base's
-- bytes in the delta's own layout. Rows stored before this migration keep layout 0 and read
-- as before; `gc --repack` re-encodes them.
--
-- A raw blob (encoding 0) is always stored in layout 0: BlobEncoder never rearranges bytes it
-- does not compress.

ALTER TABLE blob ADD COLUMN layout INTEGER NOT NULL DEFAULT 0 CHECK (layout IN (0, 1));
