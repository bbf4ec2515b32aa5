-- Calls in flight per provider across every app instance (lib/server/runs/provider-slots.ts):
-- one row per provider and slot number; a call holds a free row (no holder, or a lapsed lease)
-- while the provider works on it. The rows are inserted on first use.
-- UNLOGGED: a hold is taken and given back around every provider call, and the table's state is
-- worth nothing after a crash (every holder died with it; an unlogged table comes back empty), so
-- its writes skip the WAL and their commits wait for no disk flush (the bench measured 20 ms
-- per call with a logged table on a busy disk). Prisma's schema cannot say UNLOGGED; it only
-- changes how the rows are stored, not the table's shape the schema describes.
-- CreateTable
CREATE UNLOGGED TABLE "provider_slots" (
    "provider" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT,
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "provider_slots_pkey" PRIMARY KEY ("provider","slot")
);
