/**
 * One model run on one packet: send the prompt and the context files, parse the reply, judge it
 * (the judge lays it over the starter in a sandbox workspace, runs every test with canaries,
 * checks the contract, deliverables and signals), and, within the budget, feed the visible
 * tests' failures back for a few more turns. The run ends in one verdict:
 *
 * - PASS: the judge found nothing: every expected test ran and passed, nothing forged, the
 *   contract kept, every deliverable there, no signal.
 * - CAUGHT: the judge found a reason the answer is wrong that the candidate could see.
 * - FALSE-GREEN: only held-out tests or a signal object: the visible tests are too weak.
 * - GAVE-UP: a cap of the budget stopped the run after the model had answered (give_up.json).
 * - INCONCLUSIVE: no answer could be judged (endpoint down, a reply with no code or that cannot
 *   be applied, a sandbox failure, a budget too small for the first call). A dead endpoint is
 *   never GAVE-UP and never a pass, whatever stopped the retries.
 *
 * Only the final answer is parsed: the client keeps the reasoning apart, and a feedback turn
 * sends the model its answer back without it.
 */
import type { BudgetLimits, Spent } from '../llm/budget.ts';
import { describeFailure, type Failure, type ModelClient } from '../llm/client.ts';
import type { AttemptGate } from '../llm/endpoint-gate.ts';
import type { Ledger, LedgerSummary, ReceiptPaths } from '../llm/ledger.ts';
import { parseReply } from '../llm/reply-parse.ts';
import type { RetryPolicy, StopReason, WaitPlan } from '../llm/retry.ts';
import type { Finding } from '../judge/findings.ts';
import { judgeRun, visibleOutput } from '../judge/judge-run.ts';
import type { Judgement, JudgeRules, SignalMatch, TestCounts, Verdict as JudgeVerdict } from '../judge/judge.ts';
import { receiptPaths } from '../judge/receipts.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { createTurnLoop, systemClock, type RunClock } from '../runs/turn-loop.ts';
import { contextPaths, feedbackMessage, firstMessages } from './session-messages.ts';

/** How a model run ended. */
export type Verdict = JudgeVerdict | 'GAVE-UP';

/** Clocks, randomness and sleep, injected (the run layer's clock). */
export type SessionClock = RunClock;

export { systemClock };

/** What a run needs. */
export interface SessionOptions {
  /** The packet's files and rules (read once per packet). */
  files: PacketFiles;
  client: ModelClient;
  model: string;
  limits: BudgetLimits;
  policy?: RetryPolicy;
  runner: TestRunner;
  scratchDir: string;
  /** Feedback turns after the first answer (0: one answer only). */
  feedbackTurns: number;
  /** Stop after this many answers in a row that change no test result. */
  stallCalls: number;
  ledger: Ledger;
  clock: SessionClock;
  /** Wraps each sandbox run (a shared pool). */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Told about waits between attempts. */
  onWait?: (plan: WaitPlan, retry: number) => void;
  /** The max_tokens each request sends (the client's default when unset). */
  maxReplyTokens?: number;
  /** The endpoint's gate, shared with the other sessions calling it. */
  gate?: AttemptGate;
}

/** One judged answer. */
export interface Evaluation {
  verdict: JudgeVerdict;
  /** The judgement; absent when the files could not be laid out. */
  judgement?: Judgement;
  /** Why the files could not be laid out (a file where a folder must be). */
  rejected?: string;
  /** The run in words. */
  summary: string;
  outputTail: string;
  /** Equal keys mean the answer changed no result. */
  resultKey: string;
  durationMs: number;
}

/** One turn of the run. */
export interface TurnRecord {
  turn: number;
  /** Attempts this turn (model calls). */
  calls: number;
  /** The call's final error class, if any. */
  error: string | null;
  /** `files`, `diff` or `files+diff` when the reply parsed; otherwise why it was rejected. */
  reply: string;
  /** Reasoning kept apart from the answer: where it was, and its length in characters. */
  reasoning?: { sources: string[]; chars: number };
  /** What the parser noted (a path given twice, a whole file and a diff for one path and which was applied). */
  notes?: string[];
  verdict?: JudgeVerdict;
  tests?: string;
}

