/**
 * A finding: one reason a workspace is not PASS, as data. It carries its catalog code, a
 * place (file and line where there is one), a message and a hint, and the kind of evidence it
 * comes from, which decides the verdict (see `judge.ts`).
 */
import type { CatalogEntry } from '../errors/entry.ts';

/** Where a finding's evidence comes from. */
export type FindingKind =
  /** The sandbox could not run the tests: nothing was judged. */
  | 'infra'
  /** The run did not produce trustworthy results: a crash, a hang, a flood, missing or skipped tests. */
  | 'run'
  /** Visible tests failed. */
  | 'tests'
  /** Held-out tests failed. */
  | 'hidden-tests'
  /** The results were forged: canaries, exit code, repeated summaries, protected files rewritten during the run. */
  | 'tamper'
  /** The submission touched a protected file. */
  | 'protected'
  /** The workspace contract: paths outside `allow`, forbidden patterns, runner hooks. */
  | 'contract'
  /** A deliverable is missing. */
  | 'deliverable'
  /** A failure mode's signal matched. */
  | 'signal'
  /** A file the kit would not read (a link, a FIFO, a device, too large). */
  | 'unsafe'
  /** A submission refused at intake (a hostile or broken archive): not graded. */
  | 'intake'
  /** A secret in a submission. */
  | 'secret'
  /** The receipts (usage.jsonl, ledger.json, give_up.json) disagree, overspend or are missing. */
  | 'receipts'
  /** The submission names another packet version (a warning: graded against the current one). */
  | 'version';

/** One finding. */
export interface Finding {
  /** Stable catalog code, e.g. `PK420`. */
  code: string;
  /** The catalog entry's permanent name. */
  name: string;
  kind: FindingKind;
  /** `error` keeps a run from PASS; a `warning` is said and does not. */
  severity: 'error' | 'warning';
  /** What happened, why, and what it means for the verdict. */
  message: string;
  /** What to do. */
  hint: string;
  /** The file, relative to the workspace root, when there is one. */
  file?: string;
  /** 1-based line in `file`. */
  line?: number;
  /** For `signal` findings: the failure mode. */
  mode?: string;
}

type ParamsOf<E> = E extends CatalogEntry<infer P> ? P : never;

/** Build a finding from a catalog entry. */
export function finding<E extends CatalogEntry<any>>(kind: FindingKind, e: E, params: ParamsOf<E>, place: { file?: string; line?: number; mode?: string } = {}): Finding {
  return {
    code: e.code,
    name: e.name,
    kind,
    severity: e.severity,
    message: e.message(params),
    hint: e.hint(params),
    ...(place.file !== undefined ? { file: place.file } : {}),
    ...(place.line !== undefined ? { line: place.line } : {}),
    ...(place.mode !== undefined ? { mode: place.mode } : {}),
  };
}
