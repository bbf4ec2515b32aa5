/**
 * The figures made from people's labels, as stored when labels last changed
 * (lib/server/human/figures.ts): every page that shows them reads them here, never computing them again.
 */
import { HumanFiguresSchema, parseStored, type HumanFigures } from '@/lib/core';
import type { Db } from '../client';

/** The stored figures of `keys` (humanFiguresKey): a key with no labels behind it is absent from the map. */
export async function readHumanFigures(db: Db, keys: readonly string[]): Promise<Map<string, HumanFigures>> {
  if (keys.length === 0) return new Map();
  const rows = await db.humanFigures.findMany({ where: { key: { in: [...new Set(keys)] } }, select: { key: true, body: true } });
  return new Map(rows.map((r) => [r.key, parseStored(HumanFiguresSchema, r.body, `human_figures ${r.key}.body`)]));
}
