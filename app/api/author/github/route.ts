/** GET: whether the signed-in author has connected GitHub for pull requests (never the token itself). */
import { z } from 'zod';
import { route } from '@/lib/server/http';
import { hasGitHubConnection } from '@/lib/server/auth/github-tokens';
import { getDb } from '@/lib/server/platform';
import { sessionUser, SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { readCookie } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

export const GET = route(
  { response: z.object({ login: z.string().nullable(), connected: z.boolean() }), headers: { 'cache-control': 'no-store' } },
  async ({ request }) => {
    const user = await sessionUser(getDb(), readCookie(request, SESSION_COOKIE));
    return { login: user?.githubLogin ?? null, connected: user ? await hasGitHubConnection(getDb(), user.id) : false };
  },
);
