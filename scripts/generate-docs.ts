// Regenerates the generated sections of README.md and docs/ (the command table, the packet format
// reference, the CLI reference, the error reference, the screen's primitives) and the JSON Schemas
// in public/schemas/. `npm run docs`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { allJsonSchemas } from '../src/packets/json-schema.ts';
import { GENERATED_FILES, withGeneratedSections } from './docs-sections.ts';

for (const file of Object.keys(GENERATED_FILES)) {
  const url = new URL(`../${file}`, import.meta.url);
  await writeFile(url, withGeneratedSections(file, await readFile(url, 'utf8')));
  console.log(`${file}: generated sections rewritten`);
}
const dir = new URL('../public/schemas/', import.meta.url);
await mkdir(dir, { recursive: true });
for (const [name, text] of Object.entries(allJsonSchemas())) {
  await writeFile(new URL(name, dir), text);
  console.log(`wrote public/schemas/${name}`);
}
