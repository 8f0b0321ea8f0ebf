import { shownName } from './safe-name.ts';

/** How bad a diagnostic is. Errors fail `packet check`; warnings fail it only with `--strict`. */
export type Severity = 'error' | 'warning';

/** One problem found in a packet, with the place it was found. Diagnostics are data. */
export interface Diagnostic {
  /** The stable catalog code, e.g. `PK106`. */
  code: string;
  /** The catalog entry's permanent name, e.g. `UnknownField`. */
  name: string;
  /** Error or warning. */
  severity: Severity;
  /** What happened and why, in a sentence or two. */
  message: string;
  /** What to do about it. */
  hint: string;
  /** The file, relative to the working directory where possible. */
  file: string;
  /** 1-based line, when the problem has a place in the file. */
  line?: number;
  /** 1-based column, when the problem has a place in the file. */
  column?: number;
  /** The lint rule that reported it (`prompt-length`), for lint diagnostics: the name to configure or disable. */
  rule?: string;
  /** True when the place holds a secret: tools must never print its source line (no code frame). */
  sensitive?: boolean;
}

/**
 * A path as messages show it: control, bidi and zero-width characters written as escapes (`\n`,
 * `\u001b`, `\u202e`), so a name cannot break, forge or reorder a line of output.
 */
export const shownPath = shownName;

/** A place in a file. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

/** Sort diagnostics by file, line, column, code, so output is stable. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
}

/** True when any diagnostic fails the run at the given strictness. */
export function failsRun(list: readonly Diagnostic[], strict: boolean): boolean {
  return list.some((d) => d.severity === 'error' || (strict && d.severity === 'warning'));
}
