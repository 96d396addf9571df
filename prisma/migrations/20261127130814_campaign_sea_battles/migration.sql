-- CreateEnum
CREATE TYPE "sea_battle_status" AS ENUM ('undecided', 'fighting', 'decided', 'waived');

-- AlterEnum
ALTER TYPE "phase_status" ADD VALUE 'held';

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "campaign" JSONB;

-- AlterTable
ALTER TABLE "phases" ADD COLUMN     "held_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "sea_battles" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "phase_id" UUID NOT NULL,
    "sea" VARCHAR(40) NOT NULL,
    "contested" JSONB NOT NULL,
    "sides" JSONB,
    "status" "sea_battle_status" NOT NULL DEFAULT 'undecided',
    "battle_id" UUID,
    "outcome" JSONB,
    "decided_by" VARCHAR(16),
    "odds" JSONB,
    "deadline_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "sea_battles_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sea_battles_battle_id_key" ON "sea_battles"("battle_id");

-- CreateIndex
CREATE INDEX "sea_battles_game_id_idx" ON "sea_battles"("game_id");

-- CreateIndex
CREATE INDEX "sea_battles_status_deadline_at_idx" ON "sea_battles"("status", "deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "sea_battles_phase_id_sea_key" ON "sea_battles"("phase_id", "sea");

-- AddForeignKey
ALTER TABLE "sea_battles" ADD CONSTRAINT "sea_battles_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sea_battles" ADD CONSTRAINT "sea_battles_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sea_battles" ADD CONSTRAINT "sea_battles_battle_id_fkey" FOREIGN KEY ("battle_id") REFERENCES "battles"("id") ON DELETE SET NULL ON UPDATE CASCADE;
