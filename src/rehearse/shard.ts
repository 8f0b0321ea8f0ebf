/**
 * `packet rehearse --shard i/n`: which packets one of n machines rehearses.
 *
 * The scheme is rendezvous (highest random weight) hashing: for each shard index j in 1..n a
 * packet gets the weight sha256(`<j>:<id>`) (its first 64 bits), and it goes to the shard of the
 * highest weight. So:
 * - every packet is in exactly one shard, and the same one on every machine (the id alone decides);
 * - adding or removing a packet moves no other packet: each packet's shard depends on its own id
 *   and on n, nothing else;
 * - going from n to n+1 shards moves only the packets whose weight for the new shard is the
 *   highest, about 1/(n+1) of them, all into the new shard (hash-mod-n would move about n/(n+1));
 * - shards are balanced on average, not exactly: with 200 packets on 3 shards each gets 67 give or
 *   take 7 (sorting by hash and slicing balances exactly, but an added packet shifts the slice
 *   boundaries and moves packets between shards).
 * Within a shard the packets run as in an unsharded run, and the report is sorted by id.
 */
import { createHash } from 'node:crypto';

/** One of `count` shards, 1-based as on the command line. */
export interface Shard {
  index: number;
  count: number;
}

/** Read `i/n` (whole numbers, 1 <= i <= n); a reason in words when it is not one. */
export function parseShard(text: string): Shard | { error: string } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return { error: `"${text}" is not i/n (for example 2/3: the second of three shards)` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1) return { error: `"${text}" has no shards: n must be at least 1` };
  if (index < 1 || index > count) return { error: `"${text}" names shard ${index} of ${count}: i must be between 1 and ${count}` };
  return { index, count };
}

/** The weight of a packet for one shard index: the first 64 bits of sha256(`<index>:<id>`). */
function weight(id: string, index: number): bigint {
  return createHash('sha256').update(`${index}:${id}`).digest().readBigUInt64BE(0);
}

/** The shard (1-based) a packet id belongs to among `count`: the index of highest weight, the lower index on a tie. */
export function shardOf(id: string, count: number): number {
  let best = 1;
  let top = weight(id, 1);
  for (let j = 2; j <= count; j++) {
    const w = weight(id, j);
    if (w > top) {
      top = w;
      best = j;
    }
  }
  return best;
}

/** The items of one shard, in their order. */
export function selectShard<T>(items: readonly T[], idOf: (item: T) => string, shard: Shard): T[] {
  return items.filter((item) => shardOf(idOf(item), shard.count) === shard.index);
}
