import path from 'node:path';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';

/**
 * What every step of a build shares: step times, the interruption gate, the stop signal of the
 * Astro child, the work still running, and the failure that carries a step's name to the top.
 */

/** The steps of a build, in order. */
export const BUILD_STEPS = ['check', 'rehearse', 'labs', 'zips', 'site', 'search', 'canary', 'reviewer', 'publish'] as const;
/** A step of a build. */
export type BuildStep = (typeof BUILD_STEPS)[number];

/** A build failure carried to the top: the step, the packets, the diagnostic, the exit code. */
export class StepFailure extends Error {
  readonly step: BuildStep | 'interrupted';
  readonly packets: string[];
  readonly diagnostic: Diagnostic;
  readonly exitCode: number;
  constructor(step: BuildStep | 'interrupted', packets: string[], diagnostic: Diagnostic, exitCode = 1) {
    super(diagnostic.message);
    this.step = step;
    this.packets = packets;
    this.diagnostic = diagnostic;
    this.exitCode = exitCode;
  }
}

/** A promise's outcome, without throwing. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Wait for a promise without throwing: its value or its error. */
export function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The value of a settled promise, or its error thrown. */
export function unwrap<T>(s: Settled<T>): T {
  if (!s.ok) throw s.error;
  return s.value;
}

/** One build's shared state. */
export interface BuildRun {
  /** The step started last (a fault in the build's own folders is reported as its). */
  current: BuildStep | undefined;
  /** Milliseconds per step; steps that run in parts add up. */
  durations: Partial<Record<BuildStep, number>>;
  /** Run `fn` as (part of) a step, timing it. */
  timed<T>(step: BuildStep, fn: () => Promise<T>): Promise<T>;
  /** A step's time as the log shows it: `(1.2 s)`. */
  secs(step: BuildStep): string;
  /** A path relative to the working directory, with forward slashes. */
  rel(p: string): string;
  /** Throw the interruption when the build was asked to stop. */
  gate(): void;
  /** The interruption, as a failure. */
  interrupted(): StepFailure;
  /** Aborted on any failure or interruption: stops the Astro child. */
  stop: AbortController;
  /** Work started and not yet awaited; the build waits for it before removing its staging folders. */
  pending: Promise<unknown>[];
  /** Forget the outside signal (the build is over). */
  detach(): void;
}

/** Start a build's shared state. `signal` is the outside interruption (Ctrl-C); `now` a monotonic clock. */
export function startRun(options: { cwd: string; outDir: string; signal: AbortSignal; now(): number }): BuildRun {
  const durations: Partial<Record<BuildStep, number>> = {};
  const stop = new AbortController();
  const onSignal = () => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', onSignal);
  const rel = (p: string) => path.relative(options.cwd, p).split(path.sep).join('/') || '.';
  const interrupted = () =>
    new StepFailure('interrupted', [], diagnose(BundleErrors.BuildInterrupted, { file: rel(options.outDir) }, { signal: String(options.signal.reason ?? 'aborted') }), 130);
  const run: BuildRun = {
    current: undefined,
    durations,
    async timed(step, fn) {
      run.current = step;
      const t0 = options.now();
      try {
        return await fn();
      } finally {
        durations[step] = (durations[step] ?? 0) + Math.round(options.now() - t0);
      }
    },
    secs: (step) => `(${((durations[step] ?? 0) / 1000).toFixed(1)} s)`,
    rel,
    gate() {
      if (options.signal.aborted) throw interrupted();
    },
    interrupted,
    stop,
    pending: [],
    detach: () => options.signal.removeEventListener('abort', onSignal),
  };
  return run;
}

/** The ids of the packets the diagnostics are about (by their folder), in order; a file outside every packet by its name. */
export function packetNamesOf(list: readonly Diagnostic[], sources: readonly { id: string; dir: string }[]): string[] {
  const ids = new Set<string>();
  for (const d of list) ids.add(sources.find((s) => d.file === s.dir || d.file.startsWith(`${s.dir}/`))?.id ?? d.file);
  return [...ids];
}

/** A byte count for the log. */
export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
