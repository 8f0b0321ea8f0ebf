// Regenerates README.md's generated sections (the packet format reference, the CLI reference and
// the error reference) and the JSON Schemas in public/schemas/. `npm run docs`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { withGeneratedSections } from '../src/docs/generated-sections.ts';
import { allJsonSchemas } from '../src/packets/json-schema.ts';

const readme = new URL('../README.md', import.meta.url);
await writeFile(readme, withGeneratedSections(await readFile(readme, 'utf8')));
console.log('README.md: format, CLI and error references regenerated');
const dir = new URL('../public/schemas/', import.meta.url);
await mkdir(dir, { recursive: true });
for (const [name, text] of Object.entries(allJsonSchemas())) {
  await writeFile(new URL(name, dir), text);
  console.log(`wrote public/schemas/${name}`);
}
