-- AlterTable
ALTER TABLE "sea_battles" ADD COLUMN     "auto_resolve_agreed" VARCHAR(40)[] DEFAULT ARRAY[]::VARCHAR(40)[];
