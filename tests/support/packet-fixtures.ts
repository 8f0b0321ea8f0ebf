import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEMPLATES } from '../../src/cli/commands/new.ts';

/** A temporary packets folder, removed by `dispose`. */
export interface TempPackets {
  /** The project root (the packets folder is `<root>/packets`). */
  root: string;
  /** The packets folder. */
  packets: string;
  /** Add a packet copied from the scaffold template of its kind (a take-home by default); returns its folder. */
  add(folder: string, values?: Record<string, string>, kind?: keyof typeof TEMPLATES): Promise<string>;
  /** Read a file of a packet. */
  read(folder: string, file: string): Promise<string>;
  /** Write a file of a packet. */
  write(folder: string, file: string, text: string | Uint8Array): Promise<void>;
  /** Replace text in a file of a packet; throws when the text is absent, so a fixture cannot silently miss. */
  edit(folder: string, file: string, from: string, to: string): Promise<void>;
  /** 1-based line of the first line containing `needle`. */
  lineOf(folder: string, file: string, needle: string): Promise<number>;
  dispose(): Promise<void>;
}

/** Make a temporary project with a packets folder. */
export async function tempPackets(): Promise<TempPackets> {
  const root = await mkdtemp(path.join(tmpdir(), 'packet-kit-test-'));
  const packets = path.join(root, 'packets');
  const file = (folder: string, name: string) => path.join(packets, folder, name);
  const t: TempPackets = {
    root,
    packets,
    async add(folder, values = {}, kind = 'takehome') {
      const dir = path.join(packets, folder);
      await cp(TEMPLATES[kind], dir, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
      const fill = { id: folder, title: 'Fixture Packet', date: '2026-11-29', ...values };
      const parts = kind === 'takehome' ? ['prompt.mdx', 'rubric.mdx', 'sample.mdx', 'failures.mdx'] : ['prompt.mdx', 'rubric.mdx', 'assistant.mdx'];
      for (const part of parts) {
        const text = await readFile(path.join(dir, part), 'utf8');
        await writeFile(path.join(dir, part), text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => fill[k as keyof typeof fill] ?? m));
      }
      return dir;
    },
    read: (folder, name) => readFile(file(folder, name), 'utf8'),
    write: (folder, name, text) => writeFile(file(folder, name), text),
    async edit(folder, name, from, to) {
      const text = await t.read(folder, name);
      if (!text.includes(from)) throw new Error(`fixture edit: "${from}" not found in ${folder}/${name}`);
      await t.write(folder, name, text.replace(from, to));
    },
    async lineOf(folder, name, needle) {
      const lines = (await t.read(folder, name)).replace(/^\uFEFF/, '').split(/\r?\n/);
      const i = lines.findIndex((l) => l.includes(needle));
      if (i < 0) throw new Error(`fixture: "${needle}" not found in ${folder}/${name}`);
      return i + 1;
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
  return t;
}