/** Why a run was inconclusive. */
export type InconclusiveCause = 'endpoint' | 'no-code' | 'reply' | 'sandbox' | 'budget';

/** What caught a wrong answer, by the kind of evidence (`visible-tests`, `hidden-tests`, `signal`, `tamper`, `contract`, ...). */
export type CaughtBy = string;

/** The outcome of a run. */
export interface SessionResult {
  verdict: Verdict;
  /** The verdict in words. */
  reason: string;
  inconclusiveCause?: InconclusiveCause;
  /** What caught a wrong answer (CAUGHT, FALSE-GREEN, or the last judged answer of a GAVE-UP run). */
  caughtBy: CaughtBy[];
  /** The judge's findings on the last judged answer. */
  findings: Finding[];
  signals: SignalMatch[];
  /** PASS on the first answer: the packet may leak its answer. */
  possibleLeak: boolean;
  /** The last judged answer. */
  evaluation?: Evaluation;
  turns: TurnRecord[];
  stop?: { reason: StopReason; detail: string };
  /** The failed attempt that ended the run's last call, as the server put it (class, status, message). */
  failure?: Failure;
  /** Models the server says answered, when not the one asked for. */
  servedModels: string[];
  spent: Spent;
  ledger: LedgerSummary;
  receipts: ReceiptPaths;
}

/** The kinds of evidence that caught an answer, in the report's words. */
export function caughtByOf(findings: readonly Finding[]): CaughtBy[] {
  const names = findings.map((f) => (f.kind === 'tests' ? 'visible-tests' : f.kind));
  return [...new Set(names)];
}

/**
 * The rules a model's answer is judged by: the packet's, except the receipts of the candidate's
 * own agent session. In a model run the kit keeps the receipts itself (usage.jsonl, ledger.json),
 * so the model is not asked to write them.
 */
export function modelRunRules(rules: JudgeRules): JudgeRules {
  if (!rules.receipts) return rules;
  const paths = Object.values(receiptPaths(rules.receipts.dir));
  const { receipts: _receipts, ...rest } = rules;
  return { ...rest, deliverables: rules.deliverables.filter((d) => !paths.includes(d)) };
}

/** Judge the files a reply wrote (all turns so far). */
async function judgeFiles(o: SessionOptions, files: ReadonlyMap<string, string>, deleted: readonly string[]): Promise<Evaluation> {
  const t0 = o.clock.now();
  const judged = await judgeRun({
    files: o.files,
    rules: modelRunRules(o.files.rules),
    submission: { files, deleted },
    withHidden: true,
    runner: o.runner,
    scratchDir: o.scratchDir,
    random: o.clock.random,
    now: o.clock.now,
    ...(o.schedule ? { schedule: o.schedule } : {}),
  });
  if ('rejected' in judged) {
    return { verdict: 'INCONCLUSIVE', rejected: judged.rejected, summary: judged.rejected, outputTail: '', resultKey: `rejected:${judged.rejected}`, durationMs: o.clock.now() - t0 };
  }
  const j = judged.judgement;
  return {
    verdict: j.verdict,
    judgement: j,
    summary: j.description,
    outputTail: judged.outputTail,
    resultKey: JSON.stringify({ findings: j.findings.map((f) => `${f.code}:${f.file ?? ''}`), failing: j.tests.failing }),
    durationMs: judged.durationMs,
  };
}

