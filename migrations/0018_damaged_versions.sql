-- 0018: the versions `check --full` found damaged (their file no longer rebuilds from what is
-- stored), so that importing one of their files again repairs them.
--
-- An import knows a file already archived by its hash alone and never reads the stored
-- drawing: reading every one again would cost a re-import what `check --full` costs. This
-- table is what it consults instead; it is empty in a healthy archive.
--
-- Invariants:
--  1. A row names a version that `check --full` could not rebuild when it last ran on the
--     archive while it could be written (each full check writes the table again); an import
--     that repairs the version removes its row. A row whose version rebuilds again (repaired
--     through another version's file) costs one verification and goes.
--  2. Rows go with their version (ON DELETE CASCADE).

CREATE TABLE damaged_version (
  version_id INTEGER PRIMARY KEY REFERENCES version(id) ON DELETE CASCADE,
  found_ms INTEGER NOT NULL
);
