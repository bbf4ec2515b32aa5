/** What a request handler or page needs from the server side, wired once. */
import { databaseUrl } from './env';
import { sharedDb, type Db } from './db/client';

export function getDb(): Db {
  return sharedDb(databaseUrl());
}
