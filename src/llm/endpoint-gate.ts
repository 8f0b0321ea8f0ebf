/**
 * One gate per endpoint, shared by every session that calls it: at most `concurrency` calls in
 * flight, and a time before which no call starts. A rate-limit answer (a 429, or any answer with
 * Retry-After or a reset time) moves that time to when the server said to come back, so the
 * whole run slows down, not only the session that was told. Every attempt passes the gate (see
 * `retryLoop`); a session whose wall clock would run out while waiting stops instead of waiting.
 * The clock is injected: tests move it by hand and never sleep.
 */

/** The clocks a gate waits with. */
export interface GateClock {
  /** Monotonic ms. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What the retry loop needs from a gate. */
export interface AttemptGate {
  /**
   * Wait until a call may start: until the endpoint's pause is over and a slot is free. Returns
   * `leave`, to call when the attempt is over, or `stop` when the pause outlasts `remainingMs()`.
   */
  enter(remainingMs: () => number): Promise<{ leave: () => void; waitedMs: number } | { stop: string }>;
  /** A rate-limit answer: no call starts before `ms` from now. */
  slow(ms: number, from: string): void;
}

/** A pause the gate set, for the console and the tests. */
export interface GatePause {
  /** Ms from the gate's creation (its clock) to the end of the pause. */
  untilMs: number;
  ms: number;
  /** Where the server said it: `retry-after`, `x-ratelimit-reset-requests`, `backoff`... */
  from: string;
}

/** The gate of one endpoint. */
export interface EndpointGate extends AttemptGate {
  /** Host and port of the endpoint. */
  readonly host: string;
  readonly concurrency: number;
  /** Calls in flight now. */
  inFlight(): number;
  /** Every pause set so far. */
  readonly pauses: readonly GatePause[];
}

/** Options of {@link createEndpointGate}. */
export interface EndpointGateOptions {
  host: string;
  /** Calls in flight at once (at least 1). */
  concurrency: number;
  clock: GateClock;
  /** Told each time a rate-limit answer pauses the endpoint. */
  onPause?: (pause: GatePause) => void;
}

/** Make the gate of one endpoint. */
export function createEndpointGate(options: EndpointGateOptions): EndpointGate {
  const { clock } = options;
  const limit = Math.max(1, Math.floor(options.concurrency));
  const start = clock.now();
  let notBefore = -Infinity;
  let active = 0;
  const waiting: (() => void)[] = [];
  const pauses: GatePause[] = [];

  const leave = () => {
    active--;
    waiting.shift()?.();
  };

  return {
    host: options.host,
    concurrency: limit,
    pauses,
    inFlight: () => active,
    async enter(remainingMs) {
      const t0 = clock.now();
      for (;;) {
        const wait = notBefore - clock.now();
        if (wait > 0) {
          // A free slot is not taken while paused: pass the wake-up on, so no waiter is left behind.
          if (active < limit) waiting.shift()?.();
          const left = remainingMs();
          if (wait >= left) {
            return { stop: `the endpoint is paused for ${Math.ceil(wait)} ms more (a rate limit it answered), beyond the ${Math.max(0, Math.round(left))} ms left` };
          }
          await clock.sleep(wait);
          continue;
        }
        if (active < limit) {
          active++;
          return { leave, waitedMs: clock.now() - t0 };
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    slow(ms, from) {
      if (!(ms > 0)) return;
      const until = clock.now() + ms;
      if (until <= notBefore) return;
      notBefore = until;
      const pause = { untilMs: Math.round(until - start), ms: Math.round(ms), from };
      pauses.push(pause);
      options.onPause?.(pause);
    },
  };
}
