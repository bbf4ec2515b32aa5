/**
 * withRunDatabase's frame for a command that reads through a node-postgres pool alone
 * (compose/command-pool.ts): the database opened for the command and always closed, a domain
 * error printed as the command's one-line error (command-failure.ts).
 */
import type pg from 'pg';
import { openCommandPool } from '@/lib/server/compose/command-pool';
import { withOpened } from './command-failure';

export function withCommandPool(command: string, work: (pool: pg.Pool) => Promise<number>): Promise<number> {
  return withOpened(command, openCommandPool, (database) => work(database.pool));
}
