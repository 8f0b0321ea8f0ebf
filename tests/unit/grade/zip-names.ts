import yazl from 'yazl';

/** One entry of a hand-made zip: its name's raw bytes, whether the UTF-8 flag is set, its content. */
export interface RawEntry {
  name: Uint8Array;
  utf8: boolean;
  data?: string;
}

const UTF8_FLAG = 0x800;

/** A name's UTF-8 bytes, for an entry with the flag. */
export const utf8Name = (name: string): RawEntry => ({ name: Buffer.from(name, 'utf8'), utf8: true });
/** Raw bytes with no UTF-8 flag: a reader decodes them as CP437. */
export const cp437Name = (bytes: readonly number[] | string): RawEntry => ({ name: Buffer.from(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes), utf8: false });

/**
 * A zip with exactly the names given, byte for byte. yazl writes each entry under a placeholder
 * name of the same length (it sets the UTF-8 flag and refuses ".." or "/" names itself); the
 * placeholder is then replaced in the local and the central header, and the flag cleared where the
 * entry has none.
 */
export async function rawZip(entries: readonly RawEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const placeholders = entries.map((e, i) => {
    const tag = `${String.fromCharCode(0x41 + (i % 26))}${i}`;
    if (e.name.length < tag.length + 1) throw new Error(`rawZip: name ${i} is too short for its placeholder`);
    return `${tag}${'q'.repeat(e.name.length - tag.length - 1)}z`;
  });
  entries.forEach((e, i) => zip.addBuffer(Buffer.from(e.data ?? 'print(1)\n'), placeholders[i]!, { compress: false, mtime: new Date(0) }));
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  const out = Buffer.concat(chunks);
  entries.forEach((e, i) => {
    const ph = Buffer.from(placeholders[i]!);
    const local = out.indexOf(ph);
    const central = out.indexOf(ph, local + ph.length);
    if (local < 0 || central < 0 || out.readUInt32LE(local - 30) !== 0x04034b50 || out.readUInt32LE(central - 46) !== 0x02014b50) throw new Error(`rawZip: headers of entry ${i} not found`);
    for (const [at, flagAt] of [
      [local, local - 30 + 6],
      [central, central - 46 + 8],
    ] as const) {
      out.set(e.name, at);
      const flag = out.readUInt16LE(flagAt);
      out.writeUInt16LE(e.utf8 ? flag | UTF8_FLAG : flag & ~UTF8_FLAG, flagAt);
    }
  });
  return out;
}
