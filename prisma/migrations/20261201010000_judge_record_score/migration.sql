-- Judge records (verdicts.judges[i]) were written with their number under "value" while every
-- page read "score" (issue 9). The writer now stores "score" (lib/core/evidence); move the
-- number of rows written before, keeping the panel's order. Data only: no schema change.
UPDATE verdicts
SET judges = (
  SELECT jsonb_agg(CASE WHEN j ? 'value' THEN (j - 'value') || jsonb_build_object('score', j -> 'value') ELSE j END ORDER BY ord)
  FROM jsonb_array_elements(judges) WITH ORDINALITY AS e(j, ord)
)
WHERE jsonb_typeof(judges) = 'array'
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(judges) AS x(j) WHERE j ? 'value');
