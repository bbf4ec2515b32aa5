/**
 * Every environment variable Assay reads, validated once with zod. A missing or malformed
 * value stops start-up with a message that names the variable and says what it expects.
 * Documented in `.env.example`; nothing else in the code reads `process.env`.
 */
import { z } from 'zod';
import { parseTrustedProxies } from './http/client-address';
import { parseHttpModelEnv } from './providers/custom-http-env';
import { checkInngestConfig, INNGEST_ENV_FIELDS } from './env-inngest';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL, e.g. postgresql://user@127.0.0.1:5432/assay');

export const EnvSchema = z.object({
  /** PostgreSQL server. Unset: the launcher starts the embedded PGlite and sets it. */
  DATABASE_URL: postgresUrl.optional(),
  /** Where the embedded database keeps its files (`memory://` for a throwaway one). */
  ASSAY_DATA_DIR: z.string().min(1).default('.data/pglite'),
  /**
   * `1`: at start, run the demo blueprints through the pipeline against a fake provider inside
   * the launcher (completed runs and one left in progress), replacing earlier demo data. For the
   * e2e specs and for trying the pages; never in production.
   */
  ASSAY_SEED_DEMO: z
    .enum(['0', '1', ''])
    .optional()
    .transform((v) => v === '1'),
  /** The local blueprint source, used when no GitHub repository is configured. */
  ASSAY_BLUEPRINTS_DIR: z.string().min(1).default('blueprints'),
  /** Port the web app listens on. */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Bearer token for admin routes; at least 24 characters so it cannot be guessed. */
  ASSAY_ADMIN_TOKEN: optionalString.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
  /**
   * Reverse proxies (comma-separated IPs or CIDR ranges) whose X-Forwarded-For is believed, for
   * per-client rate limits. Unset: none; the client is the TCP peer, whatever the headers say.
   */
  ASSAY_TRUSTED_PROXIES: optionalString.superRefine((v, ctx) => {
    try {
      parseTrustedProxies(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `${(e as Error).message}; expected comma-separated IPs or CIDR ranges` });
    }
  }),
  /** Public base URL used in links posted to GitHub and printed by `assay run`. */
  ASSAY_PUBLIC_URL: z.url().default('http://localhost:3000'),
  /**
   * The share (0–1) of a leaderboard's blueprints a model needs a score on to be ranked;
   * models below it are listed apart with why. Default 0.5: half the board's blueprints.
   */
  ASSAY_LEADERBOARD_MIN_COVERAGE: optionalString
    .pipe(z.coerce.number<string | undefined>({ error: 'must be a number between 0 and 1, e.g. 0.5' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1 (a share, not a percentage)').optional())
    .transform((v) => v ?? 0.5),
  /** How many answers (labels and pair preferences together) one reviewer may give a minute, and a UTC day (docs/human-review.md). */
  ASSAY_REVIEW_PER_MINUTE: z.coerce.number().int().positive().default(60),
  ASSAY_REVIEW_PER_DAY: z.coerce.number().int().positive().default(400),
  /** GitHub blueprint repository as `owner/repo`; unset means the local folder. */
  GITHUB_REPOSITORY: optionalString.pipe(
    z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must look like owner/repo').optional(),
  ),
  GITHUB_BRANCH: z.string().min(1).default('main'),
  GITHUB_TOKEN: optionalString,
  GITHUB_WEBHOOK_SECRET: optionalString,
  /** GitHub API base URL (a local fake in tests). */
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /** A GitHub App instead of GITHUB_TOKEN: its id, private key (PEM; `\n` escapes allowed) and installation id. */
  GITHUB_APP_ID: optionalString,
  GITHUB_APP_PRIVATE_KEY: optionalString,
  GITHUB_APP_INSTALLATION_ID: optionalString
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number({ error: 'must be a number' }).int().positive().optional()),
  /** GitHub OAuth app for maintainers' sign-in (callback: ASSAY_PUBLIC_URL/api/auth/github/callback). */
  GITHUB_OAUTH_CLIENT_ID: optionalString,
  GITHUB_OAUTH_CLIENT_SECRET: optionalString,
  /** Where the OAuth pages live (github.com; the fake GitHub server in tests). */
  GITHUB_OAUTH_URL: z.url().default('https://github.com'),
  /**
   * The key that encrypts authors' GitHub tokens at rest (AES-256-GCM): 32 bytes as 64 hex digits
   * or base64 (`openssl rand -hex 32`). Unset: authors cannot connect GitHub to open pull requests.
   */
  ASSAY_TOKEN_KEY: optionalString.refine((v) => v === undefined || /^[0-9a-f]{64}$/i.test(v) || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes: 64 hex digits or base64 (openssl rand -hex 32)'),
  /** GitHub logins made maintainers when they sign in (comma-separated); other roles are kept in the users table. */
  ASSAY_MAINTAINER_LOGINS: optionalString,
  /** The label with which a maintainer approves a pull request's run (the other way: a `/assay run` comment). */
  ASSAY_PR_APPROVAL_LABEL: z.string().min(1).default('assay:run'),
  /** Models a pull request's blueprints run against (comma-separated); unset: the blueprint's own, cut to ASSAY_PR_MAX_MODELS. */
  ASSAY_PR_MODELS: optionalString,
  /** The budget of one pull request's run of one blueprint, and how many blueprints of a PR may run. */
  ASSAY_PR_MAX_MODELS: z.coerce.number().int().positive().default(3),
  ASSAY_PR_MAX_PROMPTS: z.coerce.number().int().positive().default(10),
  ASSAY_PR_MAX_CALLS: z.coerce.number().int().positive().default(200),
  ASSAY_PR_MAX_COST_USD: z.coerce.number().positive().default(2),
  /** Try it (docs/authoring.md): the models authors may run a draft on (comma-separated) until a maintainer sets them on /admin. */
  ASSAY_TRY_MODELS: z.string().default('openai:gpt-4o-mini'),
  /** An author's try-it budget per UTC day until a maintainer sets it: provider calls and their cost. */
  ASSAY_TRY_DAILY_CALLS: z.coerce.number().int().min(0).default(50),
  ASSAY_TRY_DAILY_COST_USD: z.coerce.number().min(0).default(0.5),
  /** Try-it runs an author may request per hour (a rate limit on the request, besides the budget). */
  ASSAY_TRY_RUNS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  ASSAY_PR_MAX_BLUEPRINTS: z.coerce.number().int().positive().default(5),
  /** Sandbox time (`$js`, sandboxed regexes) one PR run of one blueprint may use, in seconds; estimated at validation, enforced in the run. */
  ASSAY_PR_MAX_SANDBOX_SECONDS: z.coerce.number().positive().default(30),
  /** The safety-net sync for missed push webhooks (Inngest cron syntax). */
  ASSAY_SYNC_CRON: z.string().min(9).default('*/30 * * * *'),
  /** Scheduled re-runs: when, after how many days an identical run is repeated, and at most how many runs per tick. */
  ASSAY_RERUN_CRON: z.string().min(9).default('0 3 * * *'),
  ASSAY_RERUN_MAX_AGE_DAYS: z.coerce.number().positive().default(7),
  ASSAY_RERUN_MAX_PER_TICK: z.coerce.number().int().positive().default(10),
  /** How scheduled re-runs call providers: `batch` (provider batch APIs, half the price, within 24 h) or `live`. */
  ASSAY_RERUN_MODE: z.enum(['live', 'batch']).default('live'),
  OPENAI_API_KEY: optionalString,
  OPENROUTER_API_KEY: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  GOOGLE_API_KEY: optionalString,
  TOGETHER_API_KEY: optionalString,
  GROQ_API_KEY: optionalString,
  /** Overrides the base URL of every OpenAI-compatible provider (the fake LLM server in tests). */
  ASSAY_LLM_BASE_URL: optionalString.pipe(z.url().optional()),
  /** Base URLs of self-hosted OpenAI-compatible servers. */
  VLLM_BASE_URL: optionalString.pipe(z.url().optional()),
  OLLAMA_BASE_URL: optionalString.pipe(z.url().optional()),
  LMSTUDIO_BASE_URL: optionalString.pipe(z.url().optional()),
  /** Origins (comma-separated) that blueprint HTTP systems under test may call. */
  ASSAY_HTTP_MODEL_ORIGINS: optionalString,
  /**
   * Env variables HTTP systems under test may send as headers, each bound to the origin(s) it may
   * go to: `NAME@https://host` (comma-separated; repeat a name for more origins).
   */
  ASSAY_HTTP_MODEL_ENV: optionalString.superRefine((v, ctx) => {
    try {
      parseHttpModelEnv(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
    }
  }),
  /** The default judge panel (comma-separated `model` or `model#approach`). */
  ASSAY_JUDGES: z.string().min(1).default('openai:gpt-4.1-mini,anthropic:claude-3-5-haiku-latest'),
  /**
   * Concurrent provider calls per provider: a maximum for every provider. Unset: each provider's
   * row of the default table (providers/concurrency.ts, docs/runs.md); a 429 lowers it for a while.
   */
  ASSAY_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(512).optional(),
  /** Total sandbox time (`$js`, sandboxed regexes) for grading one reply, and for one run, in seconds (each point also stops at 1 s). */
  ASSAY_SANDBOX_REPLY_SECONDS: z.coerce.number().positive().default(5),
  ASSAY_SANDBOX_RUN_SECONDS: z.coerce.number().positive().default(300),
  /** Worker threads grading sandbox points (`$js`, sandboxed regexes) off the server's event loop. */
  ASSAY_GRADING_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** Per-provider call timeouts overriding the table in lib/server/providers/timeouts.ts: `openai=60000,custom=20000`. */
  ASSAY_PROVIDER_TIMEOUTS: optionalString.pipe(
    z
      .string()
      .transform((v, ctx) => {
        const out: Record<string, number> = {};
        for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
          const m = /^([\w-]+)\s*=\s*(\d+)$/.exec(part);
          if (!m || Number(m[2]) < 1) {
            ctx.addIssue({ code: 'custom', message: `"${part}" is not provider=milliseconds (e.g. openai=60000)` });
            return z.NEVER;
          }
          out[m[1]!] = Number(m[2]);
        }
        return out;
      })
      .optional(),
  ),
  /** A run stops (budget_exceeded, resumable) when one execution of it has taken this long. */
  ASSAY_RUN_DEADLINE_MINUTES: z.coerce.number().positive().default(360),
  /** Batch mode (`assay run --batch`): seconds between polls of a provider batch (growing to 16× for a slow one). */
  ASSAY_BATCH_POLL_SECONDS: z.coerce.number().positive().default(60),
  /** A run's lease (one worker at a time); a crashed holder's lease lapses after this long. */
  ASSAY_RUN_LEASE_SECONDS: z.coerce.number().positive().default(30),
  /** Services `$call`/`factcheck` may reach: JSON `{"name": "https://…"}`; nothing else is ever called. */
  ASSAY_EXTERNAL_SERVICES: optionalString.pipe(
    z
      .string()
      .transform((v, ctx) => {
        try {
          return z.record(z.string(), z.url()).parse(JSON.parse(v));
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON object of service name → https URL' });
          return z.NEVER;
        }
      })
      .optional(),
  ),
  /** Inngest's keys, server and dev mode, and the combinations refused at start: env-inngest.ts. */
  ...INNGEST_ENV_FIELDS,
}).superRefine(checkInngestConfig);
export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Parses an environment; throws EnvError listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new EnvError(`Invalid configuration (see .env.example):\n${lines.join('\n')}`);
}

let cached: Env | undefined;

/** The process's configuration, read once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The database URL; only the launcher may leave it unset (it starts PGlite and sets it). */
export function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) {
    throw new EnvError(
      'DATABASE_URL is not set. Start Assay with `npm run dev` (it starts the embedded database), ' +
        'or set DATABASE_URL=postgresql://… to use a PostgreSQL server.',
    );
  }
  return url;
}
