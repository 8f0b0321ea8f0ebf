import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { mutateRun } from '../../../src/mutate/mutate-run.ts';
import { fakeSandboxMaker } from '../../support/fake-sandbox.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/** `packet mutate --out` into a folder that cannot be written (a regular file where it must be, so that it holds as root too). */
let t: TempPackets;
let scratch: string;
beforeEach(async () => {
  t = await tempPackets();
  await t.add('alpha');
  scratch = await mkdtemp(path.join(tmpdir(), 'packet-mutate-faults-'));
});
afterEach(async () => {
  await t.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe('packet mutate into a folder that cannot be written', () => {
  it('is PK628 naming the folder and the fix, exit 2, before any sandbox or model call', async () => {
    await writeFile(path.join(t.root, 'blocked'), 'a file, not a folder');
    const fake = fakeSandboxMaker();
    const said: Diagnostic[] = [];
    const flags = { id: 'alpha', packets: 'packets', out: 'blocked/mutate', unconfined: false, 'api-key-env': 'OPENAI_API_KEY', count: 2, feedback: 0, timeout: 5, jobs: 1, 'attempt-timeout': 5, model: 'scripted:alpha/sample' };
    const outcome = await mutateRun(flags, { env: {}, cwd: t.root, now: () => new Date('2026-12-01T12:00:00Z'), tmpDir: scratch, prepareSandbox: fake.prepare }, { onDiagnostic: (d) => void said.push(d) });
    expect(outcome.exitCode).toBe(2);
    expect(said.map((d) => [d.code, d.file])).toEqual([['PK628', 'blocked/mutate']]);
    expect(said[0]!.message).toMatch(/^The mutation run's folder blocked\/mutate\/ cannot be written: a file stands where a folder should be \((EEXIST|ENOTDIR)\)\. /);
    expect(said[0]!.hint).toBe('Move that file away, or choose another folder (--out DIR chooses the folder), then run it again.');
    expect(fake.seen.prepared).toEqual([]);
  });

  it('is PK628, exit 2, when a folder stands where a previous run\'s ledger.json is to be removed', async () => {
    await mkdir(path.join(t.root, 'runs', 'ledger.json'), { recursive: true });
    const fake = fakeSandboxMaker();
    const said: Diagnostic[] = [];
    const flags = { id: 'alpha', packets: 'packets', out: 'runs', unconfined: false, 'api-key-env': 'OPENAI_API_KEY', count: 2, feedback: 0, timeout: 5, jobs: 1, 'attempt-timeout': 5, model: 'scripted:alpha/sample' };
    const outcome = await mutateRun(flags, { env: {}, cwd: t.root, now: () => new Date('2026-12-01T12:00:00Z'), tmpDir: scratch, prepareSandbox: fake.prepare }, { onDiagnostic: (d) => void said.push(d) });
    expect(said.map((d) => [d.code, d.file])).toEqual([['PK628', 'runs']]);
    expect(said[0]!.message).toMatch(/^The mutation run's folder runs\/ cannot be written: a folder stands where a file should be written \(EISDIR\)\. /);
    expect(outcome.exitCode).toBe(2);
  });
});

describe('packet mutate with a temporary folder that cannot be written', () => {
  it('is PK403 naming the folder and the fix, exit 2, before any sandbox is made', async () => {
    const notAFolder = path.join(scratch, 'tmp-is-a-file');
    await writeFile(notAFolder, 'a file, not a folder');
    const fake = fakeSandboxMaker();
    const said: Diagnostic[] = [];
    const flags = { id: 'alpha', packets: 'packets', out: 'runs', unconfined: false, 'api-key-env': 'OPENAI_API_KEY', count: 2, feedback: 0, timeout: 5, jobs: 1, 'attempt-timeout': 5, model: 'scripted:alpha/sample' };
    const outcome = await mutateRun(flags, { env: {}, cwd: t.root, now: () => new Date('2026-12-01T12:00:00Z'), tmpDir: notAFolder, prepareSandbox: fake.prepare }, { onDiagnostic: (d) => void said.push(d) });
    expect(said.map((d) => [d.code, d.file])).toEqual([['PK403', notAFolder]]);
    expect(said[0]!.message).toMatch(/^The scratch folder .*tmp-is-a-file\/ cannot be written: a file stands where a folder should be \((EEXIST|ENOTDIR)\)\. /);
    expect(said[0]!.hint).toBe('Move that file away, or choose another folder (TMPDIR chooses the folder), then run it again.');
    expect(outcome.exitCode).toBe(2);
    expect(fake.seen.prepared).toEqual([]);
  });
});
