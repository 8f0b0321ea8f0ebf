/**
 * The harness's record, as the kit reads it: one JSON line per event, each sealed with an
 * HMAC-SHA256 under a key made for this run alone and handed to the harness on a pipe. A line
 * that does not verify, a gap or a repeat in the sequence, anything after `done`, or no `done`
 * at all ends the trusted part of the record there: what comes after is not read, and the
 * judge calls the record broken (tampering, never a pass).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How one test ended, as the harness recorded it. */
export type HarnessOutcome = 'passed' | 'failed' | 'error' | 'skipped' | 'expected-failure' | 'unexpected-success';

/** One test, as the harness ran it. */
export interface HarnessTest {
  /** The runner's id (`tests.test_a.TestX.test_y`, or pytest's node id). */
  id: string;
  /** The test file, relative to the workspace. */
  file: string;
  outcome: HarnessOutcome;
  /** The first failure in one line (capped by the harness): text the code under test may have written. */
  message: string;
  /** Failing subTests of this test (the test counts once, failed if any subTest failed). */
  subtestsFailed: number;
  /** The test machinery was found changed right after this test. */
  tampered: boolean;
  /** The test method ran code from outside the packet's test files. */
  foreign: boolean;
}

/** A test module the harness loaded, or could not. */
export interface HarnessModule {
  file: string;
  module: string;
  ok: boolean;
  /** The import error, when it failed (the end of its traceback, capped). */
  error?: string;
}

/** A primitive the static screen found in a candidate file. */
export interface ScreenFinding {
  file: string;
  line: number;
  col: number;
  /** The primitive's id (see `src/packets/schema/primitives.ts`). */
  primitive: string;
  detail: string;
}

/** The static screen's answer. */
export interface ScreenResult {
  findings: ScreenFinding[];
  /** Per file, each logical line as the tokenizer reads it (strings joined, `getattr(x, "a")` as `x.a`), where it differs from the raw line. */
  normalized: Record<string, [number, string][]>;
}

/** Something the audit hook refused. */
export interface AuditEvent {
  event: string;
  file: string;
  line: number;
  detail: string;
  /** The test that was running, when one was. */
  test: string | null;
}

/** A change to the test machinery found between tests. */
export interface IntegrityEvent {
  where: string;
  problems: string[];
}

/** Everything the record says that verified. */
export interface HarnessRecord {
  /** Why the record cannot be read whole: a bad seal, a gap, a cut, lines after the end, no end. Empty for a sound record. */
  problems: string[];
  /** The record verified to its `done` line. */
  complete: boolean;
  /** The screen's findings, when it ran. */
  screen: ScreenResult | null;
  /** Why the screen could not read a file or run. */
  screenErrors: string[];
  modules: HarnessModule[];
  tests: HarnessTest[];
  integrity: IntegrityEvent[];
  audit: AuditEvent[];
}

/** A fresh key for one run. */
export function harnessKey(): Buffer {
  return randomBytes(32);
}

/** The seal of one line's body. */
export function seal(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body, 'utf8').digest('hex');
}

const OUTCOMES: ReadonlySet<string> = new Set(['passed', 'failed', 'error', 'skipped', 'expected-failure', 'unexpected-success']);

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Read and verify a record. `truncated`: the sandbox cut the record at its cap. */
export function readRecord(text: string, key: Buffer, truncated = false): HarnessRecord {
  const record: HarnessRecord = { problems: [], complete: false, screen: null, screenErrors: [], modules: [], tests: [], integrity: [], audit: [] };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let seq = 0;
  for (const [index, line] of lines.entries()) {
    if (record.complete) {
      record.problems.push(`${lines.length - index} line(s) follow the end of the record`);
      break;
    }
    const space = line.lastIndexOf(' ');
    const body = space > 0 ? line.slice(0, space) : '';
    const tag = space > 0 ? line.slice(space + 1) : '';
    const expected = Buffer.from(seal(key, body), 'hex');
    const given = /^[0-9a-f]{64}$/.test(tag) ? Buffer.from(tag, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      record.problems.push(`line ${index + 1} of the record does not carry the run's seal (written by something other than the harness)`);
      break;
    }
    let event: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      event = parsed as Record<string, unknown>;
    } catch {
      record.problems.push(`line ${index + 1} of the record is not a JSON object`);
      break;
    }
    if (event.seq !== seq) {
      record.problems.push(`line ${index + 1} of the record is out of sequence (${String(event.seq)} where ${seq} was due)`);
      break;
    }
    seq += 1;
    take(record, event);
  }
  if (!record.complete && record.problems.length === 0) {
    record.problems.push(truncated ? 'the record was cut at its size cap' : 'the record ends before the harness finished (the process died or was stopped)');
  }
  return record;
}

