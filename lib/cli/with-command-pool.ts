/**
 * withRunDatabase's frame for a command that reads through a node-postgres pool alone
 * (compose/command-pool.ts): the database opened for the command and always closed, a domain
 * error printed as the command's one-line error (command-failure.ts).
 */
import type pg from 'pg';
import { openCommandPool } from '@/lib/server/compose/command-pool';
import { commandFailure } from './command-failure';

export async function withCommandPool(command: string, work: (pool: pg.Pool) => Promise<number>): Promise<number> {
  const database = await openCommandPool();
  try {
    return await work(database.pool);
  } catch (e) {
    const failure = commandFailure(command, e);
    if (!failure) throw e;
    console.error(failure.message);
    return failure.exitCode;
  } finally {
    await database.close();
  }
}
