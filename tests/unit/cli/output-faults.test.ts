import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { reportText } from '../../../src/rehearse/report-file.ts';
import { packet, report } from '../../support/report-fixtures.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';
import { chownTree } from '../../support/chown-tree.ts';

const BIN = fileURLToPath(new URL('../../../src/cli/bin.js', import.meta.url));

/**
 * An output folder that cannot be written, through the command line: the coded error of each
 * command with exit 2 (a set-up problem, docs/cli.md), never PK901's "internal error". The folder
 * is blocked by a regular file where it must be, which stops root as much as anyone.
 */
let t: TempPackets;
beforeAll(async () => {
  t = await tempPackets();
  await t.add('alpha');
  await writeFile(path.join(t.root, 'blocked'), 'a file, not a folder');
  await writeFile(path.join(t.root, 'a.json'), reportText(report([packet('alpha')])));
});
afterAll(() => t.dispose());

describe('an output folder that cannot be written, at the command line', () => {
  const cases: [string, string[], RegExp][] = [
    ['grade --out', ['grade', 'alpha', 'subs/a.zip', '--out', 'blocked/grades'], /^PK540 The grades folder blocked\/grades\/alpha\/ cannot be written: a file stands where a folder should be/],
    ['rehearse --report', ['rehearse', 'alpha', '--report', 'blocked/report.json'], /^PK490 The rehearsal report blocked\/report\.json cannot be written: a file stands where a folder should be/],
    ['mutate --out', ['mutate', 'alpha', '--out', 'blocked/mutate'], /^PK628 The mutation run's folder blocked\/mutate\/ cannot be written: a file stands where a folder should be/],
  ];
  for (const [name, argv, line] of cases) {
    it(`packet ${name}: its coded error naming the folder, exit 2, not PK901`, async () => {
      const io = memoryIo(t.root);
      expect(await runCli(argv, io)).toBe(2);
      expect(io.stderr).toMatch(line);
      expect(io.stderr).toMatch(/\n {2}hint: Move that file away, or choose another folder \(/);
      expect(io.stderr).not.toContain('PK901');
    });
  }
});

describe('an output folder whose mode forbids writing, at the command line', () => {
  // A mode stops no write of root's: as root, the command runs as an unprivileged user.
  const asUser: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  beforeAll(async () => {
    await mkdir(path.join(t.root, 'read-only'));
    if (asUser.uid !== undefined) await chownTree(t.root, asUser.uid, asUser.gid!);
    await chmod(path.join(t.root, 'read-only'), 0o555);
  });
  afterAll(() => chmod(path.join(t.root, 'read-only'), 0o755));

  const cases: [string, string[], string][] = [
    ['grade --out', ['grade', 'alpha', 'subs/a.zip', '--out', 'read-only/grades'], 'PK540 The grades folder read-only/grades/alpha/ cannot be written: permission denied (EACCES)'],
    ['rehearse --report', ['rehearse', 'alpha', '--report', 'read-only/rehearsal/report.json'], 'PK490 The rehearsal report read-only/rehearsal/report.json cannot be written: permission denied (EACCES)'],
    ['mutate --out', ['mutate', 'alpha', '--out', 'read-only/mutate'], "PK628 The mutation run's folder read-only/mutate/ cannot be written: permission denied (EACCES)"],
    ['new --packets', ['new', 'bravo', '--packets', 'read-only/packets'], "PK193 The new packet's folder read-only/packets/bravo/ cannot be written: permission denied (EACCES)"],
    ['report --out', ['report', 'a.json', '--out', 'read-only/site'], 'PK492 The report folder read-only/site/ cannot be written: permission denied (EACCES)'],
    ['merge-reports --out', ['merge-reports', 'a.json', '--out', 'read-only/merged.json'], 'PK492 The merged report read-only/merged.json cannot be written: permission denied (EACCES)'],
  ];
  for (const [name, argv, line] of cases) {
    it(`packet ${name} into a folder of mode 0555: its coded error, exit 2, nothing written`, async () => {
      const run = spawnSync(process.execPath, [BIN, ...argv], { cwd: t.root, env: { PATH: process.env.PATH, HOME: t.root, CI: '1' }, encoding: 'utf8', ...asUser });
      expect(run.stderr).toContain(line);
      expect(run.stderr).not.toContain('PK901');
      expect(run.status).toBe(2);
      expect(await readdir(path.join(t.root, 'read-only'))).toEqual([]);
    });
  }
});

