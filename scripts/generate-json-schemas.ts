// Writes public/schemas/<part>.schema.json from the zod schemas. `npm run schemas`.
import { mkdir, writeFile } from 'node:fs/promises';
import { allJsonSchemas } from '../src/packets/json-schema.ts';

const dir = new URL('../public/schemas/', import.meta.url);
await mkdir(dir, { recursive: true });
for (const [name, text] of Object.entries(allJsonSchemas())) {
  await writeFile(new URL(name, dir), text);
  console.log(`wrote public/schemas/${name}`);
}