function take(record: HarnessRecord, e: Record<string, unknown>): void {
  switch (e.kind) {
    case 'done':
      record.complete = true;
      return;
    case 'screen': {
      const findings = Array.isArray(e.findings) ? e.findings : [];
      const normalized = e.normalized && typeof e.normalized === 'object' ? (e.normalized as Record<string, unknown>) : {};
      record.screen = {
        findings: findings.map((f: Record<string, unknown>) => ({ file: str(f.file), line: num(f.line), col: num(f.col), primitive: str(f.primitive), detail: str(f.detail) })),
        normalized: Object.fromEntries(
          Object.entries(normalized).map(([file, rows]) => [file, (Array.isArray(rows) ? rows : []).filter((r): r is [number, string] => Array.isArray(r) && typeof r[0] === 'number' && typeof r[1] === 'string')]),
        ),
      };
      return;
    }
    case 'screen-error':
      record.screenErrors.push(`${str(e.file) || 'the screen'}: ${str(e.error)}`);
      return;
    case 'module':
      record.modules.push({ file: str(e.file), module: str(e.module), ok: e.ok === true, ...(e.ok === true ? {} : { error: str(e.error) }) });
      return;
    case 'test': {
      const outcome = str(e.outcome);
      record.tests.push({
        id: str(e.id),
        file: str(e.file),
        outcome: (OUTCOMES.has(outcome) ? outcome : 'error') as HarnessOutcome,
        message: str(e.message),
        subtestsFailed: num(e.subtestsFailed),
        tampered: e.tampered === true,
        foreign: e.foreign === true,
      });
      return;
    }
    case 'integrity':
      record.integrity.push({ where: str(e.where), problems: (Array.isArray(e.problems) ? e.problems : []).map((p) => str(p)) });
      return;
    case 'audit':
      record.audit.push({ event: str(e.event), file: str(e.file), line: num(e.line), detail: str(e.detail), test: typeof e.test === 'string' ? e.test : null });
      return;
    default:
      return;
  }
}

/**
 * The record as a runner's report, for people, models and the output signals to read: one
 * `FAIL:`/`ERROR:` block per failing test in unittest's words (pytest ids as pytest prints them),
 * then the count. Made by the kit from the sealed record, so nothing the code under test printed
 * is in it but the failure messages, which the harness capped. `hide` drops the kit's canaries.
 */
export function recordReport(record: HarnessRecord, hide: ReadonlySet<string> = new Set()): string {
  const out: string[] = [];
  const shown = record.tests.filter((t) => !hide.has(t.id));
  for (const m of record.modules) if (!m.ok) out.push(`ERROR: ${m.module} (unittest.loader._FailedTest.${m.module})`, indent(m.error ?? ''), '');
  for (const t of shown) {
    if (t.outcome !== 'failed' && t.outcome !== 'error' && t.outcome !== 'unexpected-success') continue;
    const word = t.outcome === 'failed' ? 'FAIL' : t.outcome === 'error' ? 'ERROR' : 'UNEXPECTED SUCCESS';
    const method = t.id.includes('::') ? t.id : t.id.split('.').at(-1)!;
    out.push(t.id.includes('::') ? `${word === 'FAIL' ? 'FAILED' : word} ${t.id}` : `${word}: ${method} (${t.id})`, indent(t.message), '');
  }
  const failed = shown.filter((t) => t.outcome === 'failed').length;
  const errors = shown.filter((t) => t.outcome === 'error').length + record.modules.filter((m) => !m.ok).length;
  const skipped = shown.filter((t) => t.outcome === 'skipped').length;
  const detail = [failed && `failures=${failed}`, errors && `errors=${errors}`, skipped && `skipped=${skipped}`].filter(Boolean).join(', ');
  out.push('-'.repeat(70), `Ran ${shown.length} tests (the kit's harness record${record.complete ? '' : ', incomplete'})`, failed || errors ? `FAILED (${detail})` : skipped ? `OK (${detail})` : 'OK');
  return out.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `    ${l}`)
    .join('\n');
}
