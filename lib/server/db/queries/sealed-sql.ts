/**
 * The sealed-prompt condition of sealed.ts as plain SQL text, for statements sent on the pool
 * without the ORM (the run exports: a command that loads no ORM at all stays small). The same
 * rule: a prompt whose version marks it `split: test` is never returned.
 */
import { SEALED_SPLIT } from '@/lib/core';

/**
 * SQL condition: prompt `keyColumn` is not sealed in the version given by the query parameter
 * `versionParam` (`$2`). Both are our own SQL: column references and a placeholder, never input.
 */
export function notSealedInText(keyColumn: string, versionParam: string): string {
  return `${keyColumn} NOT IN (SELECT sealed.prompt_key FROM version_prompts sealed WHERE sealed.version_id = ${versionParam} AND sealed.split = '${SEALED_SPLIT}')`;
}
