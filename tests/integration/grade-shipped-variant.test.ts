import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
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
 * A shipped take-home with variants, graded as its candidates hand it back: variant v2's zip
 * with v2's own sample passes; the same zip with v1's sample (an answer copied from another
 * candidate) passes v1's tests, not v2's, so it gets PK584 and a no-hire.
 */
const ID = 'fetch-retry-ticket';
const SHIPPED = path.resolve(import.meta.dirname, '../../packets', ID);
let root: string;
let version: string;
let v1: PacketVariant;
let v2: PacketVariant;
let stdout: string;

const card = async (name: string) => JSON.parse(await readFile(path.join(root, 'out/grades', ID, name, 'scorecard.json'), 'utf8')) as Scorecard;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'grade-shipped-variant-'));
  await cp(SHIPPED, path.join(root, 'packets', ID), { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
  const build = memoryIo(root, { env: process.env });
  expect(await runCli(['build', '--packets', 'packets', '--variants', '2', '--skip-rehearse', '--out-dir', 'dist', '--reviewer-dir', 'rev'], build), build.stderr).toBe(0);
  const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root });
  const packet = loaded.packets.find((p) => p.id === ID)!;
  if (!hasCode(packet)) throw new Error(`${ID} is a take-home`);
  version = packet.prompt.data.version;
  [v1, v2] = (await packetVariants(packet, folderReader(path.join(root, 'packets', ID)), 2)).map((r) => r.variant!) as [PacketVariant, PacketVariant];
  const zip2 = await unzip(path.join(root, 'rev/variants', `${ID}-${version}`, `${ID}-${version}-v2.zip`));
  const subs = path.join(root, 'submissions');
  await mkdir(subs);
  await writeZip(submission(zip2, v2), path.join(subs, 'own.zip'));
  await writeZip(submission(zip2, v1), path.join(subs, 'copied.zip'));
  const io = memoryIo(root, { env: process.env });
  await runCli(['grade', ID, 'submissions/own.zip', 'submissions/copied.zip', '--jobs', '2'], io);
  stdout = io.stdout;
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe(`packet grade on the shipped ${ID}, which has variants`, () => {
  it('draws two variants whose parameter differs', () => {
    expect(v1.values.shed).not.toBe(v2.values.shed);
  });

  it("passes v2's own sample graded as v2, with no leak finding", async () => {
    const c = await card('own');
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v2', digest: v2.digest, values: v2.values } });
    expect(c.findings.map((f) => f.code)).not.toContain('PK584');
    expect(c.decision.state).not.toBe('no-hire');
  });

  it("flags v1's sample sent in v2's zip with PK584, and it is no hire", async () => {
    const c = await card('copied');
    expect(c.graded).toBe(true);
    const f = c.findings.find((x) => x.code === 'PK584');
    expect(f, JSON.stringify(c.findings.map((x) => x.code))).toBeDefined();
    expect(f!.message).toMatch(/passes variant v1's tests, not its own variant v2/);
    expect(c.variant).toMatchObject({ id: 'v2', leakCheck: { ran: true, passed: 'v1' } });
    expect(c.decision.state).toBe('no-hire');
    expect(stdout).toMatch(/copied: .*PK584/);
  });
});
