import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin?: Record<string, string>; scripts: Record<string, string> };
const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'packet-kit-link-bin-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A checkout of a kit: the link script and a bin.js that prints which checkout it is and its arguments. */
function checkout(name: string, nodeModules?: string): string {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  mkdirSync(path.join(dir, 'src/cli'), { recursive: true });
  copyFileSync(path.join(ROOT, 'scripts/link-bin.sh'), path.join(dir, 'scripts/link-bin.sh'));
  writeFileSync(path.join(dir, 'src/cli/bin.js'), `console.log(JSON.stringify({ bin: import.meta.filename, args: process.argv.slice(2) }));\n`);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  if (nodeModules) symlinkSync(nodeModules, path.join(dir, 'node_modules'));
  execFileSync('sh', [path.join(dir, 'scripts/link-bin.sh')], { cwd: tmp });
  return dir;
}

const run = (file: string, args: string[], cwd = tmp) => JSON.parse(execFileSync(file, args, { cwd, encoding: 'utf8', env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` } })) as { bin: string; args: string[] };

describe('`npx packet`', () => {
  it('finds a bin where npm exec looks first: package.json names none, and the postinstall writes node_modules/.bin/packet', () => {
    // With a bin "packet" in package.json, npm exec installs the project into its cache before every run.
    expect(pkg.bin?.packet).toBeUndefined();
    expect(pkg.scripts.postinstall).toBe('sh scripts/link-bin.sh');
    expect(readFileSync(path.join(ROOT, 'scripts/setup.sh'), 'utf8')).toContain('sh scripts/link-bin.sh');
  });

  it("runs the checkout's own CLI with its arguments, from any folder, again after a second run of the script", () => {
    const kit = checkout('kit');
    execFileSync('sh', [path.join(kit, 'scripts/link-bin.sh')]);
    const shim = path.join(kit, 'node_modules/.bin/packet');
    expect(statSync(shim).mode & 0o111).toBe(0o111);
    expect(run(shim, ['explain', 'a b'])).toEqual({ bin: path.join(kit, 'src/cli/bin.js'), args: ['explain', 'a b'] });
  });

  it('runs each checkout\'s own CLI when their node_modules is one folder shared through links', () => {
    const shared = path.join(tmp, 'shared-node_modules');
    mkdirSync(shared);
    const a = checkout('a', shared);
    const b = checkout('b', shared);
    expect(run(path.join(a, 'node_modules/.bin/packet'), []).bin).toBe(path.join(a, 'src/cli/bin.js'));
    expect(run(path.join(b, 'node_modules/.bin/packet'), []).bin).toBe(path.join(b, 'src/cli/bin.js'));
  });

  it('is what npx runs, without installing anything', () => {
    const kit = checkout('npx-kit');
    expect(run('npx', ['--no', '--offline', 'packet', '--help'], kit)).toEqual({ bin: path.join(kit, 'src/cli/bin.js'), args: ['--help'] });
  });
});
