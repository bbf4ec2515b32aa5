-- CreateTable
CREATE TABLE "reviewer_grants" (
    "user_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "granted_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reviewer_grants_pkey" PRIMARY KEY ("user_id","scope")
);

-- CreateTable
CREATE TABLE "review_draws" (
    "id" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "design" JSONB NOT NULL,
    "candidates" INTEGER NOT NULL,
    "drawn" INTEGER NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_draws_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_items" (
    "id" TEXT NOT NULL,
    "draw_id" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "verdict_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "point_index" INTEGER NOT NULL,
    "inclusion" DOUBLE PRECISION NOT NULL,
    "stratum" TEXT NOT NULL,
    "reviewers_wanted" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_labels" (
    "id" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "answer" TEXT,
    "flag" TEXT,
    "shown" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "undone_at" TIMESTAMP(3),
    "removed_at" TIMESTAMP(3),
    "removed_by" TEXT,

    CONSTRAINT "review_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pair_items" (
    "id" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_a" TEXT NOT NULL,
    "model_b" TEXT NOT NULL,
    "reply_a_id" TEXT NOT NULL,
    "reply_b_id" TEXT NOT NULL,
    "design" JSONB NOT NULL,
    "reviewers_wanted" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pair_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pair_labels" (
    "id" TEXT NOT NULL,
    "pair_id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "shown_first" TEXT NOT NULL,
    "answer" TEXT,
    "flag" TEXT,
    "shown" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "undone_at" TIMESTAMP(3),
    "removed_at" TIMESTAMP(3),
    "removed_by" TEXT,

    CONSTRAINT "pair_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "human_figures" (
    "key" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "human_figures_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "review_draws_blueprint_id_idx" ON "review_draws"("blueprint_id");

-- CreateIndex
CREATE UNIQUE INDEX "review_items_verdict_id_key" ON "review_items"("verdict_id");

-- CreateIndex
CREATE INDEX "review_items_blueprint_id_position_idx" ON "review_items"("blueprint_id", "position");

-- CreateIndex
CREATE INDEX "review_labels_item_id_idx" ON "review_labels"("item_id");

-- CreateIndex
CREATE INDEX "review_labels_reviewer_id_created_at_idx" ON "review_labels"("reviewer_id", "created_at");

-- CreateIndex
CREATE INDEX "pair_items_blueprint_id_position_idx" ON "pair_items"("blueprint_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "pair_items_run_id_prompt_key_model_a_model_b_key" ON "pair_items"("run_id", "prompt_key", "model_a", "model_b");

-- CreateIndex
CREATE INDEX "pair_labels_pair_id_idx" ON "pair_labels"("pair_id");

-- CreateIndex
CREATE INDEX "pair_labels_reviewer_id_created_at_idx" ON "pair_labels"("reviewer_id", "created_at");

-- AddForeignKey
ALTER TABLE "reviewer_grants" ADD CONSTRAINT "reviewer_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_draw_id_fkey" FOREIGN KEY ("draw_id") REFERENCES "review_draws"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_labels" ADD CONSTRAINT "review_labels_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "review_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_labels" ADD CONSTRAINT "review_labels_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pair_labels" ADD CONSTRAINT "pair_labels_pair_id_fkey" FOREIGN KEY ("pair_id") REFERENCES "pair_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pair_labels" ADD CONSTRAINT "pair_labels_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

