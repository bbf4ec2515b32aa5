-- Authors' own GitHub tokens (issue 16, "open a pull request"): one per user, encrypted at rest
-- (AES-256-GCM with ASSAY_TOKEN_KEY), removed on sign-out and when GitHub says it is revoked.
CREATE TABLE "github_tokens" (
    "user_id" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "github_tokens_pkey" PRIMARY KEY ("user_id")
);
ALTER TABLE "github_tokens" ADD CONSTRAINT "github_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
