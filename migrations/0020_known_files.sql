-- 0020: the versions each path delivered, so that an import knows a file it has archived
-- without reading it.
--
-- A file whose path, size and modification time are those recorded for a version is taken
-- for that version, as git's index and restic take an unchanged file (a file rewritten with
-- the same size and modification time is the risk they accept too; `import --verify` reads
-- every file). Without an index the look-up would scan `version_source`, or the import would
-- hold every path it knows in memory; with it each file costs one indexed probe.
--
-- Owns no invariant: an index over 0013's rows (the path of each source's first delivery).

CREATE INDEX version_source_by_path ON version_source(path);
