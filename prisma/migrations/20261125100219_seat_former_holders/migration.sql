-- AlterTable
ALTER TABLE "players" ADD COLUMN     "former_user_ids" UUID[] DEFAULT ARRAY[]::UUID[];

-- CreateIndex
CREATE INDEX "players_former_user_ids_idx" ON "players" USING GIN ("former_user_ids");
