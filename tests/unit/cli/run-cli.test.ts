import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-kit-run-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the line of an error that stops a command', () => {
  it('is the renderer\'s, with the control characters of its path escaped', async () => {
    const io = memoryIo(dir);
    // A packets folder whose name would clear the line and forge another on a terminal.
    expect(await runCli(['check', '--packets', 'gone\u001b[2K\rPK000 error all clear'], io)).toBe(1);
    expect(io.stderr).toMatch(/^gone\\u001b\[2K\\rPK000 error all clear PK101 error The packets folder "gone/);
    expect(io.stderr).not.toContain('\u001b');
    expect(io.stderr).not.toContain('\r');
    expect(io.stderr).toMatch(/\n {2}hint: Run from the project root, or pass the folder with --packets DIR\.\n$/);
  });
});

describe('a command the kit does not know', () => {
  it('is named with its control characters escaped', async () => {
    const io = memoryIo(dir);
    expect(await runCli(['chec\u001b[2K\rk\u202e'], io)).toBe(2);
    expect(io.stderr).toContain('packet: unknown command "chec\\u001b[2K\\rk\\u202e".');
    expect(io.stderr).not.toMatch(/[\u001b\r\u202e]/);
  });
});
