-- CreateTable
CREATE TABLE "press_read_marks" (
    "user_id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "conversation" VARCHAR(200) NOT NULL,
    "read_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "press_read_marks_pkey" PRIMARY KEY ("user_id","game_id","conversation")
);

-- AddForeignKey
ALTER TABLE "press_read_marks" ADD CONSTRAINT "press_read_marks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "press_read_marks" ADD CONSTRAINT "press_read_marks_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
