import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';
import { systemClock } from '../../src/rehearse/session.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import { failureModes, type CodePacket } from '../../src/packets/packet.ts';
import { noCache } from '../../src/rehearse/cache.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';
import { runModelRehearsals } from '../../src/rehearse/model-runs.ts';
import { rehearse } from '../../src/rehearse/rehearse.ts';
import type { ModelRunReport, RehearsalReport } from '../../src/rehearse/report.ts';

/**
 * The library's scripted replies through the whole pipeline, with a canary over every request
 * body the endpoint saw: no line of a packet's sample, hidden tests, mutants, replies or failure
 * catalog may appear in one. The first turn carries only PROMPT.md and starter files; feedback
 * turns carry the model's own answer and the visible tests' output, so for those the lines of the
 * reply being served (the model's own words) are allowed, and nothing else.
 */
const root = path.resolve(import.meta.dirname, '../..');
let env: RunEnvironment;
let server: ScriptedServer;
let scratch: string;
let packets: CodePacket[];
let dirs: Map<string, string>;
let report: RehearsalReport;
let feedbackRuns: ModelRunReport[];
let offlineRequests: number;

const MIN_LINE = 16;
const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= MIN_LINE);

async function texts(dir: string, tree: string, files: readonly string[]): Promise<string[]> {
  return Promise.all(files.map((f) => readFile(path.join(dir, tree, f), 'utf8')));
}

