import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
import { runModelRehearsals, type ModelRunsOptions } from '../../src/rehearse/model-runs.ts';
import { rehearse } from '../../src/rehearse/rehearse.ts';
import { replySource } from '../../src/rehearse/rehearse-variants.ts';
import type { ModelRunReport, RehearsalReport } from '../../src/rehearse/report.ts';
import { renderVariant, type PacketVariant } from '../../src/packets/variants-render.ts';
import { hasPlaceholder, variantValues } from '../../src/packets/variants.ts';

/**
 * The library's scripted replies through the whole pipeline, with a canary over every request
 * body the endpoint saw: no line of a packet's sample, hidden tests, mutants, replies or failure
 * catalog may appear in one. The first turn carries only PROMPT.md and starter files; feedback
 * turns carry the model's own answer and the visible tests' output, so for those the lines of the
 * reply being served (the model's own words) are allowed, and nothing else.
 *
 * The take-homes with variants are in it too: the model is given their first variant, rendered,
 * never the template files. For them the canary's lines are that variant's, and no request may
 * hold a placeholder (`[[variant.NAME]]`): a placeholder in a prompt means the raw template
 * reached the model. Each live run on them is judged by that variant's tests, so the sample
 * reply passes (it would fail against the template's tests).
 */
const root = path.resolve(import.meta.dirname, '../..');
let env: RunEnvironment;
let server: ScriptedServer;
let scratch: string;
let packets: CodePacket[];
let dirs: Map<string, string>;
/** The packets with variants: their first variant, rendered independently of the code under test, and its folder. */
const firsts = new Map<string, { variant: PacketVariant; dir: string }>();
let report: RehearsalReport;
let feedbackRuns: ModelRunReport[];
let sampleRuns: ModelRunReport[];
let offlineRequests: number;
let liveRequests: number;
/** The variant packets' check and reply names in the offline report: `v1:` before each. */
const checkId = (p: CodePacket, id: string) => (p.prompt.data.variants ? `v1:${id}` : id);
/** What the model is given of a packet: its own files, or its first variant's for a packet with variants. */
const seen = (p: CodePacket) => firsts.get(p.id) ?? { variant: { packet: p }, dir: dirs.get(p.id)! };

const MIN_LINE = 16;
const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= MIN_LINE);

async function texts(dir: string, tree: string, files: readonly string[]): Promise<string[]> {
  return Promise.all(files.map((f) => readFile(path.join(dir, tree, f), 'utf8')));
}

