/**
 * Grading the receipt (docs/grading.md, "Receipts"): a prompt with `receipts` asks the candidate for
 * the receipts of their own agent session, in the kit's documented format (the same section):
 * `usage.jsonl` (one line per model call), `ledger.json` (their sum, and the digest of the code
 * it was written for) and, when a cap stopped the run, `give_up.json`. The totals are recomputed
 * from the lines and compared with the ledger (within 5%), the packet's caps are checked, a cap
 * reached without a give-up and a give-up that names no cap reached are flagged, and the
 * ledger's code digest is compared with the code handed in. Pure.
 */
import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { finding, type Finding } from './findings.ts';
import type { Snapshot } from './snapshot.ts';

/** Where the receipts are, and the caps they are checked against. */
export interface ReceiptRules {
  /** Folder of the receipts, relative to the workspace root (`.` for the root). */
  dir: string;
  /** The packet's budget. */
  budget: { modelCalls: number; tokens: number; wallSeconds: number; identicalErrors: number };
  /** The workspace contract's allowed paths: the code digest covers these files. */
  allow: readonly string[];
}

/** The stop reasons give_up.json may name. */
const REASONS = ['model-calls', 'tokens', 'wall-clock', 'identical-errors'] as const;

/** The receipt files' paths. */
export function receiptPaths(dir: string): { usage: string; ledger: string; giveUp: string } {
  const at = (f: string) => (dir === '.' || dir === '' ? f : `${dir.replace(/\/+$/, '')}/${f}`);
  return { usage: at('usage.jsonl'), ledger: at('ledger.json'), giveUp: at('give_up.json') };
}

/**
 * The code digest a ledger names: sha256 over the files the contract allows, receipts
 * excluded, sorted by path, each as `path NUL size NUL bytes`. docs/grading.md says how to compute it.
 */
export function codeDigest(files: Snapshot, rules: Pick<ReceiptRules, 'dir' | 'allow'>): string {
  const paths = receiptPaths(rules.dir);
  const receipts = new Set([paths.usage, paths.ledger, paths.giveUp]);
  const allowed = picomatch([...rules.allow], { dot: true });
  const h = createHash('sha256');
  for (const p of [...files.keys()].filter((f) => allowed(f) && !receipts.has(f)).sort()) {
    const entry = files.get(p)!;
    const bytes = Buffer.from(typeof entry === 'string' ? entry : '');
    h.update(`${p}\0${bytes.byteLength}\0`).update(bytes);
  }
  return h.digest('hex');
}

interface Line {
  prompt: number | null;
  completion: number | null;
  ts: number | null;
  error: string | null;
  /** The HTTP status, when the line gives one. */
  status: number | null;
}

function isCount(v: unknown): v is number | null {
  return v === null || (Number.isInteger(v) && (v as number) >= 0);
}

