import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));

describe('packet preview', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'packet-preview-'));
    await mkdir(path.join(root, 'dist/packets/a'), { recursive: true });
    await writeFile(path.join(root, 'dist/index.html'), '<h1>catalog</h1>');
    await writeFile(path.join(root, 'dist/packets/a/index.html'), '<h1>a</h1>');
    await writeFile(path.join(root, 'dist/404.html'), '<h1>Page not found</h1>');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('serves the built site on 127.0.0.1 as a static host does, with its 404 page, until stopped', async () => {
    const child = spawn(process.execPath, [BIN, 'preview', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('close', () => reject(new Error(`preview exited: ${out}`)));
    });
    try {
      expect(await (await fetch(`${url}/`)).text()).toBe('<h1>catalog</h1>');
      const redirect = await fetch(`${url}/packets/a`, { redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/packets/a/']);
      const missing = await fetch(`${url}/no/such/page/`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe('<h1>Page not found</h1>');
      expect((await fetch(`${url}/../../etc/passwd`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('says so when there is no built site', async () => {
    const child = spawn(process.execPath, [BIN, 'preview', '--out-dir', 'nowhere'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(1);
    expect(err).toContain('nowhere/ holds no built site');
  });
});
