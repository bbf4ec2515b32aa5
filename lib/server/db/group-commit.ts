/**
 * Group commit: callers hand in one item each and wait for its result; whatever accumulated
 * while the previous statement ran goes to the database in ONE statement. The first item of
 * an idle batcher is sent at once (no timer, no added latency); under load, many callers share
 * a round trip. Each caller resumes only once its own item is committed, so batching costs no
 * durability. A failed batch is retried item by item, so one bad item (a row PostgreSQL
 * refuses) fails alone and its neighbours get their own outcome.
 *
 * The run pipeline's hot path (response cache, budget reservations, replies, verdicts, heatmap
 * cells) goes through these: per provider call it was 5–10 statements, each a round trip and
 * its protocol CPU, which made the pipeline, not the provider, the limit (docs/runs.md, "Database
 * writes of the hot path are group-committed").
 */

export interface GroupCommitOptions<I> {
  /** Upper bound of one batch's total cost (default: unbounded). */
  maxCost?: number;
  /** An item's cost towards `maxCost` (default 1 each). */
  cost?: (item: I) => number;
  /**
   * Batches written at once (default 1: in submission order). More lets one batch's commit
   * overlap the next one's transfer, for writers whose batches do not depend on each other.
   */
  parallel?: number;
  /**
   * With `parallel` > 1: what is queued is shared among the free batches, in parts costing at
   * least this much, so that one batch's database work overlaps the next one's preparation
   * (default: no sharing, a batch takes all it may). Without it, a burst went to one batch while
   * the others stood idle.
   */
  minShare?: number;
}

interface Pending<I, O> {
  item: I;
  resolve: (o: O) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit<I, O> {
  private queue: Pending<I, O>[] = [];
  private running = 0;
  /** Batches being written (running counts also those about to take one). */
  private writing = 0;
  /** Batches written and items in them, for benchmarks. */
  batches = 0;
  items = 0;

  /** `write` receives the batch in submission order and returns one result per item, in order. */
  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly opts: GroupCommitOptions<I> = {},
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.running < (this.opts.parallel ?? 1)) void this.drain();
    });
  }

  private take(): Pending<I, O>[] {
    const cost = this.opts.cost ?? (() => 1);
    let max = this.opts.maxCost ?? Infinity;
    const parallel = this.opts.parallel ?? 1;
    if (parallel > 1 && this.opts.minShare !== undefined) {
      const queued = this.queue.reduce((sum, p) => sum + cost(p.item), 0);
      max = Math.min(max, Math.max(this.opts.minShare, Math.ceil(queued / (parallel - this.writing))));
    }
    let total = 0;
    let n = 0;
    while (n < this.queue.length) {
      const c = cost(this.queue[n]!.item);
      if (n > 0 && total + c > max) break;
      total += c;
      n++;
    }
    return this.queue.splice(0, n);
  }

  /** One batch: each item gets its result; a failed batch is retried item by item, so a bad item fails alone. Never rejects. */
  private async commitBatch(batch: Pending<I, O>[]): Promise<void> {
    try {
      const out = await this.write(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(out[i]!));
    } catch (e) {
      if (batch.length === 1) return batch[0]!.reject(e);
      for (const p of batch) {
        await this.write([p.item]).then(
          (out) => p.resolve(out[0]!),
          (err: unknown) => p.reject(err),
        );
      }
    }
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      // A second batcher started by a submit waits for the other submits of its turn, or it would take just the first.
      if ((this.opts.parallel ?? 1) > 1) await afterCallbacks();
      for (let batch = this.take(); batch.length > 0; batch = (await afterCallbacks(), this.take())) {
        this.batches++;
        this.items += batch.length;
        this.writing++;
        await this.commitBatch(batch);
        this.writing--;
      }
    } finally {
      this.running--;
    }
  }
}

/**
 * Lets the callers just resumed run their continuations before the next batch is taken: a
 * caller whose item was committed often submits its next one at once (a runner's slot moving
 * on to its next reply). Taking the next batch straight away found the queue empty, so the first
 * of them went alone and the rest waited for it: batches of 1 and 63 items alternated, half the
 * transactions carrying one (measured in bench/pipeline.bench.ts). A macrotask turn runs every
 * pending microtask first, at no measurable latency.
 */
const afterCallbacks = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One batcher per (database client, purpose): batches share the client's pool, and two
 * clients (two test databases in one process) never mix their items.
 */
export function perClient<K extends object, B>(make: (key: K) => B): (key: K) => B {
  const made = new WeakMap<K, B>();
  return (key) => {
    let b = made.get(key);
    if (!b) made.set(key, (b = make(key)));
    return b;
  };
}
