import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { allJsonSchemas } from '../../../src/packets/json-schema.ts';

describe('JSON Schemas of the frontmatter', () => {
  it('are committed and up to date (run `npm run schemas` after changing a schema)', async () => {
    for (const [name, text] of Object.entries(allJsonSchemas())) {
      expect(await readFile(new URL(`../../../public/schemas/${name}`, import.meta.url), 'utf8'), name).toBe(text);
    }
  });

  it('describe strict objects with the required fields', () => {
    const prompt = JSON.parse(allJsonSchemas()['prompt.schema.json']!) as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    expect(prompt.additionalProperties).toBe(false);
    expect(prompt.required).toEqual(expect.arrayContaining(['title', 'test', 'budget', 'workspace']));
    expect(Object.keys(prompt.properties)).toContain('budget');
  });
});
