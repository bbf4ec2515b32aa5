/**
 * The normalised blueprint as `assay validate --json` prints it: the core `Blueprint` with its
 * resolved id, and every point with `fn` and `args` present (null for points that are not
 * function calls) so that consumers read one flat shape whatever the point's kind.
 */
import type { Blueprint, Point } from '@/lib/core';

export type PointJson = Point & { fn: string | null; args: unknown };
export type BlueprintJson = Omit<Blueprint, 'id' | 'prompts'> & {
  id: string;
  prompts: (Omit<Blueprint['prompts'][number], 'points'> & { points: PointJson[] })[];
};

export function blueprintJson(blueprint: Blueprint, id: string): BlueprintJson {
  return {
    ...blueprint,
    id,
    prompts: blueprint.prompts.map((prompt) => ({ ...prompt, points: prompt.points.map(pointJson) })),
  };
}

function pointJson(point: Point): PointJson {
  // `args` is undefined for a zero-argument call (`$factcheck`); JSON would drop the key.
  if (point.kind === 'function') return { ...point, args: point.args ?? null };
  return { ...point, fn: null, args: null };
}
