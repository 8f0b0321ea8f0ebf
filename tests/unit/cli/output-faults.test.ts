import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

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
