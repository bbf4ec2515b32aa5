-- Try it (issue 16): an author's draft runs, the maintainers' settings, each author's day.

-- A draft run: run by its author (created_by_id) from the browser; never published to a
-- leaderboard, visible only to that author and to maintainers.
ALTER TABLE "runs" ADD COLUMN "draft" BOOLEAN NOT NULL DEFAULT false;

-- One row (id = 1, the only id the code writes): what maintainers allow; absent, the environment's defaults apply.
CREATE TABLE "try_it_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "models" TEXT[] NOT NULL,
    "daily_calls" INTEGER NOT NULL,
    "daily_cost_usd" DOUBLE PRECISION NOT NULL,
    "runs_per_hour" INTEGER NOT NULL,
    "updated_by" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "try_it_settings_pkey" PRIMARY KEY ("id")
);

-- An author's try-it spending on one UTC day: every reserved provider call and its cost.
CREATE TABLE "author_try_days" (
    "user_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "author_try_days_pkey" PRIMARY KEY ("user_id", "day"),
    CONSTRAINT "author_try_days_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
