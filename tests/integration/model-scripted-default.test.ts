import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * `packet rehearse` with no endpoint: every packet's scripted replies go through the embedded
 * endpoint and the sandbox. The sample reply must PASS, each failure reply must be caught;
 * anything else is a packet defect, named in words.
 */
let t: TempPackets;
let report: RehearsalReport;
let exitCode: number;
let stdout: string;
// memoryIo's clock: 2026-11-29T12:00:00Z.
const OUT = 'out/rehearsals/2026-11-29T12-00-00-000Z';

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, ...rest } = process.env;
  return rest;
}

beforeAll(async () => {
  t = await tempPackets();
  await t.add('healthy');
  // A failure reply the packet lets through: the "drops-minutes" reply is the sample's answer.
  await t.add('reply-passes');
  await t.write('reply-passes', 'replies/drops-minutes.md', await t.read('reply-passes', 'replies/sample.md'));
  // A sample reply that is prose, not files.
  await t.add('sample-reply-prose');
  await t.write('sample-reply-prose', 'replies/sample.md', 'Sum every unit and refuse the rest. (No code, sorry.)\n');
  // A sample reply that is wrong.
  await t.add('sample-reply-wrong');
  await t.write('sample-reply-wrong', 'replies/sample.md', await t.read('sample-reply-wrong', 'replies/accepts-garbage.md'));
  const io = memoryIo(t.root, { env: env() });
  exitCode = await runCli(['rehearse', '--no-cache', '--report', 'report.json'], io);
  stdout = io.stdout;
  report = JSON.parse(await readFile(path.join(t.root, 'report.json'), 'utf8'));
}, 120_000);

afterAll(() => t.dispose());

const packet = (id: string) => report.packets.find((p) => p.id === id)!;
const check = (id: string, c: string) => packet(id).checks.find((x) => x.id === c)!;

describe('the scripted default', () => {
  it('rehearses every reply of a healthy packet and records each run', async () => {
    expect(packet('healthy').status).toBe('fails-closed');
    const replies = packet('healthy').checks.filter((c) => c.kind === 'reply');
    expect(replies.map((c) => [c.id, c.ok, c.model!.verdict])).toEqual([
      ['reply:sample', true, 'PASS'],
      ['reply:drops-minutes', true, 'CAUGHT'],
      ['reply:accepts-garbage', true, 'CAUGHT'],
    ]);
    const sample = check('healthy', 'reply:sample');
    expect(sample.model).toMatchObject({
      packet: 'healthy',
      version: '0.1.0',
      model: 'scripted:healthy/sample',
      endpoint: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
      calls: 1,
      turns: 1,
      stop: null,
      receipts: { usage: `${OUT}/healthy/replies/sample/usage.jsonl`, ledger: `${OUT}/healthy/replies/sample/ledger.json`, giveUp: null },
    });
    expect(sample.model!.digest).toBe(packet('healthy').digest);
    expect(sample.model!.tokens.total).toBe(sample.model!.tokens.prompt + sample.model!.tokens.completion);
    expect(sample.model!.bytes.out).toBeGreaterThan(1000);
    expect(sample.tests).toMatchObject({ ran: 6, failed: 0 });
    expect(check('healthy', 'reply:drops-minutes').model!.caughtBy).toEqual(['visible-tests', 'hidden-tests', 'signal']);
    expect(check('healthy', 'reply:drops-minutes').model!.findings.map((f) => f.code)).toEqual(['PK415', 'PK416', 'PK430']);
    expect(check('healthy', 'reply:drops-minutes').findings!.map((f) => f.code)).toEqual(['PK415', 'PK416', 'PK430']);
    expect((await readdir(path.join(t.root, OUT, 'healthy/replies'))).sort()).toEqual(['accepts-garbage', 'drops-minutes', 'sample']);
    const ledger = JSON.parse(await readFile(path.join(t.root, OUT, 'healthy/replies/sample/ledger.json'), 'utf8'));
    expect(ledger).toMatchObject({ schemaVersion: 2, calls: 1, verdict: 'PASS', digest: packet('healthy').digest, tokens: sample.model!.tokens.total });
  });

  it('names a failure reply the packet lets through', () => {
    expect(packet('reply-passes').status).toBe('defect');
    expect(check('reply-passes', 'reply:drops-minutes').ok).toBe(false);
    expect(packet('reply-passes').defects).toEqual([
      'PK453 The packet passes the scripted reply for "Only the first unit counts" (drops-minutes): every test is green, every check is clean and no signal matches.',
    ]);
  });

  it('names a sample reply that cannot be applied, and one that is wrong', () => {
    expect(packet('sample-reply-prose').defects).toEqual([
      'PK454 The scripted reply replies/sample.md cannot be applied: it holds no code: no fenced block with a path= attribute and no unified diff.',
    ]);
    expect(check('sample-reply-prose', 'reply:sample').inconclusive).toBeUndefined();
    expect(packet('sample-reply-wrong').defects[0]).toMatch(/^PK452 The sample reply \(replies\/sample\.md\) ends CAUGHT: PK415 1 visible test failed/);
  });

  it('exits 1 on packet defects and says so in words', () => {
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/4 packets: 1 fail closed, 3 with defects, 0 inconclusive/);
    expect(stdout).toMatch(/healthy reply:sample ok \(\d+ ms\): PASS: the judge found nothing/);
  });

  it('caches the reply checks with the rest of the packet', async () => {
    const io = memoryIo(t.root, { env: env() });
    expect(await runCli(['rehearse', 'healthy', '--report', 'again.json'], io)).toBe(0);
    expect(await runCli(['rehearse', 'healthy', '--report', 'again.json'], io)).toBe(0);
    expect(io.stdout).toMatch(/\(1 cached\)/);
    const again = JSON.parse(await readFile(path.join(t.root, 'again.json'), 'utf8')) as RehearsalReport;
    expect(again.packets[0]!.checks.filter((c) => c.kind === 'reply')).toHaveLength(3);
  });
});
