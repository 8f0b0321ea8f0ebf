import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { ROOT } from './helpers.ts';

describe('the shipped packets', () => {
  it('are lint-clean under check --strict', async () => {
    const io = memoryIo(ROOT);
    const code = await runCli(['check', '--strict', '--packets', 'packets'], io);
    expect(io.stdout).toMatch(/: 0 errors, 0 warnings\.\n$/);
    expect(code).toBe(0);
  });
});
