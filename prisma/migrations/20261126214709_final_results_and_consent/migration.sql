-- CreateEnum
CREATE TYPE "gm_proposal_status" AS ENUM ('open', 'agreed', 'refused', 'withdrawn', 'lapsed');

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "final_at" TIMESTAMPTZ(3),
ADD COLUMN     "invited_game_master_id" UUID;

-- Games that ended before results had a time to become final published everything when they ended: final then.
UPDATE "games" SET "final_at" = "finished_at" WHERE "status" = 'finished';

-- CreateTable
CREATE TABLE "gm_proposals" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "proposed_by_id" UUID NOT NULL,
    "action" VARCHAR(40) NOT NULL,
    "request" JSONB NOT NULL DEFAULT '{}',
    "phase_index" INTEGER NOT NULL,
    "game_status" "game_status" NOT NULL,
    "needed" TEXT[],
    "agreed" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" "gm_proposal_status" NOT NULL DEFAULT 'open',
    "refused_by" VARCHAR(24),
    "note" VARCHAR(300),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "gm_proposals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "gm_proposals_game_id_created_at_idx" ON "gm_proposals"("game_id", "created_at");

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_invited_game_master_id_fkey" FOREIGN KEY ("invited_game_master_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gm_proposals" ADD CONSTRAINT "gm_proposals_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gm_proposals" ADD CONSTRAINT "gm_proposals_proposed_by_id_fkey" FOREIGN KEY ("proposed_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
