/*
  Warnings:

  - The values [proposed] on the enum `loan_status` will be removed. If these variants are still used in the database, this will fail.
  - The values [processing] on the enum `phase_status` will be removed. If these variants are still used in the database, this will fail.
  - `proposed_in_phase` on `loans` is renamed to `started_in_phase` (edited by hand, see below).

*/
-- AlterEnum
BEGIN;
CREATE TYPE "loan_status_new" AS ENUM ('active', 'returned', 'cancelled');
ALTER TABLE "public"."loans" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "loans" ALTER COLUMN "status" TYPE "loan_status_new" USING ("status"::text::"loan_status_new");
ALTER TYPE "loan_status" RENAME TO "loan_status_old";
ALTER TYPE "loan_status_new" RENAME TO "loan_status";
DROP TYPE "public"."loan_status_old";
ALTER TABLE "loans" ALTER COLUMN "status" SET DEFAULT 'active';
COMMIT;

-- AlterEnum
BEGIN;
CREATE TYPE "phase_status_new" AS ENUM ('open', 'processed');
ALTER TABLE "public"."phases" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "phases" ALTER COLUMN "status" TYPE "phase_status_new" USING ("status"::text::"phase_status_new");
ALTER TYPE "phase_status" RENAME TO "phase_status_old";
ALTER TYPE "phase_status_new" RENAME TO "phase_status";
DROP TYPE "public"."phase_status_old";
ALTER TABLE "phases" ALTER COLUMN "status" SET DEFAULT 'open';
COMMIT;

-- DropForeignKey
ALTER TABLE "game_master_actions" DROP CONSTRAINT "game_master_actions_actor_user_id_fkey";

-- DropForeignKey
ALTER TABLE "order_submissions" DROP CONSTRAINT "order_submissions_submitted_by_id_fkey";

-- DropForeignKey
ALTER TABLE "players" DROP CONSTRAINT "players_user_id_fkey";

-- DropForeignKey
ALTER TABLE "press_messages" DROP CONSTRAINT "press_messages_sender_user_id_fkey";

-- AlterTable
ALTER TABLE "game_master_actions" ALTER COLUMN "actor_user_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "imported_at" TIMESTAMPTZ(3),
ADD COLUMN     "paused_at" TIMESTAMPTZ(3);

-- AlterTable
-- Edited by hand: a rename keeps existing rows (same resulting schema as drop + add).
ALTER TABLE "loans" RENAME COLUMN "proposed_in_phase" TO "started_in_phase";
ALTER TABLE "loans" ADD COLUMN     "end_reason" VARCHAR(80),
ALTER COLUMN "status" SET DEFAULT 'active';

-- AlterTable
ALTER TABLE "order_submissions" ADD COLUMN     "by_game_master" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "submitted_by_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "phases" ADD COLUMN     "disbanded" JSONB,
ADD COLUMN     "events" JSONB,
ADD COLUMN     "loan_actions" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "orders" JSONB,
ADD COLUMN     "results" JSONB;

-- AlterTable
ALTER TABLE "players" ALTER COLUMN "user_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "press_messages" ALTER COLUMN "sender_user_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "discarded_phases" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "gm_action_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "kind" "phase_kind" NOT NULL,
    "state_before" JSONB NOT NULL,
    "loan_actions" JSONB NOT NULL,
    "orders" JSONB,
    "results" JSONB,
    "events" JSONB,
    "disbanded" JSONB,
    "state_after" JSONB,
    "deadline_at" TIMESTAMPTZ(3),
    "processed_at" TIMESTAMPTZ(3),
    "submissions" JSONB NOT NULL,
    "discarded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discarded_phases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "discarded_phases_game_id_discarded_at_idx" ON "discarded_phases"("game_id", "discarded_at");

-- AddForeignKey
ALTER TABLE "players" ADD CONSTRAINT "players_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_submissions" ADD CONSTRAINT "order_submissions_submitted_by_id_fkey" FOREIGN KEY ("submitted_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_sender_user_id_fkey" FOREIGN KEY ("sender_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_master_actions" ADD CONSTRAINT "game_master_actions_actor_user_id_fkey" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "discarded_phases" ADD CONSTRAINT "discarded_phases_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
