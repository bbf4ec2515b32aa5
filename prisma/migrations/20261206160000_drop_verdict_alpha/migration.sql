-- Krippendorff's α is not defined over one verdict: it is computed over a run's, blueprint's or
-- board's verdicts (lib/core/judging/alpha.ts) and never stored per verdict. The column was never written.
ALTER TABLE "verdicts" DROP COLUMN "alpha";
