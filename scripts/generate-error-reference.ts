// Regenerates the error reference section of README.md from the catalog. `npm run docs`.
import { readFile, writeFile } from 'node:fs/promises';
import { withErrorReference } from '../src/errors/reference.ts';

const readme = new URL('../README.md', import.meta.url);
await writeFile(readme, withErrorReference(await readFile(readme, 'utf8')));
console.log('README.md: error reference regenerated');
