import { inflateRawSync } from 'node:zlib';

/** One file of a zip, read back for a test. */
export interface ZipEntry {
  name: string;
  bytes: Buffer;
}

/**
 * Read every file of a zip (stored or deflated) through its central directory. A test helper,
 * not a general reader: no zip64, no encryption, no multi-disk archives, which a packet zip never uses.
 */
export function zipEntries(zip: Buffer): ZipEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip: no end of central directory record');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method} is not supported here`);
    out.push({ name, bytes: method === 8 ? inflateRawSync(data) : Buffer.from(data) });
  }
  return out;
}
