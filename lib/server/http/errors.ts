/**
 * The typed errors of Assay's use cases and adapters. Each carries a stable `code` (for API
 * clients) and the HTTP `status` it means; `toErrorResponse` in route.ts maps them to
 * responses in one place, so use cases never build HTTP responses.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** The request is malformed (bad JSON, failed validation). */
export class BadRequestError extends AppError {
  override name = 'BadRequestError';
  constructor(message: string, details?: unknown) {
    super('bad_request', 400, message, details);
  }
}

/** No valid credentials (missing/wrong token, no session, bad webhook signature). */
export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  constructor(message = 'Sign in first: send `Authorization: Bearer <ASSAY_ADMIN_TOKEN>` or use the admin sign-in page.', details?: unknown) {
    super('unauthorized', 401, message, details);
  }
}

/** Valid credentials, but the role does not allow the action. */
export class ForbiddenError extends AppError {
  override name = 'ForbiddenError';
  constructor(message: string, details?: unknown) {
    super('forbidden', 403, message, details);
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(message: string, details?: unknown) {
    super('not_found', 404, message, details);
  }
}

/** The action conflicts with the current state (e.g. approving a PR whose blueprints are invalid). */
export class ConflictError extends AppError {
  override name = 'ConflictError';
  constructor(message: string, details?: unknown) {
    super('conflict', 409, message, details);
  }
}

export class RateLimitedError extends AppError {
  override name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number, message = `Too many requests; try again in ${retryAfterSeconds} s.`, details?: unknown) {
    super('rate_limited', 429, message, details);
  }
}

/** A feature needs configuration that is missing (e.g. GITHUB_WEBHOOK_SECRET). */
export class NotConfiguredError extends AppError {
  override name = 'NotConfiguredError';
  constructor(message: string) {
    super('not_configured', 503, message);
  }
}

/** A service Assay depends on (GitHub) failed or answered something unexpected. */
export class UpstreamError extends AppError {
  override name = 'UpstreamError';
  constructor(message: string, details?: unknown) {
    super('upstream_error', 502, message, details);
  }
}
