/**
 * The scripted-replies checks: each of a packet's replies goes through the whole model
 * pipeline (the embedded endpoint on 127.0.0.1, the SDK client and its ledger, reply parsing,
 * the sandbox, every test and signal). The sample reply must PASS; each failure reply must be
 * caught, by the visible tests (CAUGHT) or by the hidden tests or a signal (FALSE-GREEN, which
 * the packet still catches; the check says which). Anything else is a packet defect.
 */
import path from 'node:path';
import { RehearsalDefects } from '../errors/judge-catalog.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { failureModes, type CodePacket } from '../packets/packet.ts';
import { effectiveBudget } from '../llm/budget.ts';
import { createModelClient } from '../llm/client.ts';
import { endpointHost } from '../llm/endpoint.ts';
import { createLedger } from '../llm/ledger.ts';
import { runSession, systemClock, testsOf, type SessionResult } from './session.ts';
import { modelRunReport } from './model-run-report.ts';
import type { CheckResult } from './report.ts';
import { defect } from './defect.ts';

/** The embedded endpoint, for scripted replies. */
export interface ScriptedEndpoint {
  /** Base URL (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** Folder for receipts (`<out>/<packet>/replies/<reply>/`); null keeps them in memory. */
  outDir: string | null;
  /** The working directory, for relative receipt paths in the report. */
  cwd: string;
}

/** What the reply checks of one packet need. */
export interface ReplyChecksInput {
  /** The packet's files and rules. */
  files: PacketFiles;
  runner: TestRunner;
  schedule: <T>(fn: () => Promise<T>) => Promise<T>;
  scratchDir: string;
  endpoint: ScriptedEndpoint;
  date: () => Date;
  now: () => number;
}

/** The replies to rehearse: the sample's, then each failure mode's that names one. */
export function scriptedReplies(packet: CodePacket): { name: string; mode?: { id: string; title: string } }[] {
  const out: { name: string; mode?: { id: string; title: string } }[] = [];
  if (packet.trees.replies.includes('sample.md')) out.push({ name: 'sample' });
  for (const mode of failureModes(packet)) {
    if (!mode.reply) continue;
    const file = mode.reply.replace(/^replies\//, '');
    if (!file.endsWith('.md') || file.includes('/') || !packet.trees.replies.includes(file)) continue;
    out.push({ name: file.slice(0, -3), mode: { id: mode.id, title: mode.title } });
  }
  return out;
}

type Outcome = Pick<CheckResult, 'ok' | 'inconclusive' | 'defect' | 'code' | 'actual'>;

/** The check's outcome from a session: the sample reply must PASS, each failure reply must be caught. */
function outcomeOf(reply: { name: string; mode?: { id: string; title: string } }, r: SessionResult): Outcome {
  const infra = r.verdict === 'INCONCLUSIVE' && (r.inconclusiveCause === 'endpoint' || r.inconclusiveCause === 'sandbox');
  const actual = `${r.verdict}: ${r.reason}`;
  const why = r.inconclusiveCause === 'no-code' ? 'it holds no code: no fenced block with a path= attribute and no unified diff' : r.reason.replace(/^the reply could not be applied: /, '');
  if (infra) return { ...defect(RehearsalDefects.CheckInconclusive, { check: `reply:${reply.name}`, reason: r.reason }), inconclusive: true, actual };
  if (!reply.mode) {
    if (r.verdict === 'PASS') return { ok: true, actual };
    if (r.verdict === 'INCONCLUSIVE') return { ...defect(RehearsalDefects.ReplyUnusable, { reply: reply.name, reason: why }), actual };
    return { ...defect(RehearsalDefects.ReplySampleFails, { verdict: r.verdict, reason: r.reason }), actual };
  }
  const { id, title } = reply.mode;
  if (r.verdict === 'CAUGHT') return { ok: true, actual };
  if (r.verdict === 'FALSE-GREEN') return { ok: true, actual: `${actual}; caught by the packet, not by the visible tests` };
  if (r.verdict === 'PASS') return { ...defect(RehearsalDefects.ReplyNotCaught, { mode: id, title }), actual };
  return { ...defect(RehearsalDefects.ReplyUnusable, { reply: reply.name, reason: why }), actual };
}

/** Run every scripted reply of a packet through the model pipeline; one `reply:<name>` check each. */
export async function replyChecks(input: ReplyChecksInput): Promise<CheckResult[]> {
  const packet = input.files.packet;
  const { limits } = effectiveBudget(packet.prompt.data.budget, {});
  const client = createModelClient({ baseURL: input.endpoint.url, apiKey: null, attemptTimeoutMs: 60_000 });
  const replies = scriptedReplies(packet);
  return Promise.all(
    replies.map(async (reply): Promise<CheckResult> => {
      const t0 = input.now();
      const model = `scripted:${packet.id}/${reply.name}`;
      const endpoint = endpointHost(input.endpoint.url);
      const header = { packet: packet.id, version: packet.prompt.data.version, digest: packet.digest, model, endpoint };
      const dir = input.endpoint.outDir ? path.join(input.endpoint.outDir, packet.id, 'replies', reply.name) : null;
      const date = input.date().toISOString();
      const ledger = await createLedger({ dir, header });
      const result = await runSession({
        files: input.files,
        client,
        model,
        limits,
        runner: input.runner,
        scratchDir: input.scratchDir,
        feedbackTurns: 0,
        stallCalls: 1,
        ledger,
        clock: systemClock,
        schedule: input.schedule,
      });
      const verdict = outcomeOf(reply, result);
      const e = result.evaluation;
      const tests = testsOf(e);
      return {
        id: `reply:${reply.name}`,
        kind: 'reply',
        ...(reply.mode ? { mode: reply.mode.id } : {}),
        expected: reply.mode ? 'caught: CAUGHT, or FALSE-GREEN when only the hidden tests or a signal reject the reply' : 'PASS: the judge finds nothing',
        ...verdict,
        // Work time: the model calls and the judged run, not the wait for a sandbox slot.
        durationMs: result.ledger.calls ? ledger.lines.reduce((ms, l) => ms + l.ms, 0) + (e?.durationMs ?? 0) : input.now() - t0,
        ...(e && tests ? { tests, outputTail: e.outputTail } : {}),
        ...(result.findings.length ? { findings: result.findings } : {}),
        model: modelRunReport(result, { date, ...header, budget: limits, cwd: input.endpoint.cwd }),
      };
    }),
  );
}
