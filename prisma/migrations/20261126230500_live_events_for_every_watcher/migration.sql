-- A live event is for whoever may watch its channel: private press goes on its readers' own channels (user:<id>).
-- Events logged with an audience by earlier versions (private press on a game's channel) are deleted, not replayed
-- to every watcher; clients that missed them read the press again, as after any gap older than the replay window.
DELETE FROM "live_events" WHERE "audience" IS NOT NULL;

ALTER TABLE "live_events" DROP COLUMN "audience";
