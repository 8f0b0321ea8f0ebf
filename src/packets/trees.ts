import type { PacketTrees } from './packet-base.ts';
import type { PacketEntry } from './source.ts';

/** Split a packet's files into its code trees. */
export function treesOf(entries: readonly PacketEntry[]): PacketTrees {
  const trees: PacketTrees = { starter: [], sample: [], hidden: [], mutants: {}, replies: [] };
  for (const e of entries) {
    if (e.kind !== 'file') continue;
    const [top, ...rest] = e.path.split('/');
    if (!rest.length) continue;
    if (top === 'starter' || top === 'sample' || top === 'hidden' || top === 'replies') trees[top].push(rest.join('/'));
    else if (top === 'mutants' && rest.length > 1) (trees.mutants[rest[0]!] ??= []).push(rest.slice(1).join('/'));
  }
  return trees;
}
