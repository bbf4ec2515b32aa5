/** Runs: the plan of generations, judge panels, run identity, cache keys and whose replies a run grades. */
export * from './plan';
export * from './identity';
export * from './fixtures';
export * from './finish';
export * from './reply-source';
export * from './sandbox-estimate';
