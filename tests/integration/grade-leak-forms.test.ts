import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { folderReader } from '../../src/grade/grade-variants.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { hasCode } from '../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import { submission, unzip, writeZip } from '../support/variant-submissions.ts';

/**
 * The leak check's choice of variants, attacked: a candidate sent v5 of the twenty-variant
 * fixture hands in the answer of v20 (the same function name, another limit), its limit written
 * so a plain word scan misses it, or placed behind more than a MiB of text in a file that comes
 * first. The leak check tries only 3 of the 19 other variants, those whose values the text
 * carries first: a scan that misses the value tries v1, v2 and v3 and finds no copy. Both must
 * still be PK584, naming v20. Graded with the roster, as a hiring lead does.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/variants/packets/variant-twenty');
const ID = 'variant-twenty';
let root: string;
let exitCode: number;
let stdout: string;
let stderr: string;
let plain: { code: number; stderr: string };
let copied: PacketVariant;

const card = async (name: string) => JSON.parse(await readFile(path.join(root, 'out/grades', ID, name, 'scorecard.json'), 'utf8')) as Scorecard;

/** Text that does not compress like a bomb: letters and spaces from a fixed generator. */
function padding(chars: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < chars; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += 'abcdefghijklmnopqrstuvwxyz '[x % 27];
  }
  return out;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'grade-leak-forms-'));
  await cp(FIXTURE, path.join(root, 'packets', ID), { recursive: true });
  const build = memoryIo(root, { env: process.env });
  expect(await runCli(['build', ID, '--packets', 'packets', '--skip-rehearse', '--out-dir', 'dist', '--reviewer-dir', 'rev'], build), build.stderr).toBe(0);
  const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root, ids: [ID] });
  const packet = loaded.packets.find((p) => p.id === ID)!;
  if (!hasCode(packet)) throw new Error('the fixture is a take-home');
  const variants = (await packetVariants(packet, folderReader(path.join(root, 'packets', ID)), 20)).map((r) => r.variant!);
  const sent = variants[4]!;
  copied = variants[19]!;
  // The attack needs a copy whose only differing value is a number the first three do not carry.
  expect(copied.values.func).toBe(sent.values.func);
  expect(copied.values.limit).not.toBe(sent.values.limit);
  const zip = await unzip(path.join(root, 'rev/variants', `${ID}-0.1.0`, `${ID}-0.1.0-v5.zip`));
  const rootDir = [...zip.keys()][0]!.split('/')[0]!;
  const subs = path.join(root, 'submissions');
  await mkdir(subs);
  const limit = Number(copied.values.limit);
  const hex = submission(zip, copied);
  const src = `${rootDir}/src/duration.py`;
  hex.set(src, Buffer.from(hex.get(src)!.toString('utf8').replace(`LIMIT_HOURS = ${limit}`, `LIMIT_HOURS = 0x${limit.toString(16).toUpperCase()}`)));
  expect(hex.get(src)!.toString('utf8')).not.toMatch(new RegExp(`\\b${limit}\\b`));
  hex.set(`${rootDir}/NOTES.md`, Buffer.from('Fixed the parser.\n'));
  await writeZip(hex, path.join(subs, 'hex.zip'));
  const padded = submission(zip, copied);
  padded.set(`${rootDir}/AAA-scratch.txt`, Buffer.from(padding(1200 * 1024)));
  await writeZip(padded, path.join(subs, 'padded.zip'));
  await writeFile(path.join(root, 'roster.csv'), 'submission,variant\nhex,v5\npadded,v5\n');
  const io = memoryIo(root, { env: process.env });
  exitCode = await runCli(['grade', ID, 'submissions/hex.zip', 'submissions/padded.zip', '--roster', 'roster.csv', '--jobs', '2'], io);
  stdout = io.stdout;
  stderr = io.stderr;
  // The same hand-in graded without the roster: the README decides, and the grader says so.
  const bare = memoryIo(root, { env: process.env });
  plain = { code: await runCli(['grade', ID, 'submissions/hex.zip', '--out', 'out/plain'], bare), stderr: bare.stderr };
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe("the leak check finds another variant's answer however its values are written", () => {
  it('grades both and exits 0', () => {
    expect(exitCode, stdout).toBe(0);
  });

  for (const name of ['hex', 'padded']) {
    it(`${name}: v20's answer in v5's zip is PK584 naming v20, and no hire`, async () => {
      const c = await card(name);
      expect(c.verdict).not.toBe('PASS');
      expect(c.variant?.leakCheck.passed, JSON.stringify(c.variant?.leakCheck)).toBe(copied.id);
      expect(c.findings.map((f) => f.code)).toContain('PK584');
      expect(c.decision.state).toBe('no-hire');
    });
  }
});

describe('grading a packet with variants without --roster', () => {
  const note = /note: variant-twenty has variants and no --roster was given: each submission is graded as the variant its README's Variant and Digest lines name, which the candidate writes, so an answer copied together with its README is graded as that variant and can pass\. Grade with --roster roster\.csv/;

  it('says, once, that the README decides and a copy with its README passes, and how to grade with the roster', () => {
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(note);
    expect(plain.stderr.match(/no --roster was given/g)).toHaveLength(1);
  });

  it('says nothing of the kind with the roster', () => {
    expect(stderr).not.toMatch(/no --roster was given/);
  });
});