/** Secret lines of a packet that no public file (starter/, prompt.mdx) also holds, at least 16 characters long. */
async function canaryLines(p: CodePacket, allowed: readonly string[] = []): Promise<Set<string>> {
  const dir = dirs.get(p.id)!;
  const secret = [
    ...(await texts(dir, 'sample', p.trees.sample)),
    ...(await texts(dir, 'hidden', p.trees.hidden)),
    ...(await texts(dir, 'replies', p.trees.replies)),
    ...(await Promise.all(Object.entries(p.trees.mutants).map(async ([m, files]) => (await texts(dir, `mutants/${m}`, files)).join('\n')))),
    await readFile(path.join(dir, 'failures.mdx'), 'utf8'),
    await readFile(path.join(dir, 'sample.mdx'), 'utf8'),
  ];
  const publicText = [...(await texts(dir, 'starter', p.trees.starter)), await readFile(path.join(dir, 'prompt.mdx'), 'utf8'), ...allowed];
  // A secret line the public side already contains (as a line or inside one) is not a secret;
  // nor is a bare fence line (the kit's own reply format: \`\`\`python path=...).
  const open = publicText.join('\n');
  return new Set(secret.flatMap(lines).filter((l) => !open.includes(l) && !/^(`{3,}|~{3,})/.test(l)));
}

/** The first failure mode's reply whose answer the visible tests reject (so a feedback turn follows). */
function firstFailureReply(p: CodePacket): string {
  const names = failureModes(p).filter((m) => m.reply).map((m) => m.reply!.replace(/^replies\//, '').replace(/\.md$/, ''));
  const caught = report.packets.find((x) => x.id === p.id)!.checks.filter((c) => c.kind === 'reply' && c.model?.verdict === 'CAUGHT' && c.model.caughtBy.includes('visible-tests'));
  return names.find((n) => caught.some((c) => c.id === `reply:${n}`)) ?? names[0]!;
}

function contents(body: string): string {
  const parsed = JSON.parse(body) as { messages: { content: string }[] };
  return parsed.messages.map((m) => m.content).join('\n');
}

function leaks(body: string, canary: ReadonlySet<string>): string[] {
  const text = contents(body);
  return [...canary].filter((l) => text.includes(l));
}

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
  // Scripted replies and their model runs belong to take-homes; a lab's assistant is scripted on its page.
  // A take-home with variants is left out: its replies hold placeholders, which the rehearsal writes
  // in for its first variant (tests/integration/rehearse-variants.test.ts holds that), while the
  // model runs below read the packet's own files. Which ones are left out is pinned, so a third
  // packet with variants is a decision, not a silent loss.
  const takehomes = codePackets(loaded.packets).filter((p) => p.prompt.data.kind === 'takehome');
  expect(takehomes.filter((p) => p.prompt.data.variants).map((p) => p.id).sort()).toEqual(['dead-target-abort', 'fetch-retry-ticket']);
  packets = takehomes.filter((p) => !p.prompt.data.variants);
  dirs = new Map(loaded.sources.map((s) => [s.id, path.join(root, 'packets', s.folder)]));
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
  scratch = await mkdtemp(path.join(tmpdir(), 'model-canary-'));
  server = await startScriptedServer({ replies: replyStoreFromDirs(new Map(packets.map((p) => [p.id, { dir: dirs.get(p.id)!, replies: p.trees.replies }]))) });
  report = await rehearse({
    packets,
    packetDirs: dirs,
    sandbox: env.sandbox,
    sandboxNotice: env.notice,
    interpreter: env.interpreter,
    jobs: 2,
    timeoutMs: 30_000,
    cache: noCache,
    reporters: [],
    scratchDir: scratch,
    date: () => new Date('2026-11-29T12:00:00Z'),
    now: () => performance.now(),
    scripted: { url: server.url, outDir: null, cwd: root },
  });
  offlineRequests = server.requests.length;
  // One failure reply per packet, with a feedback turn: the model gets its visible test failures back.
  const limit = pLimit(2);
  const perPacket = packets.map(async (p) => {
    const reply = firstFailureReply(p);
    return runModelRehearsals({
      packets: [p],
      packetDirs: dirs,
      offline: report,
      runner: { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 30_000 },
      schedule: (fn) => limit(fn),
      scratchDir: scratch,
      endpoint: { baseURL: server.url, host: new URL(server.url).host },
      apiKey: null,
      models: [`scripted:{packet}/${reply}`],
      flags: {},
      feedbackTurns: 1,
      stallCalls: 5,
      attemptTimeoutMs: 30_000,
      outDir: null,
      cwd: root,
      clock: systemClock,
      date: () => new Date('2026-11-29T12:00:00Z'),
    });
  });
  feedbackRuns = (await Promise.all(perPacket)).flat();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await env?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe('the scripted default over the library', () => {
  it('passes every sample reply and catches every failure reply', () => {
    const replies = report.packets.flatMap((p) => p.checks.filter((c) => c.kind === 'reply').map((c) => ({ packet: p.id, ...c })));
    const withReply = packets.reduce((n, p) => n + 1 + failureModes(p).filter((m) => m.reply).length, 0);
    expect(replies).toHaveLength(withReply);
    for (const r of replies) {
      expect(r.ok, `${r.packet} ${r.id}: ${r.actual}`).toBe(true);
      expect(r.model!.verdict).toMatch(r.id === 'reply:sample' ? /^PASS$/ : /^(CAUGHT|FALSE-GREEN)$/);
      expect(r.model!).toMatchObject({ calls: 1, endpoint: `127.0.0.1:${server.port}`, packet: r.packet, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(r.model!.tokens.total).toBeGreaterThan(0);
    }
    expect(report.packets.every((p) => p.status === 'fails-closed')).toBe(true);
    expect(offlineRequests).toBe(withReply);
  });

  it('never sends a line of the sample, hidden tests, mutants, replies or failure catalog', async () => {
    let checked = 0;
    let canarySize = 0;
    for (const p of packets) {
      const canary = await canaryLines(p);
      canarySize += canary.size;
      const mine = server.requests.slice(0, offlineRequests).filter((r) => r.model?.startsWith(`scripted:${p.id}/`));
      expect(mine.length).toBeGreaterThan(1);
      for (const r of mine) {
        expect(leaks(r.body, canary), `${r.model}`).toEqual([]);
        expect(contents(r.body)).toContain(p.prompt.body.trim().split('\n')[0]!);
        checked++;
      }
    }
    expect(checked).toBe(offlineRequests);
    // The canary is not trivially empty: hundreds of secret lines were looked for.
    expect(canarySize).toBeGreaterThan(1000);
  });

  it('sends feedback from the visible tests only: nothing secret beyond the model\'s own answer', async () => {
    expect(feedbackRuns).toHaveLength(packets.length);
    let feedbackTurns = 0;
    for (const p of packets) {
      const reply = firstFailureReply(p);
      const own = await readFile(path.join(dirs.get(p.id)!, 'replies', `${reply}.md`), 'utf8');
      const canary = await canaryLines(p, [own]);
      const mine = server.requests.slice(offlineRequests).filter((r) => r.model === `scripted:${p.id}/${reply}`);
      for (const r of mine) expect(leaks(r.body, canary), `${r.model}`).toEqual([]);
      const turns = mine.map((r) => JSON.parse(r.body) as { messages: { role: string; content: string }[] }).filter((b) => b.messages.length === 4);
      for (const t of turns) expect(t.messages[3]!.content).toMatch(/^The visible tests fail with your change/);
      feedbackTurns += turns.length;
    }
    expect(feedbackTurns).toBeGreaterThanOrEqual(packets.length);
    expect(feedbackRuns.every((r) => r.verdict === 'CAUGHT')).toBe(true);
  });

  it('the canary would see a leak', async () => {
    const p = packets[0]!;
    const canary = await canaryLines(p);
    const sampleLine = lines(await readFile(path.join(dirs.get(p.id)!, 'sample', p.trees.sample[0]!), 'utf8')).find((l) => canary.has(l))!;
    expect(leaks(JSON.stringify({ messages: [{ role: 'user', content: `look: ${sampleLine}` }] }), canary)).toEqual([sampleLine]);
  });
});
