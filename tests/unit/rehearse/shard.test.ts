import { describe, expect, it } from 'vitest';
import { parseShard, selectShard, shardOf } from '../../../src/rehearse/shard.ts';

const ids = (n: number, prefix = 'gen') => Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(3, '0')}`);

describe('--shard i/n', () => {
  it('reads i/n and says what is wrong with anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(parseShard('0/3')).toEqual({ error: '"0/3" names shard 0 of 3: i must be between 1 and 3' });
    expect(parseShard('4/3')).toEqual({ error: '"4/3" names shard 4 of 3: i must be between 1 and 3' });
    expect(parseShard('1/0')).toEqual({ error: '"1/0" has no shards: n must be at least 1' });
    expect(parseShard('two/3')).toEqual({ error: '"two/3" is not i/n (for example 2/3: the second of three shards)' });
  });

  it('puts every packet in exactly one shard', () => {
    const all = ids(200);
    for (const count of [1, 2, 3, 4, 7]) {
      const shards = Array.from({ length: count }, (_, i) => selectShard(all, (x) => x, { index: i + 1, count }));
      expect(shards.flat().sort()).toEqual(all);
      expect(new Set(shards.flat()).size).toBe(all.length);
    }
  });

  it('is the same on every machine: the scheme is pinned', () => {
    expect(ids(8).map((id) => shardOf(id, 3))).toMatchInlineSnapshot(`
      [
        1,
        1,
        3,
        2,
        3,
        1,
        3,
        1,
      ]
    `);
  });

  it('moves no packet when one is added, and only about 1/(n+1) of them, all into the new shard, when a shard is added', () => {
    const before = ids(200);
    const after = [...before, ...ids(25, 'new')];
    for (const index of [1, 2, 3]) {
      const was = selectShard(before, (x) => x, { index, count: 3 });
      const now = selectShard(after, (x) => x, { index, count: 3 });
      expect(now.filter((id) => before.includes(id))).toEqual(was);
    }
    const three = new Map(before.map((id) => [id, shardOf(id, 3)]));
    const moved = before.filter((id) => shardOf(id, 4) !== three.get(id));
    for (const id of moved) expect(shardOf(id, 4)).toBe(4);
    expect(moved.length / before.length).toBeGreaterThan(0.15);
    expect(moved.length / before.length).toBeLessThan(0.35);
  });

  it('balances shards on average: 200 packets on 3 shards, each within a few standard deviations of 67', () => {
    const sizes = [1, 2, 3].map((index) => selectShard(ids(200), (x) => x, { index, count: 3 }).length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(200);
    for (const size of sizes) expect(Math.abs(size - 200 / 3)).toBeLessThan(20);
  });
});
