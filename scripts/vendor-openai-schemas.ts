// Extracts the schemas `packet serve-model` answers with (a chat completion, the model list, an
// error) and everything they reference from OpenAI's OpenAPI description, into the test fixture
// tests/fixtures/openai-openapi/schemas.json. Run it on a checkout of openai/openai-openapi:
//   node scripts/vendor-openai-schemas.ts path/to/openapi.json <commit>
import { readFile, writeFile } from 'node:fs/promises';

const [file, commit] = process.argv.slice(2);
if (!file || !commit) {
  console.error('usage: node scripts/vendor-openai-schemas.ts path/to/openapi.json <commit of openai/openai-openapi>');
  process.exit(2);
}
const ROOTS = ['CreateChatCompletionResponse', 'ListModelsResponse', 'ErrorResponse'];
const spec = JSON.parse(await readFile(file, 'utf8')) as { openapi: string; info: { version: string }; components: { schemas: Record<string, unknown> } };
const keep = new Set<string>();
const visit = (v: unknown): void => {
  if (Array.isArray(v)) return v.forEach(visit);
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (k === '$ref' && typeof x === 'string') {
      const name = x.replace('#/components/schemas/', '');
      if (!keep.has(name)) {
        keep.add(name);
        visit(spec.components.schemas[name]);
      }
    } else visit(x);
  }
};
for (const r of ROOTS) {
  keep.add(r);
  visit(spec.components.schemas[r]);
}
const schemas = Object.fromEntries([...keep].sort().map((n) => [n, spec.components.schemas[n]]));
const doc = {
  $comment: `Extracted by scripts/vendor-openai-schemas.ts from openai/openai-openapi openapi.json at ${commit} (OpenAPI ${spec.openapi}, API version ${spec.info.version}); MIT licensed. The roots: ${ROOTS.join(', ')}.`,
  components: { schemas },
};
await writeFile(new URL('../tests/fixtures/openai-openapi/schemas.json', import.meta.url), JSON.stringify(doc, null, 1) + '\n');
console.log(`wrote tests/fixtures/openai-openapi/schemas.json: ${keep.size} schemas`);
