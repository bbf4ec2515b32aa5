/**
 * Vitest's global setup (vitest.config.ts): runs once per test run, in the main process, so the
 * line naming the suites that skip for want of outside data (outside-data.ts) is printed once,
 * not once per worker or per file.
 */
import { outsideDataNotice } from './outside-data';

export default function setup(): void {
  const notice = outsideDataNotice();
  if (notice) console.log(notice);
}
