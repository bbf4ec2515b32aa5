/**
 * Writes one Inspect JSON log as a stream. The log is one JSON document, but its `samples`
 * array can hold a hundred thousand samples: the header goes first (Inspect's own header
 * reader stops at the `samples` key, log/_recorders/json.py `_scan_header_keys`), then each
 * sample as it comes, so memory holds one sample at a time. The file appears under its name
 * only when complete (written beside it, then renamed), so a reader never meets half a log.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { InspectLogHeader, InspectSample } from './inspect-log';

export async function writeJsonLog(path: string, header: InspectLogHeader, samples: AsyncIterable<InspectSample>): Promise<number> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {}); // observed through the races below; this only keeps it from being unhandled
  const write = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  let count = 0;
  try {
    const head = JSON.stringify(header);
    // the header is an object: reopen it before its closing brace to add `samples` as its last key
    await write(`${head.slice(0, -1)},"samples":[`);
    for await (const sample of samples) {
      await write(`${count === 0 ? '' : ','}${JSON.stringify(sample)}`);
      count++;
    }
    await write(']}\n');
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    await rename(partial, path);
    return count;
  } catch (e) {
    out.destroy();
    await rm(partial, { force: true });
    throw e;
  }
}