/** Secret lines of a packet that no public file (starter/, prompt.mdx) also holds, at least 16 characters long. */
async function canaryLines(raw: CodePacket, allowed: readonly string[] = []): Promise<Set<string>> {
  const { variant: { packet: p }, dir } = seen(raw);
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
  return names.find((n) => caught.some((c) => c.id === checkId(p, `reply:${n}`))) ?? names[0]!;
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
  // The take-homes with variants are pinned, so a third one is a decision of this test, not a silent change.
  packets = codePackets(loaded.packets).filter((p) => p.prompt.data.kind === 'takehome');
  expect(packets.filter((p) => p.prompt.data.variants).map((p) => p.id).sort()).toEqual(['dead-target-abort', 'fetch-retry-ticket']);
  dirs = new Map(loaded.sources.map((s) => [s.id, path.join(root, 'packets', s.folder)]));
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
  scratch = await mkdtemp(path.join(tmpdir(), 'model-canary-'));
  for (const p of packets.filter((x) => x.prompt.data.variants)) {
    const dir = dirs.get(p.id)!;
    const r = await renderVariant(p, async (rel) => new Uint8Array(await readFile(path.join(dir, rel))), 1, variantValues(p.prompt.data.seed, p.prompt.data.variants!, 1));
    const out = path.join(scratch, 'first-variants', p.id);
    for (const [rel, bytes] of r.variant!.files) {
      await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
      await writeFile(path.join(out, rel), bytes);
    }
    firsts.set(p.id, { variant: r.variant!, dir: out });
  }
  // The endpoint as `packet rehearse` starts it: a packet with variants serves its first variant's replies.
  server = await startScriptedServer({ replies: replyStoreFromDirs(new Map(packets.map((p) => [p.id, replySource(p, dirs.get(p.id)!)]))) });
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
    // The first variant of a packet with variants is the one whose replies are rehearsed and the one a live run is given.
    variants: 1,
  });
  offlineRequests = server.requests.length;
  const limit = pLimit(2);
  // What the live runs share: the offline report they follow, the sandbox, the scripted server, the clock.
  const live = {
    packetDirs: dirs,
    offline: report,
    runner: { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 30_000 },
    schedule: (fn) => limit(fn),
    scratchDir: scratch,
    endpoint: { baseURL: server.url, host: new URL(server.url).host },
    apiKey: null,
    flags: {},
    attemptTimeoutMs: 30_000,
    outDir: null,
    cwd: root,
    clock: systemClock,
    date: () => new Date('2026-11-29T12:00:00Z'),
  } satisfies Omit<ModelRunsOptions, 'packets' | 'models' | 'feedbackTurns' | 'stallCalls'>;
  // One failure reply per packet, with a feedback turn: the model gets its visible test failures back.
  const perPacket = packets.map(async (p) => {
    const reply = firstFailureReply(p);
    return runModelRehearsals({ ...live, packets: [p], models: [`scripted:{packet}/${reply}`], feedbackTurns: 1, stallCalls: 5 });
  });
  feedbackRuns = (await Promise.all(perPacket)).flat();
  liveRequests = server.requests.length;
  // The sample reply, live, on every packet: PASS only when judged by the tests of the files the reply was written for.
  sampleRuns = await runModelRehearsals({ ...live, packets, models: ['scripted:{packet}/sample'], feedbackTurns: 0, stallCalls: 1 });
}, 240_000);

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
      expect(r.model!.verdict).toMatch(/(^|:)reply:sample$/.test(r.id) ? /^PASS$/ : /^(CAUGHT|FALSE-GREEN)$/);
      expect(r.model!).toMatchObject({ calls: 1, endpoint: `127.0.0.1:${server.port}`, packet: r.packet, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(r.model!.tokens.total).toBeGreaterThan(0);
    }
    // A packet that does not fail closed offline is not run live: say which one and what its checks said.
    const notClosed = report.packets.filter((p) => p.status !== 'fails-closed').map((p) => `${p.id} ${p.status}: ${p.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.actual}`).join('; ')}`);
    expect(notClosed).toEqual([]);
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
        expect(contents(r.body)).toContain(seen(p).variant.packet.prompt.body.trim().split('\n')[0]!);
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
      const own = await readFile(path.join(seen(p).dir, 'replies', `${reply}.md`), 'utf8');
      const canary = await canaryLines(p, [own]);
      const mine = server.requests.slice(offlineRequests, liveRequests).filter((r) => r.model === `scripted:${p.id}/${reply}`);
      for (const r of mine) expect(leaks(r.body, canary), `${r.model}`).toEqual([]);
      const turns = mine.map((r) => JSON.parse(r.body) as { messages: { role: string; content: string }[] }).filter((b) => b.messages.length === 4);
      for (const t of turns) expect(t.messages[3]!.content).toMatch(/^The visible tests fail with your change/);
      feedbackTurns += turns.length;
    }
    expect(feedbackTurns).toBeGreaterThanOrEqual(packets.length);
    expect(feedbackRuns.every((r) => r.verdict === 'CAUGHT')).toBe(true);
  });

  it("gives the model a packet with variants as its first variant: no placeholder in any request, v1's prompt and starter, judged by v1's tests", () => {
    const withVariants = packets.filter((p) => p.prompt.data.variants);
    expect(withVariants).toHaveLength(2);
    // Every request, the offline reply checks and the live runs alike.
    for (const r of server.requests) expect(hasPlaceholder(contents(r.body)), `${r.model}`).toBe(false);
    for (const p of withVariants) {
      const first = firsts.get(p.id)!.variant;
      const live = server.requests.slice(offlineRequests).filter((r) => r.model?.startsWith(`scripted:${p.id}/`));
      expect(live.length).toBeGreaterThanOrEqual(2);
      const rawLines = p.prompt.body.split('\n').filter((l) => hasPlaceholder(l));
      expect(rawLines.length).toBeGreaterThan(0);
      for (const r of live) {
        const text = contents(r.body);
        // The template's lines with a placeholder are not there; the first variant's, values written in, are.
        for (const l of rawLines) expect(text).not.toContain(l.trim());
        for (const l of first.packet.prompt.body.split('\n').filter((x, i) => hasPlaceholder(p.prompt.body.split('\n')[i] ?? '') && x.trim())) expect(text).toContain(l.trim());
      }
      for (const run of [...feedbackRuns, ...sampleRuns].filter((x) => x.packet === p.id)) expect(run).toMatchObject({ digest: first.digest, variant: { id: 'v1', values: first.values } });
    }
    for (const run of sampleRuns) expect(run.verdict, `${run.packet}: ${run.reason}`).toBe('PASS');
    expect(sampleRuns.map((r) => r.packet).sort()).toEqual(packets.map((p) => p.id).sort());
    for (const run of sampleRuns.filter((r) => !firsts.has(r.packet))) expect(run.variant).toBeUndefined();
  });

  it('the canary would see a leak', async () => {
    const p = packets[0]!;
    const canary = await canaryLines(p);
    const sampleLine = lines(await readFile(path.join(seen(p).dir, 'sample', p.trees.sample[0]!), 'utf8')).find((l) => canary.has(l))!;
    expect(leaks(JSON.stringify({ messages: [{ role: 'user', content: `look: ${sampleLine}` }] }), canary)).toEqual([sampleLine]);
  });
});
