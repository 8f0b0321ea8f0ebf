import { writeFile } from 'node:fs/promises';
import yazl from 'yazl';

/** Write a zip to `file` holding each entry (name to content) as given, in order. */
export async function zipOf(file: string, entries: ReadonlyMap<string, Buffer | string> | Readonly<Record<string, string>>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of entries instanceof Map ? entries : Object.entries(entries)) zip.addBuffer(Buffer.from(body), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  await writeFile(file, Buffer.concat(chunks));
}
