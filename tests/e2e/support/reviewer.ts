import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { zipEntries } from './zip-entries.ts';

/**
 * A file of a packet's reviewer bundle (`out/.../reviewer/<id>-<version>.zip`), as the reviewer
 * would take it out: the scoring pages import the key from there. Undefined when the site under
 * test was built without bundles (the stand-in build).
 */
export function reviewerFile(id: string, version: string, name: string): Buffer | undefined {
  const dir = process.env.PACKET_KIT_E2E_REVIEWER;
  const zip = dir ? path.join(dir, `${id}-${version}.zip`) : '';
  if (!zip || !existsSync(zip)) return undefined;
  return zipEntries(readFileSync(zip)).find((e) => e.name === `${id}-${version}/${name}`)?.bytes;
}

/** The key of a lab's variant (`v3`), as the reviewer folder holds it beside the variant's zip; undefined when the site under test has none. */
export function variantKeyFile(id: string, version: string, variant: string): Buffer | undefined {
  const dir = process.env.PACKET_KIT_E2E_REVIEWER;
  const file = dir ? path.join(dir, 'variants', `${id}-${version}`, variant, 'LAB-KEY.json') : '';
  return file && existsSync(file) ? readFileSync(file) : undefined;
}
