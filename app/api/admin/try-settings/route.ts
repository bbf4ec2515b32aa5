/** POST: a maintainer sets what "try it" allows (models, each author's daily calls and cost, runs per hour). */
import { z } from 'zod';
import { isFormPost, redirect, route } from '@/lib/server/http';
import { actorName } from '@/lib/server/auth/principal';
import { saveTrySettings, TryItSettingsSchema } from '@/lib/server/authoring/try-settings';
import { authenticateActor, getDb } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

/** The admin form sends the models one per line (or comma-separated) and numbers as text. */
const Body = z.object({
  models: z.union([z.array(z.string()), z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean))]),
  dailyCalls: z.coerce.number(),
  dailyCostUsd: z.coerce.number(),
  runsPerHour: z.coerce.number(),
}).pipe(TryItSettingsSchema);

export const POST = route(
  { authenticate: authenticateActor, body: Body, response: TryItSettingsSchema, formErrorsTo: '/admin' },
  async ({ principal, body, request }) => {
    const saved = await saveTrySettings(getDb(), body, actorName(principal));
    if (isFormPost(request)) return redirect(`/admin?notice=${encodeURIComponent(`Try it: ${saved.models.length} models, ${saved.dailyCalls} calls and $${saved.dailyCostUsd} per author per day, ${saved.runsPerHour} runs per hour.`)}#try-it`);
    return saved;
  },
);
