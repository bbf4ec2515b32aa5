/**
 * A command that runs blueprints grades in a worker thread (runs/grading/grading-pool.ts), and a
 * worker takes ~0.3 s to load its code: about what the command's own modules take (the database
 * client, the run engine). Started as the command starts, the two load side by side on two cores
 * instead of one after the other; started when the run's dependencies are composed (as the
 * server does), the first reply of a small `assay run` waited ~0.1 s for it
 * (bench/cli-start.bench.ts). The pool is the process's shared one, of the configured size, so
 * createRunDeps later finds it warm.
 */
import { env } from '../env';
import { sharedGradingPool } from '../runs/grading/grading-pool';

export function startGradingPoolEarly(): void {
  let size: number;
  try {
    size = env().ASSAY_GRADING_WORKERS;
  } catch {
    return; // a bad setting is the command's to report, with its own error
  }
  void sharedGradingPool({ size }).warm();
}
