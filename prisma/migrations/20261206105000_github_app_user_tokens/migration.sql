-- A GitHub App's user tokens have no scopes (the app's permissions decide), expire after eight
-- hours and come with a refresh token (six months): stored encrypted like the token, with both expiries.
ALTER TABLE "github_tokens" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'oauth';
ALTER TABLE "github_tokens" ADD COLUMN "refresh_ciphertext" TEXT;
ALTER TABLE "github_tokens" ADD COLUMN "expires_at" TIMESTAMP(3);
ALTER TABLE "github_tokens" ADD COLUMN "refresh_expires_at" TIMESTAMP(3);
