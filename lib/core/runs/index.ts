/** Runs: the plan of generations, judge panels, run identity and cache keys. */
export * from './plan';
export * from './identity';
export * from './fixtures';
export * from './finish';
export * from './sandbox-estimate';
