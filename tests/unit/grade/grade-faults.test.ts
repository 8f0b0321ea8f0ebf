import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { gradeSubmissions, type GradeSummary } from '../../../src/grade/grade.ts';
import { gradeRun } from '../../../src/grade/grade-run.ts';
import { loadPacketFiles, type PacketFiles } from '../../../src/judge/workspace.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import type { Sandbox } from '../../../src/sandbox/types.ts';
import { fakeSandboxMaker } from '../../support/fake-sandbox.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * Grading into folders that cannot take a scorecard. The faults are made so that they hold even
 * when the tests run as root (where a read-only mode stops nothing): a regular file where a
 * submission's folder must be (EEXIST/ENOTDIR), and a full disk made real by the kernel's
 * /dev/full, which fails every write with ENOSPC: the temporary file a scorecard is first written
 * to is a link to it. The submissions do not exist, so each is refused at intake and its card is
 * written without any sandbox.
 */
let t: TempPackets;
let files: PacketFiles;
let out: string;
const noSandbox: Sandbox = {
  kind: 'unconfined',
  run: async () => {
    throw new Error('no submission here reaches the sandbox');
  },
};

beforeEach(async () => {
  t = await tempPackets();
  const dir = await t.add('scaffold');
  const { packets } = await loadPackets({ packetsDir: t.packets, cwd: t.root });
  files = await loadPacketFiles(codePackets(packets).find((p) => p.id === 'scaffold')!, dir);
  out = path.join(t.root, 'out', 'grades', 'scaffold');
  await mkdir(out, { recursive: true });
});
afterEach(() => t.dispose());

async function grade(names: string[]) {
  const said: Diagnostic[] = [];
  const batch = await gradeSubmissions({
    files,
    submissions: names.map((n) => path.join(t.root, 'subs', `${n}.zip`)),
    outDir: out,
    runner: { sandbox: noSandbox, mounts: { pathPrepend: [], readOnlyPaths: [] }, timeoutMs: 10_000 },
    sandboxKind: 'unconfined',
    scratchDir: t.root,
    jobs: 1,
    kitVersion: '0.0.0-test',
    date: () => new Date('2026-12-01T12:00:00Z'),
    now: () => 0,
    random: () => 0.5,
    reporter: { onDiagnostic: (d) => void said.push(d) },
  });
  return { ...batch, said };
}

/** A link from the temporary file a write of `file` goes through to /dev/full: that write fails with ENOSPC. */
async function full(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await symlink('/dev/full', `${file}.${process.pid}.tmp`);
}

describe('a grade batch whose scorecards cannot all be written', () => {
  it('writes every scorecard it can, names the others (PK541), and says so in summary.json and summary.csv', async () => {
    await writeFile(path.join(out, 'bob'), 'a file where bob/ must be');
    await full(path.join(out, 'carol', 'scorecard.md'));
    const { unwritten, said, cards } = await grade(['alice', 'bob', 'carol']);
    expect(cards.map((c) => c.verdict)).toEqual(['REFUSED', 'REFUSED', 'REFUSED']);
    expect(unwritten.map((d) => d.code)).toEqual(['PK541', 'PK541']);
    expect(said).toEqual(unwritten);
    expect(unwritten[0]!.message).toBe(
      `The scorecard of "bob" could not be written to ${path.join(out, 'bob')}: a file stands where a folder should be (EEXIST). The submission was graded, but its card is not kept (nothing half-written is left); summary.json and summary.csv mark it "not written", and the other scorecards were written.`,
    );
    expect(unwritten[0]!.hint).toBe('Move that file away, or choose another folder, then grade "bob" again.');
    expect(unwritten[1]!.message).toContain(': no space left on device (ENOSPC).');
    // alice's card whole; bob's folder still the file it was; carol's folder empty (no JSON without its Markdown, no temporary file).
    expect((await readdir(path.join(out, 'alice'))).sort()).toEqual(['scorecard.json', 'scorecard.md']);
    expect(await readFile(path.join(out, 'bob'), 'utf8')).toBe('a file where bob/ must be');
    expect(await readdir(path.join(out, 'carol'))).toEqual([]);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as GradeSummary;
    expect(summary.rows.map((r) => [r.name, r.cardWritten, r.cardError ?? null])).toEqual([
      ['alice', true, null],
      ['bob', false, 'a file stands where a folder should be (EEXIST)'],
      ['carol', false, 'no space left on device (ENOSPC)'],
    ]);
    const csv = (await readFile(path.join(out, 'summary.csv'), 'utf8')).trim().split('\n');
    expect(csv.map((line) => line.split(',').at(-1))).toEqual(['scorecard', 'alice/scorecard.json', 'not written: a file stands where a folder should be (EEXIST)', 'not written: no space left on device (ENOSPC)']);
  });

  it('names a summary that cannot be written (PK542), and leaves neither half of it', async () => {
    await full(path.join(out, 'summary.csv'));
    const { unwritten } = await grade(['alice']);
    expect(unwritten.map((d) => d.code)).toEqual(['PK542']);
    expect(unwritten[0]!.message).toContain(`summary.json and summary.csv could not be written to ${out}: no space left on device (ENOSPC).`);
    expect((await readdir(out)).sort()).toEqual(['alice']);
  });
});

describe('packet grade into a folder that cannot be written', () => {
  const flags = (outFlag: string, submissions: string[]) => ({ id: 'scaffold', submissions, packets: 'packets', out: outFlag, unconfined: true, jobs: 1, timeout: 60 });

  it('is PK540 naming the folder and the fix, exit 2, before any sandbox or submission', async () => {
    await writeFile(path.join(t.root, 'blocked'), 'a file, not a folder');
    const { seen, prepare } = fakeSandboxMaker('unconfined');
    const said: Diagnostic[] = [];
    const code = await gradeRun(flags('blocked/grades', ['subs/alice.zip']), { env: {}, cwd: t.root, now: () => new Date(), prepareSandbox: prepare }, { onDiagnostic: (d) => void said.push(d) });
    expect(code).toBe(2);
    expect(said.map((d) => [d.code, d.file])).toEqual([['PK540', 'blocked/grades/scaffold']]);
    expect(said[0]!.message).toMatch(/^The grades folder blocked\/grades\/scaffold\/ cannot be written: a file stands where a folder should be \((ENOTDIR|EEXIST)\)/);
    expect(said[0]!.hint).toBe('Move that file away, or choose another folder (--out DIR chooses the folder), then grade again.');
    expect(seen.prepared).toEqual([]);
  });

  it('exits 2 when a scorecard could not be written, with the others written', async () => {
    await writeFile(path.join(out, 'bob'), 'a file where bob/ must be');
    const { prepare } = fakeSandboxMaker('unconfined');
    const said: Diagnostic[] = [];
    const code = await gradeRun(flags('out/grades', ['subs/alice.zip', 'subs/bob.zip']), { env: {}, cwd: t.root, now: () => new Date(), prepareSandbox: prepare }, { onDiagnostic: (d) => void said.push(d) });
    expect(code).toBe(2);
    expect(said.map((d) => d.code)).toEqual(['PK541']);
    expect(existsSync(path.join(out, 'alice', 'scorecard.json'))).toBe(true);
    expect(existsSync(path.join(out, 'summary.csv'))).toBe(true);
  });
});
