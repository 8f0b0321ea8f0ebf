import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { rehearseRun, type RehearseFlags } from '../../../src/rehearse/rehearse-run.ts';
import { fakeSandboxMaker } from '../../support/fake-sandbox.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * `packet rehearse` with a report that cannot be written, made so that it holds as root too: a
 * regular file where the report's folder must be (tried before any packet is rehearsed), and a
 * folder where the report file must be (found only when the report is written, at the end).
 */
let t: TempPackets;
let scratch: string;
beforeEach(async () => {
  t = await tempPackets();
  await t.add('alpha');
  scratch = await mkdtemp(path.join(tmpdir(), 'packet-rehearse-faults-'));
});
afterEach(async () => {
  await t.dispose();
  await rm(scratch, { recursive: true, force: true });
});

const flags = (report: string): RehearseFlags => ({ ids: ['alpha'], packets: 'packets', report, 'no-cache': true, unconfined: false, 'api-key-env': 'OPENAI_API_KEY', jobs: 1, timeout: 5 });

async function rehearse(report: string) {
  const fake = fakeSandboxMaker();
  const said: Diagnostic[] = [];
  const code = await rehearseRun(flags(report), { env: {}, cwd: t.root, now: () => new Date('2026-12-01T12:00:00Z'), tmpDir: scratch, prepareSandbox: fake.prepare }, { onDiagnostic: (d) => void said.push(d) });
  return { code, said, fake };
}

describe('packet rehearse with a report that cannot be written', () => {
  it('is PK490 naming the report and the fix, exit 2, before any packet is rehearsed', async () => {
    await writeFile(path.join(t.root, 'blocked'), 'a file, not a folder');
    const { code, said, fake } = await rehearse('blocked/report.json');
    expect(code).toBe(2);
    expect(said.map((d) => [d.code, d.file])).toEqual([['PK490', 'blocked/report.json']]);
    expect(said[0]!.message).toMatch(/^The rehearsal report blocked\/report\.json cannot be written: a file stands where a folder should be \((EEXIST|ENOTDIR)\)\. /);
    expect(said[0]!.hint).toBe('Move that file away, or choose another folder (--report FILE and --junit FILE choose the files), then rehearse again.');
    expect(fake.seen.prepared).toEqual([]);
  });

  it('is PK490, exit 2, when the report cannot be written at the end, leaving no temporary file', async () => {
    await mkdir(path.join(t.root, 'out', 'report.json'), { recursive: true });
    const { code, said, fake } = await rehearse('out/report.json');
    expect(fake.seen.prepared.length).toBe(1);
    expect(code).toBe(2);
    expect(said.map((d) => d.code)).toContain('PK490');
    expect(said.find((d) => d.code === 'PK490')!.message).toMatch(/^The rehearsal report out\/report\.json cannot be written: a folder stands where a file should be written \(EISDIR\)/);
    expect(await readdir(path.join(t.root, 'out'))).toEqual(['report.json']);
    expect(existsSync(path.join(t.root, 'out', 'report.json'))).toBe(true);
  });

  it('is PK490, exit 2, when the disk is full as the report is written (ENOSPC, from /dev/full), leaving no file', async () => {
    await mkdir(path.join(t.root, 'out'));
    // The temporary file the report is first written to is a link to /dev/full, where every write fails with ENOSPC.
    await symlink('/dev/full', path.join(t.root, 'out', `report.json.${process.pid}.tmp`));
    const { code, said } = await rehearse('out/report.json');
    expect(code).toBe(2);
    expect(said.find((d) => d.code === 'PK490')!.message).toMatch(/^The rehearsal report out\/report\.json cannot be written: no space left on device \(ENOSPC\)/);
    expect(await readdir(path.join(t.root, 'out'))).toEqual([]);
  });
});

describe('packet rehearse with models, into a model runs\' folder that cannot be written', () => {
  it('is PK491 naming the folder and the fix, exit 2, before any sandbox or model call', async () => {
    await writeFile(path.join(t.root, 'blocked'), 'a file, not a folder');
    const fake = fakeSandboxMaker();
    const said: Diagnostic[] = [];
    const withModel: RehearseFlags = { ...flags('out/report.json'), model: 'scripted:{packet}/sample', out: 'blocked/runs' };
    const code = await rehearseRun(withModel, { env: {}, cwd: t.root, now: () => new Date('2026-12-01T12:00:00Z'), tmpDir: scratch, prepareSandbox: fake.prepare }, { onDiagnostic: (d) => void said.push(d) });
    expect(said.map((d) => [d.code, d.file])).toEqual([['PK491', 'blocked/runs']]);
    expect(said[0]!.message).toMatch(/^The model runs' folder blocked\/runs\/ cannot be written: a file stands where a folder should be \((EEXIST|ENOTDIR)\)\. /);
    expect(said[0]!.hint).toBe('Move that file away, or choose another folder (--out DIR chooses the folder), then rehearse again.');
    expect(code).toBe(2);
    expect(fake.seen.prepared).toEqual([]);
  });
});
