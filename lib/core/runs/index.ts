/** Runs: the plan of generations, judge panels, run identity and cache keys, the status and sort vocabularies. */
export * from './plan';
export * from './identity';
export * from './fixtures';
export * from './finish';
export * from './sandbox-estimate';
export * from './status';
export * from './sorts';
