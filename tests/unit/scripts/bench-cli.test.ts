import { describe, expect, it } from 'vitest';
import { cliRow } from '../../../scripts/bench-cli.ts';

describe('the CLI start-up bench', () => {
  it('prints each command beside node -e 0, and marks one over half a second', () => {
    expect(cliRow('packet --help', 120.4, 60)).toBe('  packet --help                        120 ms    2.0 x node -e 0');
    expect(cliRow('packet check x', 612, 60)).toBe('  packet check x                       612 ms   10.2 x node -e 0  (over 500 ms)');
  });
});
