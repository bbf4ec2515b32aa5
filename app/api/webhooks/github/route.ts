/** GitHub webhooks (push, pull_request, issue_comment): the signature is checked before anything else. */
import { after } from 'next/server';
import { webhookHandler } from '@/lib/server/github/webhooks/webhook-route';
import { webhookDeps } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

// in-process jobs run after the response (`after`): GitHub waits at most 10 s for an answer
export const POST = webhookHandler(() => webhookDeps(after));
