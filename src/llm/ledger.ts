/**
 * The receipts of one model run, in the format of docs/live-models.md ("Receipts"):
 * `usage.jsonl` (one line per attempt, appended as it happens), `ledger.json` (the sum, with the
 * packet digest) and `give_up.json` (written when a cap stops the run). The sum is recomputed
 * from the lines, never kept apart, so the ledger cannot disagree with the receipts it sums.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { classInfo, type ErrorClass } from './error-class.ts';
import type { Spent } from './budget.ts';
import type { CallEstimate, StopReason } from './retry.ts';
import { redact, stableJson } from './stable-json.ts';
import { inertJson } from '../errors/escape.ts';
import { atPath } from '../errors/fs-fault.ts';

/** `write`, its error naming `file` (a write that fails for a full disk names no path of its own). */
async function writing(file: string, write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (err) {
    throw atPath(err, file);
  }
}

/**
 * Version of `ledger.json` and `give_up.json`. 2: token sums are null when any call's usage is
 * unknown (the known part is in `known_prompt_tokens` and `known_completion_tokens`).
 */
export const LEDGER_SCHEMA_VERSION = 2;

/** One line of `usage.jsonl`: one attempt. */
export interface UsageLine {
  /** ISO time the attempt started. */
  ts: string;
  /** The model id sent. */
  model: string;
  /** The model the server says answered, when it is not the one sent; else null. */
  served_model: string | null;
  /** The session turn (1 for the first prompt, then one per feedback turn). */
  turn: number;
  /** The attempt within the turn (1, then one per retry). */
  attempt: number;
  /** Prompt tokens as reported by the endpoint; null when it did not report them (unknown, not zero). */
  prompt_tokens: number | null;
  /** Completion tokens as reported; null when unknown. */
  completion_tokens: number | null;
  /** The prompt's tokens as the kit counted them before the call (cl100k_base, with the chat overhead). */
  prompt_estimate: number;
  /** The max_tokens the request sent. */
  max_tokens: number;
  /** Request body bytes sent. */
  bytes_out: number;
  /** Response body bytes received as they crossed the wire (compressed, when the server compressed them). */
  bytes_in: number;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** The error class, or null for a clean completion. */
  error: ErrorClass | null;
  /** What the server said about a failure, in its own words (cut, with keys removed); or what broke the connection. */
  message: string | null;
  /** The finish reason the server gave, or null. */
  finish_reason: string | null;
  /** Characters of reasoning kept apart from the answer (think tags, a reasoning field), or null when there was none. */
  reasoning_chars: number | null;
  /** Index (0-based line number) of the first earlier line with the same request and the same error, or null. */
  duplicate_of: number | null;
  /** sha256 (first 16 hex digits) of the request body. */
  request: string;
  /** Milliseconds the attempt took. */
  ms: number;
}

/** Who and what a ledger is about. */
export interface LedgerHeader {
  packet: string;
  version: string;
  digest: string;
  model: string;
  /** Endpoint host (and port) only: no scheme credentials, path or query. */
  endpoint: string;
}

/** `ledger.json`: the sum of `usage.jsonl`. */
export interface LedgerSummary extends LedgerHeader {
  schemaVersion: typeof LEDGER_SCHEMA_VERSION;
  calls: number;
  /**
   * Sum of the prompt tokens, or null when any call may have spent tokens nobody reported (a
   * completion without usage, a timeout, a cut body): unknown stays unknown, never zero. A
   * complete 4xx/5xx answer or a refused connection spends none by contract: its line says null,
   * but it does not make the sum unknown.
   */
  prompt_tokens: number | null;
  /** Sum of the completion tokens, or null (see `prompt_tokens`). */
  completion_tokens: number | null;
  /** Total tokens, or null (see `prompt_tokens`). */
  tokens: number | null;
  /** Sum of the prompt tokens the endpoint did report. */
  known_prompt_tokens: number;
  /** Sum of the completion tokens the endpoint did report. */
  known_completion_tokens: number;
  /** Calls whose tokens are unknown (see `prompt_tokens`). */
  usage_unknown_calls: number;
  bytes_out: number;
  bytes_in: number;
  /** Attempts by error class. */
  errors: Partial<Record<ErrorClass, number>>;
  /** Lines that repeat an earlier request with the same outcome. */
  duplicates: number;
}

