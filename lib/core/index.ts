/**
 * The only import path into lib/core from outside it. lib/core is pure: no I/O, env,
 * clock or implicit randomness; everything it needs comes in as arguments or ports.
 */
export * from './blueprint';
export * from './soev';
export * from './judging';
export * from './correct';
export * from './scoring';
export * from './points';
export * from './runs';
export * from './evidence';
export * from './search';
export * from './retrieval';
export * from './retrieval-runs';
