import path from 'node:path';
import type { BudgetLimits } from '../llm/budget.ts';
import { classInfo } from '../llm/error-class.ts';
import { testsOf, type SessionResult } from './session.ts';
import { sortKeys } from '../llm/stable-json.ts';
import type { CheckVariant, ModelRunReport } from './report.ts';

/** The report entry of one model run: verdict, spend and receipts (paths relative to `cwd`), keys sorted. */
export function modelRunReport(
  result: SessionResult,
  about: { date: string; packet: string; version: string; digest: string; model: string; named?: string; endpoint: string; budget: BudgetLimits; cwd: string; variant?: CheckVariant },
): ModelRunReport {
  const rel = (p: string | null) => (p ? path.relative(about.cwd, p) || p : null);
  const l = result.ledger;
  const entry: ModelRunReport = {
    date: about.date,
    packet: about.packet,
    version: about.version,
    digest: about.digest,
    ...(about.variant ? { variant: { id: about.variant.id, values: { ...about.variant.values } } } : {}),
    model: about.model,
    ...(about.named !== undefined ? { named: about.named } : {}),
    endpoint: about.endpoint,
    verdict: result.verdict,
    reason: result.reason,
    ...(result.inconclusiveCause ? { inconclusiveCause: result.inconclusiveCause } : {}),
    possibleLeak: result.possibleLeak,
    caughtBy: result.caughtBy,
    findings: result.findings,
    signals: result.signals,
    calls: l.calls,
    turns: result.turns.length,
    tokens: { prompt: l.known_prompt_tokens, completion: l.known_completion_tokens, total: l.tokens, unknownCalls: l.usage_unknown_calls },
    bytes: { out: l.bytes_out, in: l.bytes_in },
    wallMs: result.spent.wallMs,
    errors: l.errors,
    stop: result.stop?.reason ?? null,
    budget: about.budget,
    receipts: { usage: rel(result.receipts.usage), ledger: rel(result.receipts.ledger), giveUp: rel(result.receipts.giveUp) },
    ...(testsOf(result.evaluation) && result.evaluation?.verdict !== 'INCONCLUSIVE' ? { tests: testsOf(result.evaluation)! } : {}),
    ...(result.failure ? { failure: { ...result.failure, hint: classInfo(result.failure.error).hint } } : {}),
    ...(result.servedModels.length ? { servedModels: result.servedModels } : {}),
  };
  const notes = result.turns.flatMap((t) => (t.notes ?? []).map((n) => `turn ${t.turn}: ${n}`));
  if (notes.length) entry.notes = notes;
  const thought = result.turns.filter((t) => t.reasoning);
  if (thought.length) entry.reasoning = { turns: thought.length, chars: thought.reduce((n, t) => n + t.reasoning!.chars, 0) };
  return sortKeys(entry);
}

/** A filesystem-safe timestamp for output folders: `2026-11-29T12-00-00-000Z`. */
export function folderTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}