/** The JSON object a text holds; anything else (no text, not JSON, null, an array, a scalar) is falsy. */
function jsonObject(text: string | undefined): Record<string, unknown> | null | undefined {
  try {
    // JSON.parse(undefined) throws like any text that is not JSON.
    const v: unknown = JSON.parse(text!);
    if (typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown> | null;
  } catch {
    // not JSON
  }
  return undefined;
}

function apart(a: number, b: number): boolean {
  return Math.abs(a - b) > 0.05 * Math.max(Math.abs(a), Math.abs(b), 1);
}

/** Check the receipts in a submission's files. */
export function checkReceipts(files: Snapshot, rules: ReceiptRules): Finding[] {
  const paths = receiptPaths(rules.dir);
  const out: Finding[] = [];
  const text = (p: string) => {
    const e = files.get(p);
    return typeof e === 'string' ? e : undefined;
  };
  const usageText = text(paths.usage);
  const ledgerText = text(paths.ledger);
  if (usageText === undefined) out.push(finding('receipts', GradeErrors.ReceiptsMissing, { file: paths.usage }, { file: paths.usage }));
  if (ledgerText === undefined) out.push(finding('receipts', GradeErrors.ReceiptsMissing, { file: paths.ledger }, { file: paths.ledger }));
  if (usageText === undefined) return out;

  const lines: Line[] = [];
  usageText.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    const bad = (reason: string) => out.push(finding('receipts', GradeErrors.ReceiptUnreadable, { file: paths.usage, line: i + 1, reason }, { file: paths.usage, line: i + 1 }));
    const row = jsonObject(raw);
    if (!row) return bad('not a JSON object');
    const p = row.prompt_tokens ?? null;
    const c = row.completion_tokens ?? null;
    if (!isCount(p) || !isCount(c)) return bad('prompt_tokens and completion_tokens must be whole numbers or null');
    const ts = typeof row.ts === 'string' ? Date.parse(row.ts) : NaN;
    lines.push({ prompt: p, completion: c, ts: Number.isNaN(ts) ? null : ts, error: typeof row.error === 'string' && row.error ? row.error : null, status: typeof row.status === 'number' ? row.status : null });
  });
  const calls = lines.length;
  // A complete error answer (HTTP 4xx/5xx) spends nothing, so its null usage is not unknown
  // spend; a completion without usage, or an attempt cut off, is (as in the kit's own ledger).
  const unknown = lines.some((l) => (l.prompt === null || l.completion === null) && (l.status ?? 0) < 400);
  const tokens = lines.reduce((sum, l) => sum + (l.prompt ?? 0) + (l.completion ?? 0), 0);

  const giveUpText = text(paths.giveUp);
  const giveUp = jsonObject(giveUpText);
  if (giveUpText !== undefined && !giveUp) out.push(finding('receipts', GradeErrors.ReceiptUnreadable, { file: paths.giveUp, line: 1, reason: 'not a JSON object' }, { file: paths.giveUp, line: 1 }));

  if (ledgerText !== undefined) {
    const ledger = jsonObject(ledgerText);
    if (!ledger) out.push(finding('receipts', GradeErrors.ReceiptUnreadable, { file: paths.ledger, line: 1, reason: 'not a JSON object' }, { file: paths.ledger, line: 1 }));
    else {
      const claim = (field: string, claimed: unknown, recomputed: number | null) => {
        if (claimed === undefined) return;
        const ok = claimed === null ? recomputed === null : typeof claimed === 'number' && recomputed !== null && !apart(claimed, recomputed);
        if (!ok) out.push(finding('receipts', GradeErrors.LedgerDisagrees, { field, claimed: String(claimed), recomputed: String(recomputed) }, { file: paths.ledger }));
      };
      if (ledger.calls === undefined) out.push(finding('receipts', GradeErrors.ReceiptUnreadable, { file: paths.ledger, line: 1, reason: 'it has no "calls"' }, { file: paths.ledger, line: 1 }));
      claim('calls', ledger.calls, calls);
      claim('tokens', ledger.tokens, unknown ? null : tokens);
      const digest = ledger.code_digest;
      const actual = codeDigest(files, rules);
      if (typeof digest !== 'string') out.push(finding('receipts', GradeErrors.ReceiptUnreadable, { file: paths.ledger, line: 1, reason: 'it has no "code_digest"' }, { file: paths.ledger, line: 1 }));
      else if (digest.toLowerCase() !== actual) out.push(finding('receipts', GradeErrors.CodeChangedAfterLedger, { claimed: digest, actual }, { file: paths.ledger }));
    }
  }

  const { budget } = rules;
  if (calls > budget.modelCalls) out.push(finding('receipts', GradeErrors.BudgetExceeded, { cap: 'model calls', limit: budget.modelCalls, spent: calls }, { file: paths.usage }));
  if (tokens > budget.tokens) out.push(finding('receipts', GradeErrors.BudgetExceeded, { cap: 'tokens', limit: budget.tokens, spent: tokens }, { file: paths.usage }));
  const stamps = lines.map((l) => l.ts).filter((t): t is number => t !== null);
  // Stryker disable next-line ConditionalExpression: equivalent; one stamp spans 0 s and none gives NaN, and neither reaches a cap above 0.
  const wallSeconds = stamps.length >= 2 ? (Math.max(...stamps) - Math.min(...stamps)) / 1000 : 0;
  let streak = 0;
  for (let i = lines.length - 1; i >= 0 && lines[i]!.error !== null && lines[i]!.error === lines.at(-1)!.error; i--) streak++;
  const reached: Record<(typeof REASONS)[number], boolean> = {
    'model-calls': calls >= budget.modelCalls,
    tokens: tokens >= budget.tokens || (typeof giveUp?.estimate === 'number' && tokens + giveUp.estimate > budget.tokens),
    'wall-clock': wallSeconds >= 0.9 * budget.wallSeconds,
    'identical-errors': streak >= budget.identicalErrors,
  };
  if (!giveUp) {
    if (reached['model-calls']) out.push(finding('receipts', GradeErrors.CapWithoutGiveUp, { cap: 'model-calls', limit: budget.modelCalls, spent: calls }, { file: paths.usage }));
    else if (tokens >= budget.tokens) out.push(finding('receipts', GradeErrors.CapWithoutGiveUp, { cap: 'tokens', limit: budget.tokens, spent: tokens }, { file: paths.usage }));
  } else {
    const reason = typeof giveUp.reason === 'string' ? giveUp.reason : '';
    if (!(REASONS as readonly string[]).includes(reason) || !reached[reason as (typeof REASONS)[number]]) {
      out.push(finding('receipts', GradeErrors.GiveUpWithoutCap, { reason: reason || '(none)' }, { file: paths.giveUp }));
    }
  }
  return out;
}
