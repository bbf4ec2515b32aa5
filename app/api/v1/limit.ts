/** The public API's per-client rate limit, wired to the app's database and its reading of client addresses. */
import { clientLimit } from '@/lib/server/api-v1/v1-route';
import { getDb, requestClientAddress } from '@/lib/server/platform';

export const limitClient = clientLimit(getDb, requestClientAddress);
