import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { buildFixtureSite, run } from './support/fixture-site.ts';
import { ROOT } from './support/packets.ts';
import { serveStatic } from '../../src/preview/static-server.ts';

/**
 * Build the site once, serve it on 127.0.0.1 at a free port, and publish where it is through the
 * environment (the test workers inherit it). The returned function is the teardown.
 *
 * - `PACKET_KIT_E2E_DIST=<folder>` set: test that built site as it is (its `packets.json`, if any, is the manifest;
 *   the reviewer bundles, which the lab and drill scoring tests import keys from, in `PACKET_KIT_E2E_REVIEWER` or `<folder>/../reviewer`).
 * - `packet build` exists (src/cli/commands/build.ts): build with it into out/e2e/, rehearsal skipped.
 * - otherwise, or with `PACKET_KIT_E2E_BUILD=stand-in`: the stand-in of support/fixture-site.ts, into out/e2e/.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const started = Date.now();
  let dist = process.env.PACKET_KIT_E2E_DIST;
  let manifest: string | undefined;
  let how: string;
  if (dist) {
    dist = path.resolve(ROOT, dist);
    how = 'prebuilt';
  } else if (process.env.PACKET_KIT_E2E_BUILD !== 'stand-in' && existsSync(path.join(ROOT, 'src/cli/commands/build.ts'))) {
    // Into out/e2e/, so a test run never replaces the dist/ of a real build.
    const args = ['build', '--packets', 'packets', '--skip-rehearse', '--out-dir', 'out/e2e/dist', '--reviewer-dir', 'out/e2e/reviewer'];
    await run(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), ...args]);
    dist = path.join(ROOT, 'out/e2e/dist');
    how = `packet ${args.join(' ')}`;
  } else {
    ({ dist, manifest } = await buildFixtureSite(path.join(ROOT, 'out/e2e')));
    how = 'stand-in build (tests/e2e/support/fixture-site.ts)';
  }
  manifest ??= existsSync(path.join(dist, 'packets.json')) ? path.join(dist, 'packets.json') : undefined;
  const server = await serveStatic(dist);
  process.env.PACKET_KIT_E2E_URL = server.url;
  process.env.PACKET_KIT_E2E_DIST = dist;
  process.env.PACKET_KIT_E2E_REVIEWER ??= path.join(path.dirname(dist), 'reviewer');
  if (manifest) process.env.PACKET_KIT_E2E_MANIFEST = manifest;
  else delete process.env.PACKET_KIT_E2E_MANIFEST;
  console.log(`e2e: ${how} in ${((Date.now() - started) / 1000).toFixed(1)}s; serving ${path.relative(ROOT, dist) || dist} at ${server.url}`);
  return () => server.close();
}
