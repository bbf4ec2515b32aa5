/** Runs: the plan of generations, judge panels, run identity, cache keys, whose replies a run grades, the status and sort vocabularies. */
export * from './plan';
export * from './identity';
export * from './fixtures';
export * from './finish';
export * from './reply-source';
export * from './sandbox-estimate';
export * from './status';
export * from './sorts';
export * from './run-mode';
export * from './wait';
