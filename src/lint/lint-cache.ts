import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../errors/diagnostic.ts';
import type { Packet } from '../packets/packet.ts';
import type { LintConfig } from './config.ts';

/**
 * The lint's results of earlier runs, by what they were made of: the packet's content digest (every
 * file, its own lint.json included), where it sits (diagnostics name its files), the project's
 * lint settings and a fingerprint of the kit's code (the rules). The same inputs give the same
 * diagnostics, so an unchanged packet is not linted again.
 */
export interface LintCache {
  get(packet: Packet, config: LintConfig | undefined): Promise<Diagnostic[] | undefined>;
  set(packet: Packet, config: LintConfig | undefined, diagnostics: readonly Diagnostic[]): Promise<void>;
}

/** Version of a cache entry; bump it when the entry's shape changes. */
const LINT_CACHE_VERSION = 1;

/** A lint cache in a folder (one JSON file per entry), for a kit of the given fingerprint. */
export function directoryLintCache(dir: string, kit: string): LintCache {
  const keyOf = (packet: Packet, config: LintConfig | undefined) =>
    createHash('sha256').update(JSON.stringify([LINT_CACHE_VERSION, kit, packet.digest, packet.dir, config ?? null])).digest('hex');
  const file = (key: string) => path.join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(packet, config) {
      try {
        const entry = JSON.parse(await readFile(file(keyOf(packet, config)), 'utf8')) as { version: number; diagnostics: Diagnostic[] };
        return entry.version === LINT_CACHE_VERSION && Array.isArray(entry.diagnostics) ? entry.diagnostics : undefined;
      } catch {
        return undefined;
      }
    },
    async set(packet, config, diagnostics) {
      const target = file(keyOf(packet, config));
      try {
        await mkdir(path.dirname(target), { recursive: true });
        const tmp = `${target}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify({ version: LINT_CACHE_VERSION, diagnostics }));
        await rename(tmp, target);
      } catch {
        // A cache that cannot be written only costs time.
      }
    },
  };
}
