import { writeFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { PacketVariant } from '../../src/packets/variants-render.ts';

/** The files of a built zip, by their path in it. */
export async function unzip(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((ok, ko) => yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? ko(e) : ok(z!))));
  const out = new Map<string, Buffer>();
  await new Promise<void>((ok, ko) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      zip.openReadStream(entry, async (e, stream) => {
        if (e) return ko(e);
        const chunks: Buffer[] = [];
        for await (const c of stream!) chunks.push(c as Buffer);
        out.set(entry.fileName, Buffer.concat(chunks));
        zip.readEntry();
      });
    });
    zip.on('end', () => ok());
    zip.on('error', ko);
    zip.readEntry();
  });
  return out;
}

/** Write `files` as a zip, in path order. */
export async function writeZip(files: ReadonlyMap<string, Buffer>, file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [p, b] of [...files].sort(([a], [b]) => a.localeCompare(b))) zip.addBuffer(b, p);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  await writeFile(file, Buffer.concat(chunks));
}

/** A variant's zip with a variant's sample laid in (as packet calibrate lays the sample over the candidate zip), its README edited by `readme`. */
export function submission(zip: ReadonlyMap<string, Buffer>, sample: PacketVariant, readme: (text: string) => string = (t) => t): Map<string, Buffer> {
  const rootDir = [...zip.keys()][0]!.split('/')[0]!;
  const out = new Map(zip);
  for (const [p, b] of sample.files) if (p.startsWith('sample/')) out.set(`${rootDir}/${p.slice('sample/'.length)}`, Buffer.from(b));
  out.set(`${rootDir}/README.md`, Buffer.from(readme(zip.get(`${rootDir}/README.md`)!.toString('utf8'))));
  return out;
}

