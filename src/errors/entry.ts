import type { Severity } from './diagnostic.ts';

/**
 * One entry of the error catalog. The code and name are permanent: tools and people search for
 * them. The message says what happened, why, and what to do; the hint is the shortest fix.
 */
export interface CatalogEntry<P extends Record<string, unknown> = Record<string, never>> {
  /** Stable code, by area: PK1xx load and validate, PK2xx lint, PK3xx bundle, PK4xx rehearse, PK5xx grade, PK6xx model, PK8xx the command line, PK9xx the kit's own failures. */
  code: string;
  /** Permanent PascalCase name. */
  name: string;
  /** Short title for the error reference. */
  title: string;
  /** Default severity. */
  severity: Severity;
  /** The message, from the entry's parameters. */
  message: (params: P) => string;
  /** The fix, from the entry's parameters. */
  hint: (params: P) => string;
}

export function entry<P extends Record<string, unknown> = Record<string, never>>(e: CatalogEntry<P>): CatalogEntry<P> {
  return e;
}
