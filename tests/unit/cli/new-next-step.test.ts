import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { packetsFlag, shellWord } from '../../../src/cli/shell-word.ts';

/** The words of a command line as `shellWord` writes them: plain words and single-quoted ones. */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
}

/** The command `packet new` prints as the next step, as arguments of `packet`. */
function nextStep(stdout: string): string[] {
  const m = /Next: edit the parts, then run `npx packet ([^`]+)`/.exec(stdout);
  expect(m, stdout).not.toBeNull();
  return words(m![1]!);
}

describe('the next step `packet new` prints', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const tempDir = async () => {
    const d = await mkdtemp(path.join(tmpdir(), 'packet-new-'));
    dirs.push(d);
    return d;
  };

  it.each([
    ['the default folder', [], ['check', 'fresh']],
    ['the default folder, spelled another way', ['--packets', './packets/'], ['check', 'fresh']],
    ['another folder', ['--packets', 'my-packets'], ['check', 'fresh', '--packets', 'my-packets']],
    ['a folder with a space and a quote', ['--packets', "Bob's packets"], ['check', 'fresh', '--packets', "Bob's packets"]],
  ])('runs as printed, for %s', async (_, flags, expected) => {
    const dir = await tempDir();
    const made = memoryIo(dir);
    // Another packet in packets/, so a check that misses the flag looks in the wrong folder.
    expect(await runCli(['new', 'other'], memoryIo(dir))).toBe(0);
    expect(await runCli(['new', 'fresh', ...flags], made)).toBe(0);
    const step = nextStep(made.stdout);
    expect(step).toEqual(expected);
    const io = memoryIo(dir);
    expect(await runCli(step, io), io.stdout + io.stderr).toBe(0);
  });

  it('is needed: without --packets the check fails with PK114, whose hint names the flag', async () => {
    const dir = await tempDir();
    expect(await runCli(['new', 'other'], memoryIo(dir))).toBe(0);
    expect(await runCli(['new', 'fresh', '--packets', 'my-packets'], memoryIo(dir))).toBe(0);
    const io = memoryIo(dir);
    expect(await runCli(['check', 'fresh'], io)).toBe(1);
    const text = io.stdout + io.stderr;
    expect(text).toContain('PK114');
    expect(text).toMatch(/hint: [^\n]*--packets DIR/);
  });
});

describe('shellWord', () => {
  it('leaves a plain word alone and single-quotes the rest', () => {
    expect(shellWord('my-packets/a_b.c')).toBe('my-packets/a_b.c');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('$(rm -rf ~)')).toBe("'$(rm -rf ~)'");
    expect(packetsFlag('packets', '/w')).toBe('');
    expect(packetsFlag('/w/packets', '/w')).toBe('');
    expect(packetsFlag('lib', '/w')).toBe(' --packets lib');
  });
});
