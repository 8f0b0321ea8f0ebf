import { readFileSync } from 'node:fs';
import path from 'node:path';
import { kitFingerprint } from './fingerprint.ts';

/** The kit that wrote a report: reports of different kits are never merged. */
export interface KitIdentity {
  /** The kit's package version. */
  version: string;
  /** A hash of the kit's own code (see `kitFingerprint`): two checkouts of one version can differ. */
  fingerprint: string;
}

/** The kit's package version, or `unknown` for a kit without its package.json (it still runs; its reports and cards say so). */
export function kitVersion(kitRoot: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(kitRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The kit's package version and the fingerprint of its code, as reports record them. */
export function kitIdentity(kitRoot: string, fingerprint: string = kitFingerprint(kitRoot)): KitIdentity {
  return { version: kitVersion(kitRoot), fingerprint };
}
