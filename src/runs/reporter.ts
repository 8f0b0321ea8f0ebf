/**
 * What every kind of run shares in its reporters: the lines for the person at the terminal that
 * are not part of a run's result (notes, a flag that is wrong, a coded diagnostic), and the
 * fan-out that lets a run report to several reporters as if to one. Reporters only observe: a
 * run never depends on one, and every hook is optional.
 */
import type { Diagnostic } from '../errors/diagnostic.ts';
import { renderDiagnostic } from '../errors/render.ts';

/** The messages a run has besides its result; every kind of reporter takes them. */
export interface RunMessages {
  /** A line of text for the terminal's error stream: a note, or why the run cannot start. */
  onMessage?(text: string): void;
  /** A coded diagnostic of the run (an error, or a warning the run goes on after). */
  onDiagnostic?(diagnostic: Diagnostic): void;
  /** The packets' own diagnostics (what `packet check` reports) that stop the run. */
  onPacketDiagnostics?(list: readonly Diagnostic[]): void;
}

/** A diagnostic as the run commands print it: the one renderer, without the place (code, `warning` for a warning, message, hint). */
export function diagnosticText(d: Diagnostic): string {
  return renderDiagnostic(d, { place: false });
}

/**
 * The run messages on an error stream: each message as written, each diagnostic in
 * {@link diagnosticText}, the packets' diagnostics in `list` (the CLI's `file:line CODE` form).
 */
export function messagesTo(err: (text: string) => void, list: (diagnostics: readonly Diagnostic[]) => string): Required<RunMessages> {
  return {
    onMessage: (text) => err(text),
    onDiagnostic: (d) => err(diagnosticText(d)),
    onPacketDiagnostics: (diagnostics) => err(list(diagnostics)),
  };
}

type Hooks<R> = { [K in keyof R]-?: NonNullable<R[K]> };

/**
 * One reporter that tells each of `reporters`, in order, of every event any of them listens
 * for; a hook none of them has is absent, so `reporter.onX?.()` stays a cheap no-op. A hook that
 * returns a promise is waited for before the next reporter is told.
 */
export function fanOut<R extends object>(reporters: readonly R[]): R {
  const names = new Set<string>();
  for (const r of reporters) for (const key of Object.keys(r)) if (typeof (r as Record<string, unknown>)[key] === 'function') names.add(key);
  const out: Record<string, (...args: unknown[]) => unknown> = {};
  for (const name of names) {
    const listeners = reporters.filter((r) => typeof (r as Record<string, unknown>)[name] === 'function') as unknown as Hooks<Record<string, (...args: unknown[]) => unknown>>[];
    out[name] = (...args: unknown[]) => {
      let pending: Promise<unknown> | undefined;
      for (const r of listeners) {
        const call = () => r[name]!.call(r, ...args);
        if (pending) pending = pending.then(call);
        else {
          const result = call();
          if (result instanceof Promise) pending = result;
        }
      }
      return pending;
    };
  }
  return out as R;
}
