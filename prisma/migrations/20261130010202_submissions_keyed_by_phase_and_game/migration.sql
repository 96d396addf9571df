-- A submission's game and phase are checked by one key, (phase_id, game_id) against the phase's (id, game_id): the
-- game it names is always its phase's game (two separate keys did not ensure that), and an insert runs one
-- foreign-key check instead of two. The index on order_submissions.game_id, which only the game's own key used
-- (no query reads submissions by game), goes with it: one index entry less a submission. Deleting a game still
-- deletes its submissions, through its phases. phases.id is its key, so (id, game_id) is unique already.

-- DropForeignKey
ALTER TABLE "order_submissions" DROP CONSTRAINT "order_submissions_game_id_fkey";

-- DropForeignKey
ALTER TABLE "order_submissions" DROP CONSTRAINT "order_submissions_phase_id_fkey";

-- DropIndex
DROP INDEX "order_submissions_game_id_idx";

-- CreateIndex
CREATE UNIQUE INDEX "phases_id_game_id_key" ON "phases"("id", "game_id");

-- AddForeignKey
ALTER TABLE "order_submissions" ADD CONSTRAINT "order_submissions_phase_id_game_id_fkey" FOREIGN KEY ("phase_id", "game_id") REFERENCES "phases"("id", "game_id") ON DELETE CASCADE ON UPDATE CASCADE;
