-- Authoring in the browser (issue 16): each signed-in author's drafts, one per file name.
CREATE TABLE "author_drafts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "yaml" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "author_drafts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "author_drafts_user_id_name_key" ON "author_drafts"("user_id", "name");
ALTER TABLE "author_drafts" ADD CONSTRAINT "author_drafts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
