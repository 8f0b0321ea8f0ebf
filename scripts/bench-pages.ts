/**
 * Which files of a site the bench compares between a bare Astro build and `packet build`: the
 * pages. What only the build writes (the zips, the manifest, the search index, the labs' test
 * tables) has no counterpart in a bare build and is left out.
 */
import path from 'node:path';

/** True for a file of the site that only `packet build` writes. */
export function buildOnlyFile(rel: string, sep: string = path.sep): boolean {
  const parts = rel.split(sep);
  if (rel === 'packets.json') return true;
  if (parts[0] === 'zips' || parts[0] === 'pagefind') return true;
  // dist/packets/<id>/combinations.json: a lab's table of every combination, computed by the build.
  return parts.length === 3 && parts[0] === 'packets' && parts[2] === 'combinations.json';
}
