/**
 * A provider's concurrency limit that adapts to rate limiting (AIMD, as TCP does): a 429
 * halves the limit (floor 1); a window of successes (as many as the limit) adds one slot, up
 * to the configured maximum. Only the first 429 of a window halves it: calls already in flight
 * when the limit dropped answer with the provider's view of the old load, and counting each
 * of them would collapse the limit to 1 after one burst.
 *
 * It also measures how the slots were used (max and time-weighted mean in flight), which is
 * how a benchmark tells whether the runner keeps the provider busy.
 */

export interface SlotStats {
  /** Most calls in flight at once. */
  max: number;
  /** Mean calls in flight over the measured time. */
  mean: number;
  /** The current limit (below the maximum after rate limiting). */
  limit: number;
  /** Times a 429 halved the limit. */
  decreases: number;
}

/**
 * A slot as `fn` sees it. A call may leave something to the next call of its slot (`leave`):
 * the gateway leaves its call's record, which the next call commits in the statement of its
 * own reservation (one statement per slot turn instead of two). The next call takes it with
 * `claim`; whatever is not claimed (no one was waiting, the limit was lowered, or `fn` failed
 * before claiming) goes to the limiter's `settle`, so nothing left is ever dropped.
 */
export interface Slot<H> {
  claim(): H | null;
  leave(h: H): void;
}

export class AdaptiveLimit<H = never> {
  private active = 0;
  private current: number;
  private readonly waiting: ((inherited: H | null) => void)[] = [];
  private successes = 0;
  /** Bumped on every decrease: a 429 from a call started before it says nothing new. */
  private epoch = 0;
  private decreases = 0;
  // in-flight measurement
  private maxActive = 0;
  private area = 0;
  private since = performance.now();
  private last = this.since;

  constructor(
    readonly maximum: number,
    private readonly settle: (h: H) => void = () => undefined,
  ) {
    if (!Number.isInteger(maximum) || maximum < 1) throw new Error(`a concurrency limit must be a whole number ≥ 1, not ${maximum}`);
    this.current = maximum;
  }

  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.active;
  }

  private tick(): void {
    const now = performance.now();
    this.area += this.active * (now - this.last);
    this.last = now;
  }

  private take(): void {
    this.tick();
    this.active++;
    if (this.active > this.maxActive) this.maxActive = this.active;
  }

  /** Runs `fn` in a slot; `fn` reports the call's outcome with the epoch it is given. */
  async run<T>(fn: (epoch: number, slot: Slot<H>) => Promise<T>): Promise<T> {
    // A waiter is handed its slot by `next` (taken on its behalf), so no one overtakes it.
    let inherited: H | null = null;
    if (this.active >= this.current || this.waiting.length > 0) inherited = await new Promise<H | null>((resolve) => this.waiting.push(resolve));
    else this.take();
    let left: H | null = null;
    const slot: Slot<H> = {
      claim: () => {
        const h = inherited;
        inherited = null;
        return h;
      },
      leave: (h) => void (left = h),
    };
    try {
      return await fn(this.epoch, slot);
    } finally {
      if (inherited !== null) this.settle(inherited);
      this.tick();
      this.active--;
      this.next(left);
    }
  }

  /** Hands free slots to waiters, in order; `left` goes with the first of them (or to `settle`). */
  private next(left: H | null = null): void {
    while (this.active < this.current && this.waiting.length > 0) {
      this.take();
      this.waiting.shift()!(left);
      left = null;
    }
    if (left !== null) this.settle(left);
  }

  /** A call that started in `epoch` was rate limited. */
  rateLimited(epoch: number): void {
    if (epoch !== this.epoch) return;
    this.epoch++;
    this.successes = 0;
    if (this.current > 1) this.decreases++;
    this.current = Math.max(1, Math.floor(this.current / 2));
  }

  /** A call succeeded: after a window of them the limit grows by one. */
  succeeded(): void {
    if (this.current >= this.maximum) return;
    if (++this.successes >= this.current) {
      this.successes = 0;
      this.current++;
      this.next();
    }
  }

  /** Starts a new measurement window (benchmarks). */
  resetStats(): void {
    this.tick();
    this.maxActive = this.active;
    this.area = 0;
    this.since = this.last;
  }

  stats(): SlotStats {
    this.tick();
    const elapsed = this.last - this.since;
    return { max: this.maxActive, mean: elapsed > 0 ? this.area / elapsed : 0, limit: this.current, decreases: this.decreases };
  }
}
