import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { reportText } from '../../../src/rehearse/report-file.ts';
import { packet, report } from '../../support/report-fixtures.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * `packet report`, `packet merge-reports` and `packet new` writing where they cannot: a regular
 * file where a folder must be (which stops root as much as anyone), and a full disk (the
 * temporary file a write goes through linked to /dev/full, where every write fails with ENOSPC).
 * Each is its coded error naming the place and the fix, exit 2, never PK901.
 */
let t: TempPackets;
beforeAll(async () => {
  t = await tempPackets();
  await t.add('alpha');
  await writeFile(path.join(t.root, 'blocked'), 'a file, not a folder');
  await writeFile(path.join(t.root, 'a.json'), reportText(report([packet('alpha')])));
});
afterAll(() => t.dispose());

async function cli(argv: string[]) {
  const io = memoryIo(t.root);
  const code = await runCli(argv, io);
  return { code, stderr: io.stderr };
}

describe('a place that cannot be written, for the report commands and packet new', () => {
  const cases: [string, string[], RegExp, string][] = [
    ['report --out', ['report', 'a.json', '--out', 'blocked/site'], /^PK492 The report folder blocked\/site\/ cannot be written: a file stands where a folder should be \((EEXIST|ENOTDIR)\)\. packet report exits 2/, '--out DIR'],
    ['report --junit', ['report', 'a.json', '--out', 'site', '--junit', 'blocked/junit.xml'], /^PK492 The JUnit file blocked\/junit\.xml cannot be written: a file stands where a folder should be/, '--junit FILE'],
    ['merge-reports --out', ['merge-reports', 'a.json', '--out', 'blocked/merged.json'], /^PK492 The merged report blocked\/merged\.json cannot be written: a file stands where a folder should be/, '--out FILE'],
    ['new --packets', ['new', 'bravo', '--packets', 'blocked/packets'], /^PK193 The new packet's folder blocked\/packets\/bravo\/ cannot be written: a file stands where a folder should be/, '--packets DIR'],
  ];
  for (const [name, argv, line, flag] of cases) {
    it(`packet ${name}: its coded error naming the place, exit 2, not PK901`, async () => {
      const { code, stderr } = await cli(argv);
      expect(stderr).toMatch(line);
      expect(stderr).toContain(`\n  hint: Move that file away, or choose another folder (${flag} chooses `);
      expect(stderr).not.toContain('PK901');
      expect(code).toBe(2);
    });
  }

  it('packet report with a file in the way builds nothing (the folders are tried first)', async () => {
    await cli(['report', 'a.json', '--out', 'site2', '--junit', 'blocked/junit.xml']);
    expect(await readdir(t.root)).not.toContain('site2');
  });

  it('packet merge-reports on a full disk: PK492 (ENOSPC), exit 2, no file left', async () => {
    await mkdir(path.join(t.root, 'full'));
    await symlink('/dev/full', path.join(t.root, 'full', `merged.json.${process.pid}.tmp`));
    const { code, stderr } = await cli(['merge-reports', 'a.json', '--out', 'full/merged.json']);
    expect(stderr).toMatch(/^PK492 The merged report full\/merged\.json cannot be written: no space left on device \(ENOSPC\)/);
    expect(stderr).not.toContain('PK901');
    expect(code).toBe(2);
    expect(await readdir(path.join(t.root, 'full'))).toEqual([]);
  });

  it('packet report on a full disk as report.json is written: PK492 (ENOSPC), exit 2', async () => {
    await mkdir(path.join(t.root, 'full-site'));
    await symlink('/dev/full', path.join(t.root, 'full-site', `report.json.${process.pid}.tmp`));
    const { code, stderr } = await cli(['report', 'a.json', '--out', 'full-site']);
    expect(stderr).toMatch(/^PK492 The report folder full-site\/ cannot be written: no space left on device \(ENOSPC\)/);
    expect(stderr).not.toContain('PK901');
    expect(code).toBe(2);
  });
});
