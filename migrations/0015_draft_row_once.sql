-- 0015: a version's insert writes its draft's row once, not twice, so that the one writing
-- thread of imports and merges rewrites each draft row and its indexes once. Under 0008 the
-- trigger version_search_insert updated the draft's first save and import times after each
-- version's INSERT, and the writer then updated the same row again for its count and newest
-- version: two rewrites of the row and of every index of `draft` holding those columns, per
-- version. The writer now sets all of them in one UPDATE (VersionRecords.insert, or
-- VersionRecords.add for the versions of one draft written together), so the trigger goes.
--
-- No rule changes: 0001's draft.version_count, latest_saved_ms, latest_version_id and 0008 (3)'s
-- first_saved_ms, first_imported_ms, latest_imported_ms still follow the versions at every
-- commit, kept by the one writer of version rows (VersionRecords). Deleting and moving
-- versions keep their triggers (version_search_delete, version_search_move), which recompute
-- from the rows.

DROP TRIGGER version_search_insert;
