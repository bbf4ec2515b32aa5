-- A leaderboard as made once from its stored rows (lib/core leaderboard(): scores, intervals,
-- ranks, bands and the pair tests behind them), read by every page that shows a board's figures
-- (the home and tag boards, the model page, /compare). `stamp` names the rows and setting it was
-- made from; a page that finds another stamp makes the board again and stores it.
-- CreateTable
CREATE TABLE "board_snapshots" (
    "key" TEXT NOT NULL,
    "stamp" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "board_snapshots_pkey" PRIMARY KEY ("key")
);