/** Sum usage lines. Pure: the same lines always give the same sum. */
export function sumUsage(header: LedgerHeader, lines: readonly UsageLine[]): LedgerSummary {
  const errors: Partial<Record<ErrorClass, number>> = {};
  let prompt = 0;
  let completion = 0;
  let unknown = 0;
  let out = 0;
  let inn = 0;
  let duplicates = 0;
  for (const l of lines) {
    if (l.prompt_tokens === null || l.completion_tokens === null) {
      if (!l.error || classInfo(l.error).tokensUnknown) unknown++;
    } else {
      prompt += l.prompt_tokens;
      completion += l.completion_tokens;
    }
    out += l.bytes_out;
    inn += l.bytes_in;
    if (l.error) errors[l.error] = (errors[l.error] ?? 0) + 1;
    if (l.duplicate_of !== null) duplicates++;
  }
  return {
    schemaVersion: LEDGER_SCHEMA_VERSION,
    ...header,
    calls: lines.length,
    prompt_tokens: unknown ? null : prompt,
    completion_tokens: unknown ? null : completion,
    tokens: unknown ? null : prompt + completion,
    known_prompt_tokens: prompt,
    known_completion_tokens: completion,
    usage_unknown_calls: unknown,
    bytes_out: out,
    bytes_in: inn,
    errors,
    duplicates,
  };
}

/** `give_up.json`: why a cap stopped the run, and what was spent. */
export interface GiveUp {
  schemaVersion: typeof LEDGER_SCHEMA_VERSION;
  packet: string;
  digest: string;
  model: string;
  reason: StopReason;
  /** The stop in words. */
  detail: string;
  /** The cap's value. */
  limit: number;
  spent: Spent;
  /** For a token stop before a call: what that call could have cost (its prompt's estimate and max_tokens) on top of what was spent. */
  estimate?: CallEstimate;
  ts: string;
}

/** Where a ledger's files are (null when the ledger is kept in memory only). */
export interface ReceiptPaths {
  usage: string | null;
  ledger: string | null;
  giveUp: string | null;
}

/** The receipts of one run. */
export interface Ledger {
  readonly header: LedgerHeader;
  readonly lines: readonly UsageLine[];
  /** Append one attempt; `duplicate_of` is computed here. Written to usage.jsonl before it returns. */
  append(line: Omit<UsageLine, 'duplicate_of'>): Promise<UsageLine>;
  /** Write ledger.json (the sum of the lines, plus `extra`) and return the sum. */
  close(extra?: Record<string, unknown>): Promise<LedgerSummary>;
  /** Write give_up.json. */
  giveUp(g: Omit<GiveUp, 'schemaVersion' | 'packet' | 'digest' | 'model'>): Promise<GiveUp>;
  paths(): ReceiptPaths;
}

/**
 * A ledger writing into `dir` (created; usage.jsonl truncated), or kept in memory when `dir`
 * is null. Every string written passes through `redact` with `secrets` (API keys), as a second
 * lock: nothing the kit writes should hold a key in the first place.
 */
export async function createLedger(options: { dir: string | null; header: LedgerHeader; secrets?: readonly string[] }): Promise<Ledger> {
  const { dir, header } = options;
  // Stryker disable next-line ArrayDeclaration: equivalent; no text written holds the made-up secret.
  const secrets = options.secrets ?? [];
  const files = dir
    ? { usage: path.join(dir, 'usage.jsonl'), ledger: path.join(dir, 'ledger.json'), giveUp: path.join(dir, 'give_up.json') }
    : null;
  if (files) {
    await mkdir(dir!, { recursive: true });
    await writing(files.usage, writeFile(files.usage, ''));
  }
  const lines: UsageLine[] = [];
  const seen = new Map<string, number>();
  let gaveUp = false;
  let closed = false;
  return {
    header,
    lines,
    async append(partial) {
      const key = JSON.stringify([partial.request, partial.error, partial.status]);
      const line: UsageLine = { ...partial, duplicate_of: seen.get(key) ?? null };
      if (!seen.has(key)) seen.set(key, lines.length);
      lines.push(line);
      if (files) await writing(files.usage, appendFile(files.usage, redact(inertJson(stableJson(line)), secrets) + '\n'));
      return line;
    },
    async close(extra = {}) {
      const sum = sumUsage(header, lines);
      closed = true;
      if (files) await writing(files.ledger, writeFile(files.ledger, redact(inertJson(stableJson({ ...extra, ...sum }, 2)), secrets) + '\n'));
      return sum;
    },
    async giveUp(g) {
      const doc: GiveUp = { schemaVersion: LEDGER_SCHEMA_VERSION, packet: header.packet, digest: header.digest, model: header.model, ...g };
      gaveUp = true;
      if (files) await writing(files.giveUp, writeFile(files.giveUp, redact(inertJson(stableJson(doc, 2)), secrets) + '\n'));
      return doc;
    },
    paths: () => ({ usage: files?.usage ?? null, ledger: files && closed ? files.ledger : null, giveUp: files && gaveUp ? files.giveUp : null }),
  };
}
