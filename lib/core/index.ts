/**
 * The only import path into lib/core from outside it. lib/core is pure: no I/O, env,
 * clock or implicit randomness; everything it needs comes in as arguments or ports.
 */
export * from './blueprint/schema';
export * from './judging/questions';
export * from './correct/schema';
export type * from './points/types';
