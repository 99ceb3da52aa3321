-- 0011: what `draft` keeps of its newest drawing (0008, 0009) is written once (the
-- rule was spelled out in seven trigger bodies, the ink bits in a table of 0009, in the search
-- compiler and in `check`). Invariants 1 and 2 of 0008 (2 as 0009 restates it) and 3 are
-- unchanged, and so is every value an archive holds; only their definition moves:
--
--  - version_drawing_summary says, for every version, what its drawing gives `draft`: the
--    visible strokes of its `drawing` row (NULL without one) and the OR of its ink bits (0
--    without a `drawing` row). `inkling-archive check` compares every draft with it.
--  - An ink's bit is inkling_ink_bit(name), a function every archive connection registers, as
--    it registers inkling_fold (InkBits.swift: the one table of bits, which the search
--    compiler binds too). The ink_bit table of 0009 goes.
--  - One INSTEAD OF trigger on the view refresh_newest_drawing sets both columns, from
--    version_drawing_summary, for the drafts inserted into the view; each trigger below only
--    says which drafts a write may have changed, through newest_version_blob.
--
-- The WHEN tests of 0009 stay: an import indexes mostly drawings that are not a draft's newest,
-- and writes a drawing's ink rows before its drawing row; those writes settle it with two index
-- lookups and insert nothing.

CREATE VIEW version_drawing_summary(version_id, visible_strokes, ink_bits) AS
  SELECT v.id, dr.stroke_count - dr.hidden_count,
    CASE WHEN dr.blob_id IS NULL THEN 0 ELSE coalesce((SELECT sum(DISTINCT inkling_ink_bit(di.ink))
      FROM drawing_ink AS di WHERE di.blob_id = v.blob_id), 0) END
  FROM version AS v LEFT JOIN drawing AS dr ON dr.blob_id = v.blob_id;

-- The draft whose newest version holds each blob (version_by_blob, then draft_by_latest_version).
CREATE VIEW newest_version_blob(draft_id, blob_id) AS
  SELECT draft.id, version.blob_id FROM draft JOIN version ON version.id = draft.latest_version_id;

-- Inserting a draft's id here sets its latest_strokes and latest_inks (a stored procedure, as
-- SQLite spells one). The sum of DISTINCT bits in version_drawing_summary is their OR:
-- drawing_ink has one row per (blob, name), so only the bit of "another ink" can repeat.
CREATE VIEW refresh_newest_drawing(draft_id) AS SELECT id FROM draft WHERE 0;

CREATE TRIGGER refresh_newest_drawing_instead INSTEAD OF INSERT ON refresh_newest_drawing BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT visible_strokes FROM version_drawing_summary WHERE version_id = draft.latest_version_id),
    latest_inks = coalesce((SELECT ink_bits FROM version_drawing_summary WHERE version_id = draft.latest_version_id), 0)
  WHERE id = NEW.draft_id;
END;

-- MARK: - Which drafts (the triggers of 0009, same names, same events)

-- The newest version changed (an import, or any writer of latest_version_id).
DROP TRIGGER draft_newest_drawing;
CREATE TRIGGER draft_newest_drawing AFTER UPDATE OF latest_version_id ON draft
WHEN NEW.latest_version_id IS NOT OLD.latest_version_id BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) VALUES (NEW.id);
END;

DROP TRIGGER draft_newest_drawing_insert;
CREATE TRIGGER draft_newest_drawing_insert AFTER INSERT ON draft WHEN NEW.latest_version_id IS NOT NULL BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) VALUES (NEW.id);
END;

-- A version pointed at another blob.
DROP TRIGGER version_newest_blob;
CREATE TRIGGER version_newest_blob AFTER UPDATE OF blob_id ON version BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT id FROM draft WHERE latest_version_id = NEW.id;
END;

-- A drawing indexed (at import, after its ink rows), reindexed or dropped.
DROP TRIGGER drawing_newest_insert;
CREATE TRIGGER drawing_newest_insert AFTER INSERT ON drawing
WHEN EXISTS (SELECT 1 FROM newest_version_blob WHERE blob_id = NEW.blob_id) BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = NEW.blob_id;
END;

DROP TRIGGER drawing_newest_update;
CREATE TRIGGER drawing_newest_update AFTER UPDATE OF blob_id, stroke_count, hidden_count ON drawing BEGIN
  INSERT INTO refresh_newest_drawing(draft_id)
    SELECT draft_id FROM newest_version_blob WHERE blob_id IN (OLD.blob_id, NEW.blob_id);
END;

DROP TRIGGER drawing_newest_delete;
CREATE TRIGGER drawing_newest_delete AFTER DELETE ON drawing BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = OLD.blob_id;
END;

-- A drawing's ink rows written or dropped: they count only once the drawing has its row.
DROP TRIGGER drawing_ink_newest_insert;
CREATE TRIGGER drawing_ink_newest_insert AFTER INSERT ON drawing_ink
WHEN EXISTS (SELECT 1 FROM drawing WHERE blob_id = NEW.blob_id) BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = NEW.blob_id;
END;

DROP TRIGGER drawing_ink_newest_change;
CREATE TRIGGER drawing_ink_newest_change AFTER UPDATE OF blob_id, ink ON drawing_ink BEGIN
  INSERT INTO refresh_newest_drawing(draft_id)
    SELECT draft_id FROM newest_version_blob WHERE blob_id IN (OLD.blob_id, NEW.blob_id);
END;

DROP TRIGGER drawing_ink_newest_delete;
CREATE TRIGGER drawing_ink_newest_delete AFTER DELETE ON drawing_ink
WHEN EXISTS (SELECT 1 FROM drawing WHERE blob_id = OLD.blob_id) BEGIN
  INSERT INTO refresh_newest_drawing(draft_id) SELECT draft_id FROM newest_version_blob WHERE blob_id = OLD.blob_id;
END;

DROP TABLE ink_bit;
