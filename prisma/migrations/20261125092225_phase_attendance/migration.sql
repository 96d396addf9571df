-- AlterTable
ALTER TABLE "phases" ADD COLUMN     "attendance" JSONB;
