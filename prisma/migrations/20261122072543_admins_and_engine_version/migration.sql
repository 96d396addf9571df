-- AlterTable
ALTER TABLE "discarded_phases" ADD COLUMN     "engine_version" INTEGER;

-- AlterTable
ALTER TABLE "phases" ADD COLUMN     "engine_version" INTEGER;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "is_admin" BOOLEAN NOT NULL DEFAULT false;

-- Backfill (edited by hand): every phase processed before this migration was
-- adjudicated by engine version 1, the only one there was.
UPDATE "phases" SET "engine_version" = 1 WHERE "status" = 'processed';
UPDATE "discarded_phases" SET "engine_version" = 1 WHERE "processed_at" IS NOT NULL;
