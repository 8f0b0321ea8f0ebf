import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: Record<string, unknown> };

describe('module boundaries (dependency-cruiser over src/)', () => {
  it('has no import cycle, and each layer imports only what is below it', async () => {
    const cwd = process.cwd();
    process.chdir(root);
    let result: ICruiseResult;
    try {
      const out = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
      result = out.output as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
    // The cruise read the TypeScript sources (swc parses them), not just the three .js files.
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`);
    expect(violations).toEqual([]);
  }, 60_000);
});
