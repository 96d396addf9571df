-- AlterTable
ALTER TABLE "games" ADD COLUMN     "rules" VARCHAR(16) NOT NULL DEFAULT 'datc';
