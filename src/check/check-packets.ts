import path from 'node:path';
import { packetFileRefusals } from './file-policy.ts';
import { checkVersionDrift } from './version-drift.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { KIT_ROOT, kitFingerprint } from '../kit/fingerprint.ts';
import { loadProjectLintConfig } from '../lint/config.ts';
import { directoryLintCache, type LintCache } from '../lint/lint-cache.ts';
import { lintPackets } from '../lint/engine.ts';
import { fsPacketFiles } from '../lint/files.ts';
import { displayPath } from '../packets/fs-source.ts';
import { loadPackets, type LoadResult } from '../packets/load.ts';
import { codePackets, type Packet } from '../packets/packet.ts';
import { checkVariants } from '../packets/variants-check.ts';

/**
 * `packet check` as a library: load and validate, then the file names the build would refuse,
 * the lint and the version drift. `packet build` runs the same, as its check step.
 */

/** Options of {@link checkPackets}. */
export interface CheckOptions {
  packetsDir: string;
  cwd: string;
  ids?: readonly string[];
  /** Lint the packets that parsed. */
  lint: boolean;
  /** The lint config file; default: packet-kit.config.json, if present. */
  config?: string;
  /** The built site whose packets.json is compared for version bumps. */
  outDir: string;
  /** The lint's results of earlier runs (node_modules/.cache/packet-kit/lint/), reused for unchanged packets. */
  lintCache?: LintCache;
  /** The variants a build makes of each packet with parameters (`packet build --variants`), over the field's count. */
  variants?: number;
}

/** The lint cache of a project: in its node_modules/.cache, tied to this kit's code (`kit`, its fingerprint, when known already). */
export function projectLintCache(cwd: string, kit: string = kitFingerprint(KIT_ROOT)): LintCache {
  return directoryLintCache(path.resolve(cwd, 'node_modules/.cache/packet-kit/lint'), kit);
}

/** Everything `packet check` reports (load, validation, lint, version drift), unsorted; `packet build` runs the same. */
export async function checkPackets(options: CheckOptions): Promise<LoadResult> {
  const loaded = await loadPackets({ packetsDir: options.packetsDir, cwd: options.cwd, ...(options.ids ? { ids: options.ids } : {}) });
  loaded.diagnostics.push(...(await checkLoadedPackets(loaded.packets, options)));
  return loaded;
}

/**
 * What `packet check` adds once the packets (of every kind) are loaded: the file names the build
 * would refuse and the version drift (of the packets with code, which have a zip), the lint (and
 * its config's problems).
 */
export async function checkLoadedPackets(packets: readonly Packet[], options: Omit<CheckOptions, 'packetsDir' | 'ids'>): Promise<Diagnostic[]> {
  const withCode = codePackets(packets);
  const diagnostics: Diagnostic[] = withCode.flatMap((p) => packetFileRefusals(p));
  const files = fsPacketFiles(options.cwd);
  for (const p of withCode) diagnostics.push(...(await checkVariants(p, (rel) => files.read(p, rel), options.variants)));
  if (options.lint) {
    const { config, diagnostics: configProblems } = await loadProjectLintConfig(options.cwd, options.config);
    diagnostics.push(...configProblems);
    diagnostics.push(...(await lintPackets(packets, { config, files: fsPacketFiles(options.cwd), ...(options.lintCache ? { cache: options.lintCache } : {}) })));
  }
  const outDir = path.resolve(options.cwd, options.outDir);
  diagnostics.push(...(await checkVersionDrift(withCode, outDir, displayPath(path.join(outDir, 'packets.json'), options.cwd))));
  return diagnostics;
}
