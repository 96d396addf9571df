-- AlterTable
ALTER TABLE "phases" ADD COLUMN     "seats_before" JSONB;