/** Run one model on one packet. Never throws for endpoint or reply trouble: those are verdicts. */
export async function runSession(o: SessionOptions): Promise<SessionResult> {
  const { clock } = o;
  const packet = o.files.packet;
  const loop = createTurnLoop({
    client: o.client,
    model: o.model,
    limits: o.limits,
    ledger: o.ledger,
    clock,
    feedbackTurns: o.feedbackTurns,
    ...(o.policy ? { policy: o.policy } : {}),
    ...(o.onWait ? { onWait: o.onWait } : {}),
    ...(o.maxReplyTokens ? { maxReplyTokens: o.maxReplyTokens } : {}),
    ...(o.gate ? { gate: o.gate } : {}),
  });
  const { meter } = loop;
  const starter = new Map<string, string>();
  for (const [p, bytes] of o.files.starter) if (!bytes.includes(0)) starter.set(p, bytes.toString('utf8'));
  const context = new Map(contextPaths(packet).filter((p) => starter.has(p)).map((p) => [p, starter.get(p)!] as [string, string]));
  const base = firstMessages(packet, context);
  const current = new Map(starter);
  const files = new Map<string, string>();
  const deleted = new Set<string>();
  const turns: TurnRecord[] = [];
  let last: Evaluation | undefined;
  let lastKey: string | undefined;
  let stall = 0;

  const finish = async (r: Omit<SessionResult, 'spent' | 'ledger' | 'receipts' | 'turns' | 'caughtBy' | 'findings' | 'signals' | 'possibleLeak' | 'servedModels'> & { possibleLeak?: boolean }): Promise<SessionResult> => {
    const spent = meter.spent();
    const ledger = await o.ledger.close({
      verdict: r.verdict,
      stop: r.stop?.reason ?? null,
      wall_ms: spent.wallMs,
      turns: turns.length,
    });
    const findings = r.evaluation?.judgement?.findings ?? [];
    return {
      ...r,
      servedModels: [...new Set(o.ledger.lines.map((l) => l.served_model).filter((m) => m !== null))],
      possibleLeak: r.possibleLeak ?? false,
      caughtBy: r.verdict === 'PASS' ? [] : caughtByOf(findings),
      findings,
      signals: r.evaluation?.judgement?.signals ?? [],
      turns,
      spent,
      ledger,
      receipts: o.ledger.paths(),
    };
  };

  const outcome = await loop.run<SessionResult>(base, async (call, turn, more) => {
    if (call.stop) {
      turns.push({ turn, calls: call.attempts, error: call.error, reply: `stopped: ${call.stop.detail}` });
      const failure = call.failure ? { failure: call.failure } : {};
      if (!last) {
        // No attempt failed: the budget alone stopped the run before any answer (a budget too small, not an endpoint down).
        const budgetOnly = call.stopped?.budgetOnly ?? false;
        return { done: await finish({
          verdict: 'INCONCLUSIVE',
          inconclusiveCause: budgetOnly ? 'budget' : 'endpoint',
          reason: `no answer could be judged: ${call.stop.detail}${call.failure ? `; the last attempt ended ${describeFailure(call.failure)}` : ''}`,
          stop: call.stop,
          ...failure,
        }) };
      }
      return { done: await finish({ verdict: 'GAVE-UP', reason: `${call.stop.detail}; the last answer was ${last.verdict}`, stop: call.stop, evaluation: last, ...failure }) };
    }
    if (call.output === null) {
      turns.push({ turn, calls: call.attempts, error: call.error, reply: 'no answer' });
      const why = `the endpoint gave no usable answer: ${call.detail ?? call.error ?? 'unknown error'}`;
      const failure = call.failure ? { failure: call.failure } : {};
      // An answer was already judged (and was not a pass): that verdict stands.
      if (last) return { done: await finish({ verdict: last.verdict, reason: `${describeCatch(last)} (${last.summary}); then ${why}`, evaluation: last, ...failure }) };
      return { done: await finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'endpoint', reason: why, ...failure }) };
    }
    const parsed = parseReply(call.output, current);
    const kept = call.reasoning ? { reasoning: call.reasoning } : {};
    if (!parsed.ok) {
      turns.push({ turn, calls: call.attempts, error: call.error, reply: `rejected: ${parsed.reason}`, ...kept });
      stall = lastKey === 'rejected' ? stall + 1 : 0;
      lastKey = 'rejected';
      if (!more || stall >= o.stallCalls) {
        if (last) return { done: await finish({ verdict: last.verdict, reason: `${describeCatch(last)} (${last.summary}); the next reply could not be applied: ${parsed.reason}`, evaluation: last }) };
        if (parsed.noCode) {
          return { done: await finish({
            verdict: 'INCONCLUSIVE',
            inconclusiveCause: 'no-code',
            reason: `the model answered without code (${parsed.reason}); the endpoint is up, the answer holds nothing to judge`,
          }) };
        }
        return { done: await finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: `the reply could not be applied: ${parsed.reason}` }) };
      }
      return { next: [...base, { role: 'assistant', content: call.output }, { role: 'user', content: feedbackMessage({ rejected: parsed.reason }) }] };
    }
    for (const [p, t] of parsed.files) {
      files.set(p, t);
      current.set(p, t);
      deleted.delete(p);
    }
    for (const d of parsed.deleted) {
      files.delete(d);
      current.delete(d);
      deleted.add(d);
    }
    const evaluation = await judgeFiles(o, files, [...deleted]);
    turns.push({
      turn,
      calls: call.attempts,
      error: call.error,
      reply: evaluation.rejected ? `rejected: ${evaluation.rejected}` : parsed.format,
      verdict: evaluation.verdict,
      tests: evaluation.summary,
      ...kept,
      ...(parsed.notes.length ? { notes: parsed.notes } : {}),
    });
    if (evaluation.rejected) {
      return { done: await finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: `the reply could not be applied: ${evaluation.rejected}`, evaluation }) };
    }
    if (evaluation.verdict === 'INCONCLUSIVE') {
      return { done: await finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'sandbox', reason: evaluation.judgement?.findings.find((f) => f.kind === 'infra')?.message ?? evaluation.summary, evaluation }) };
    }
    last = evaluation;
    if (evaluation.verdict === 'PASS') {
      return { done: await finish({
        verdict: 'PASS',
        reason: `the judge found nothing: every expected test ran and passed (${evaluation.summary}), nothing forged, the contract kept, every deliverable there, no signal; on answer ${turn}`,
        evaluation,
        possibleLeak: turn === 1,
      }) };
    }
    if (evaluation.verdict === 'FALSE-GREEN') {
      return { done: await finish({ verdict: 'FALSE-GREEN', reason: `the visible tests are green but ${describeCatch(evaluation)} (${evaluation.summary})`, evaluation }) };
    }
    // CAUGHT: feed the visible failures back while turns and answers that change something remain.
    stall = lastKey === evaluation.resultKey ? stall + 1 : 0;
    lastKey = evaluation.resultKey;
    if (!more || stall >= o.stallCalls) {
      const why = !more ? '' : `; stopped after ${stall} answer${stall === 1 ? '' : 's'} that changed no result`;
      return { done: await finish({ verdict: 'CAUGHT', reason: `${describeCatch(evaluation)} (${evaluation.summary})${why}`, evaluation }) };
    }
    const output = await visibleOutput({
      files: o.files,
      submission: { files, deleted: [...deleted] },
      runner: o.runner,
      scratchDir: o.scratchDir,
      random: clock.random,
      now: clock.now,
      ...(o.schedule ? { schedule: o.schedule } : {}),
    });
    return { next: [...base, { role: 'assistant', content: call.output }, { role: 'user', content: feedbackMessage({ tests: output }) }] };
  });
  // Not reached: every path through the last turn is done.
  return outcome ?? finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: 'the run ended without a verdict' });
}

/** What caught a wrong answer, in words: the codes and messages of the judge's findings. */
export function describeCatch(e: Pick<Evaluation, 'judgement'>): string {
  const findings = e.judgement?.findings ?? [];
  if (!findings.length) return 'nothing';
  const shown = findings.slice(0, 3).map((f) => `${f.code} ${f.message}`);
  return shown.join('; ') + (findings.length > 3 ? `; and ${findings.length - 3} more finding${findings.length - 3 === 1 ? '' : 's'}` : '');
}

/** The test counts of the last judged answer, for reports. */
export function testsOf(e: Evaluation | undefined): TestCounts | undefined {
  return e?.judgement ? e.judgement.tests : undefined;
}
