-- CreateTable
CREATE TABLE "battle_notes" (
    "id" UUID NOT NULL,
    "battle_id" UUID NOT NULL,
    "author_id" UUID,
    "text" VARCHAR(2000) NOT NULL,
    "action_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "battle_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "battle_notes_battle_id_created_at_idx" ON "battle_notes"("battle_id", "created_at");

-- AddForeignKey
ALTER TABLE "battle_notes" ADD CONSTRAINT "battle_notes_battle_id_fkey" FOREIGN KEY ("battle_id") REFERENCES "battles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_notes" ADD CONSTRAINT "battle_notes_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
