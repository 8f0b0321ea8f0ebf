import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/client.ts';
import { createLedger } from '../../src/llm/ledger.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';
import { runSession, type SessionResult } from '../../src/rehearse/session.ts';
import { loadPacketFiles, type PacketFiles } from '../../src/judge/workspace.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import type { CodePacket } from '../../src/packets/packet.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * Whole sessions on the scaffold packet: the embedded endpoint serves the packet's replies and
 * a few written here, the kit's client calls it, the reply is applied and judged in bubblewrap.
 */
let t: TempPackets;
let packet: CodePacket;
let packetDir: string;
let files: PacketFiles;
let flood: CodePacket;
let floodFiles: PacketFiles;
let floodDir: string;
let env: RunEnvironment;
let server: ScriptedServer;
let scratch: string;
const extra = new Map<string, string>();

const DURATION = 'src/duration.py';
const block = (p: string, text: string) => `\`\`\`python path=${p}\n${text}\`\`\`\n`;
const NOTES = 'What was wrong and how it was checked.\n';
const notes = block('NOTES.md', NOTES);

beforeAll(async () => {
  t = await tempPackets();
  packetDir = await t.add('scaffold');
  // A packet with a small token budget whose visible tests print about 67 KB on every run.
  floodDir = await t.add('flood');
  await t.edit('flood', 'prompt.mdx', 'tokens: 20000', 'tokens: 9000');
  await t.write(
    'flood',
    'starter/tests/test_zz_flood.py',
    ['import unittest', '', '', 'class TestFlood(unittest.TestCase):', '    def test_prints_a_lot(self):', '        for i in range(28):', '            print(f"debug {i}: " + ("state=pending value=%d " % (i * 7919 % 10007)) * 100)', ''].join('\n'),
  );
  const loaded = await loadPackets({ packetsDir: t.packets, cwd: t.root });
  packet = codePackets(loaded.packets).find((p) => p.id === 'scaffold')!;
  flood = codePackets(loaded.packets).find((p) => p.id === 'flood')!;
  files = await loadPacketFiles(packet, packetDir);
  floodFiles = await loadPacketFiles(flood, floodDir);
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
  scratch = await mkdtemp(path.join(tmpdir(), 'model-session-'));
  const sample = await t.read('scaffold', `sample/${DURATION}`);
  const starter = await t.read('scaffold', `starter/${DURATION}`);
  const garbage = await t.read('scaffold', `mutants/accepts-garbage/${DURATION}`);
  extra.set('diff', `A minimal patch:\n\n\`\`\`diff\n${createTwoFilesPatch(`a/${DURATION}`, `b/${DURATION}`, starter, sample)}${createTwoFilesPatch('/dev/null', 'b/NOTES.md', '', NOTES)}\`\`\`\n`);
  // Passes the visible tests, accepts "1h30": only the hidden tests see it.
  extra.set('hidden-only', block(DURATION, sample.replace('(?:\\d+[hms])+', '(?:\\d+[hms]?)+')) + notes);
  // Right code, and a line the drops-minutes signal greps for.
  extra.set('signal-only', block(DURATION, `${sample}\n# PART.search( would read only the first unit\n`) + notes);
  // Wrong code, plus a new test module that patches the function under test at import time.
  extra.set(
    'patches-tests',
    block(DURATION, garbage) +
      block('tests/test_aaa_patch.py', `import src.duration\n\n${sample.split('\n').slice(2).join('\n')}\nsrc.duration.parse_duration = parse_duration\n`) +
      block('tests/test_duration.py', 'import unittest\n'),
  );
  extra.set('escape', block('../outside.py', 'print(1)\n'));
  extra.set('prose', 'I would rather not change any file.');
  // A wrong answer as a diff: the mutant that accepts garbage.
  extra.set('wrong-diff', `\`\`\`diff\n${createTwoFilesPatch(`a/${DURATION}`, `b/${DURATION}`, starter, garbage)}\`\`\`\n`);
  const dirs = replyStoreFromDirs(new Map([[packet.id, { dir: packetDir, replies: packet.trees.replies }]]));
  const floodDirs = replyStoreFromDirs(new Map([[flood.id, { dir: floodDir, replies: flood.trees.replies }]]));
  // A model that answers wrong, then with prose: its first answer was judged, so that verdict stands.
  let thenProse = 0;
  const wrong = (await dirs.get(packet.id, 'drops-minutes'))!;
  server = await startScriptedServer({
    replies: {
      get: async (p, r) =>
        r === 'then-prose' ? (thenProse++ === 0 ? wrong : 'No more files from me.') : p === packet.id && extra.has(r) ? extra.get(r) : p === flood.id ? floodDirs.get(p, r) : dirs.get(p, r),
      list: () => dirs.list(),
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await env?.dispose();
  await rm(scratch, { recursive: true, force: true });
  await t.dispose();
});

async function session(
  reply: string,
  options: { feedbackTurns?: number; stallCalls?: number; modelCalls?: number; out?: boolean; model?: string; packet?: CodePacket; expectedRan?: number; maxReplyTokens?: number } = {},
) {
  const p = options.packet ?? packet;
  const model = options.model ?? `scripted:${p.id}/${reply}`;
  const dir = options.out ? await mkdtemp(path.join(scratch, 'receipts-')) : null;
  const ledger = await createLedger({ dir, header: { packet: p.id, version: '0.1.0', digest: p.digest, model, endpoint: '127.0.0.1' } });
  const before = server.requests.length;
  const sleeps: number[] = [];
  const result: SessionResult = await runSession({
    files: p === flood ? floodFiles : files,
    client: createModelClient({ baseURL: server.url, apiKey: null, attemptTimeoutMs: 10_000 }),
    model,
    limits: { ...p.prompt.data.budget, ...(options.modelCalls ? { modelCalls: options.modelCalls } : {}) },
    runner: { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 30_000 },
    scratchDir: scratch,
    ...(options.maxReplyTokens ? { maxReplyTokens: options.maxReplyTokens } : {}),
    feedbackTurns: options.feedbackTurns ?? 0,
    stallCalls: options.stallCalls ?? 2,
    ledger,
    clock: { now: () => performance.now(), nowEpochMs: () => Date.now(), sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
  });
  return { result, dir, requests: server.requests.slice(before), sleeps };
}

describe('a model session on the scaffold packet', () => {
  it('passes the sample reply on the first answer, flags a possible leak, and writes its receipts', async () => {
    const { result, dir } = await session('sample', { out: true });
    expect(result).toMatchObject({ verdict: 'PASS', possibleLeak: true, caughtBy: [], signals: [] });
    expect(result.evaluation!.judgement!.tests).toMatchObject({ ran: 6, failed: 0, errors: 0, canaries: { planted: 2, failed: 2 } });
    expect((await readdir(dir!)).sort()).toEqual(['ledger.json', 'usage.jsonl']);
    const ledger = JSON.parse(await readFile(path.join(dir!, 'ledger.json'), 'utf8'));
    expect(ledger).toMatchObject({ calls: 1, verdict: 'PASS', digest: packet.digest, usage_unknown_calls: 0 });
    expect(ledger.tokens).toBeGreaterThan(0);
  });

  it('catches a wrong reply, feeds the visible failures back, and stops after answers that change nothing', async () => {
    const { result, requests } = await session('drops-minutes', { feedbackTurns: 5, stallCalls: 2 });
    expect(result.verdict).toBe('CAUGHT');
    expect(result.caughtBy).toContain('visible-tests');
    expect(result.reason).toMatch(/stopped after 2 answers that changed no result/);
    expect(result.ledger.calls).toBe(3);
    expect(requests).toHaveLength(3);
    const second = JSON.parse(requests[1]!.body) as { messages: { role: string; content: string }[] };
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const feedback = second.messages[3]!.content;
    expect(feedback).toMatch(/FAIL: test_hours_and_minutes/);
    // Feedback comes from a run without the hidden tests: none of their names or lines.
    expect(feedback).not.toMatch(/hidden|test_all_three_units|2h3m4s/);
  });

  it('gives up cleanly when the budget runs out after an answer, and writes give_up.json', async () => {
    const { result, dir } = await session('drops-minutes', { feedbackTurns: 5, stallCalls: 9, modelCalls: 2, out: true });
    expect(result).toMatchObject({ verdict: 'GAVE-UP', stop: { reason: 'model-calls' }, caughtBy: expect.arrayContaining(['visible-tests']) });
    const giveUp = JSON.parse(await readFile(path.join(dir!, 'give_up.json'), 'utf8'));
    expect(giveUp).toMatchObject({ reason: 'model-calls', limit: 2, spent: { calls: 2 } });
  });

  it('never calls a dead endpoint a give-up: INCONCLUSIVE, with give_up.json for the cap that stopped the retries', async () => {
    const { result, sleeps, dir } = await session('', { model: 'fault:500', out: true });
    expect(result).toMatchObject({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'endpoint', stop: { reason: 'identical-errors' } });
    expect(result.ledger).toMatchObject({ calls: 3, errors: { 'server-error': 3 } });
    expect(sleeps).toHaveLength(2);
    expect((await readdir(dir!)).sort()).toEqual(['give_up.json', 'ledger.json', 'usage.jsonl']);
  });

  it('uses a reply without usage and keeps its tokens unknown', async () => {
    const { result } = await session('', { model: `fault:no-usage@scripted:${packet.id}/sample` });
    expect(result.verdict).toBe('PASS');
    expect(result.ledger).toMatchObject({ tokens: null, usage_unknown_calls: 1 });
  });

  it('applies a unified diff', async () => {
    const { result } = await session('diff');
    expect(result.verdict).toBe('PASS');
    expect(result.turns[0]!.reply).toBe('diff');
  });

  it('calls it FALSE-GREEN when only the hidden tests or only a signal see the mistake', async () => {
    const hidden = (await session('hidden-only')).result;
    expect(hidden).toMatchObject({ verdict: 'FALSE-GREEN', caughtBy: ['hidden-tests'] });
    expect(hidden.evaluation!.judgement!.tests.failing).toEqual(['tests.test_hidden_duration.TestHiddenDuration.test_trailing_number_without_unit']);
    const signal = (await session('signal-only')).result;
    expect(signal).toMatchObject({ verdict: 'FALSE-GREEN', caughtBy: ['signal'], signals: [{ mode: 'drops-minutes', where: DURATION }] });
  });

  it('runs the packet\'s own tests: a reply that edits or adds tests gains nothing', async () => {
    const { result } = await session('patches-tests');
    expect(result.verdict).toBe('CAUGHT');
    expect(result.findings.filter((f) => f.code === 'PK424').map((f) => f.file)).toEqual(['tests/test_aaa_patch.py', 'tests/test_duration.py']);
    expect(result.caughtBy).toEqual(expect.arrayContaining(['protected', 'visible-tests']));
    expect(result.evaluation!.judgement!.tests.ran).toBe(6);
  });

  it('keeps the verdict of a judged answer when a later reply cannot be applied', async () => {
    const { result } = await session('then-prose', { feedbackTurns: 1 });
    expect(result.verdict).toBe('CAUGHT');
    expect(result.reason).toMatch(/the next reply could not be applied: the reply has no fenced block/);
    expect(result.turns.map((x) => x.reply)).toEqual(['files', expect.stringMatching(/^rejected: /)]);
  });

  it('refuses a path outside the workspace, and calls a reply with no code INCONCLUSIVE for its own cause', async () => {
    const escape = (await session('escape')).result;
    expect(escape).toMatchObject({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: 'the reply could not be applied: the path "../outside.py" climbs out of the workspace with ".."' });
    const { result, requests } = await session('prose', { feedbackTurns: 1 });
    expect(result).toMatchObject({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'no-code' });
    expect(result.reason).toMatch(/the model answered without code .*; the endpoint is up/);
    expect(requests).toHaveLength(2);
    expect(JSON.parse(requests[1]!.body).messages[3].content).toMatch(/^Your reply could not be applied: the reply has no fenced block/);
  });
});

describe('reasoning in the reply: a <think> draft can neither pass nor sink an answer', () => {
  it('catches a wrong final diff after a right draft in <think> (it used to PASS)', async () => {
    const { result } = await session('', { model: `fault:think:sample@scripted:${packet.id}/wrong-diff` });
    expect(result).toMatchObject({ verdict: 'CAUGHT', caughtBy: expect.arrayContaining(['visible-tests']) });
    expect(result.turns[0]).toMatchObject({ reply: 'diff', reasoning: { sources: ['think-tags'] } });
  });

  it('passes a right final diff after a wrong draft in <think> (it used to be CAUGHT)', async () => {
    const { result } = await session('', { model: `fault:think:drops-minutes@scripted:${packet.id}/diff` });
    expect(result).toMatchObject({ verdict: 'PASS' });
  });

  it('passes an answer after a code fence left open in <think> (it used to be swallowed)', async () => {
    for (const fault of ['fault:think', 'fault:think-no-open', 'fault:reasoning-field']) {
      const { result } = await session('', { model: `${fault}@scripted:${packet.id}/sample` });
      expect(result.verdict, fault).toBe('PASS');
    }
  });

  it('sends the model its answer back without the reasoning', async () => {
    const { result, requests } = await session('', { model: `fault:think@scripted:${packet.id}/drops-minutes`, feedbackTurns: 1 });
    expect(result.verdict).toBe('CAUGHT');
    const second = JSON.parse(requests[1]!.body) as { messages: { role: string; content: string }[] };
    expect(second.messages[2]!.role).toBe('assistant');
    expect(second.messages[2]!.content).not.toMatch(/<think>|unfinished idea/);
    expect(second.messages[2]!.content).toContain('path=src/duration.py');
  });
});

describe('endpoint failures are never judged', () => {
  it('does not apply a reply cut by a generation error: INCONCLUSIVE, not CAUGHT', async () => {
    const { result } = await session('', { model: `fault:finish-error@scripted:${packet.id}/sample` });
    expect(result).toMatchObject({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'endpoint', stop: { reason: 'identical-errors' }, failure: { error: 'generation-error', status: 200 } });
    expect(result.evaluation).toBeUndefined();
    expect(result.ledger.errors).toEqual({ 'generation-error': 3 });
    expect(result.reason).toMatch(/the server said HTTP 200: "Provider returned error: upstream connection reset during generation"/);
    const filtered = (await session('', { model: `fault:content-filter@scripted:${packet.id}/sample` })).result;
    expect(filtered).toMatchObject({ verdict: 'INCONCLUSIVE', failure: { error: 'content-filter' } });
    expect(filtered.ledger.calls).toBe(1);
  });

  it('names a spent quota, with the server\'s message, and does not retry it', async () => {
    const { result, requests } = await session('', { model: 'fault:402' });
    expect(result).toMatchObject({ verdict: 'INCONCLUSIVE', failure: { error: 'quota', status: 402, message: 'Insufficient credits. Add more credits to your account to continue.' } });
    expect(requests).toHaveLength(1);
  });

  it('calls a budget too small for the first call INCONCLUSIVE for the budget, and makes no call', async () => {
    const { result, requests, dir } = await session('sample', { maxReplyTokens: 19_900, out: true });
    expect(result).toMatchObject({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'budget', stop: { reason: 'tokens' } });
    expect(requests).toEqual([]);
    expect(JSON.parse(await readFile(path.join(dir!, 'give_up.json'), 'utf8'))).toMatchObject({ reason: 'tokens', limit: 20_000, estimate: { maxTokens: 19_900, spent: 0 } });
  });
});

describe('a planted flood: a small token budget, feedback turns with huge test output', () => {
  it('stays within its cap, sends a capped tail, and gives up before the call that could cross it', async () => {
    const { result, requests, dir } = await session('drops-minutes', { packet: flood, expectedRan: 7, feedbackTurns: 8, stallCalls: 9, maxReplyTokens: 1024, out: true });
    const cap = flood.prompt.data.budget.tokens;
    expect(cap).toBe(9000);
    expect(result).toMatchObject({ verdict: 'GAVE-UP', stop: { reason: 'tokens' } });
    // Every call reported its usage, and the sum is within the cap.
    expect(result.ledger.usage_unknown_calls).toBe(0);
    expect(result.ledger.tokens).toBeLessThanOrEqual(cap);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const feedback = requests.slice(1).map((r) => (JSON.parse(r.body) as { messages: { content: string }[] }).messages[3]!.content);
    for (const f of feedback) {
      expect(f).toMatch(/\[the first \d+ characters of the output are cut; the last \d+ follow\]/);
      expect(Number(/the first (\d+) characters/.exec(f)![1])).toBeGreaterThan(50_000);
      expect(f.length).toBeLessThan(4500);
    }
    const giveUp = JSON.parse(await readFile(path.join(dir!, 'give_up.json'), 'utf8'));
    expect(giveUp).toMatchObject({ reason: 'tokens', limit: cap, estimate: { maxTokens: 1024 } });
    expect(giveUp.estimate.spent + giveUp.estimate.prompt + giveUp.estimate.maxTokens).toBeGreaterThan(cap);
    expect(giveUp.detail).toMatch(/^the next call could cross the 9000-token cap/);
    // Every line has the kit's own count of the prompt, within a tenth of what the endpoint reported.
    const lines = (await readFile(path.join(dir!, 'usage.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { prompt_tokens: number; prompt_estimate: number });
    for (const l of lines) expect(Math.abs(l.prompt_estimate / l.prompt_tokens - 1)).toBeLessThan(0.1);
  }, 120_000);
});
