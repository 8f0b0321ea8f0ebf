import { describe, expect, it } from 'vitest';
import { FEEDBACK_LIMITS, feedbackMessage, feedbackTail } from '../../../src/rehearse/session-messages.ts';

describe('the test output a feedback turn sends', () => {
  it('keeps a short output whole', () => {
    expect(feedbackTail('FAIL: test_x\nRan 3 tests\n\nFAILED (failures=1)\n')).toBe('FAIL: test_x\nRan 3 tests\n\nFAILED (failures=1)');
  });

  it('sends the last lines of a long output and says how much was cut', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`);
    const tail = feedbackTail(lines.join('\n'));
    const kept = tail.split('\n').slice(1);
    expect(kept).toEqual(lines.slice(-FEEDBACK_LIMITS.lines));
    expect(tail.split('\n')[0]).toMatch(/^\[the first \d+ characters of the output are cut; the last \d+ follow\]$/);
  });

  it('caps a flood of 72 KB in few lines by characters, from a line start', () => {
    const flood = Array.from({ length: 40 }, (_, i) => `debug ${i}: ${'state=pending '.repeat(130)}`).join('\n') + '\nFAILED (failures=2)';
    expect(flood.length).toBeGreaterThan(72_000);
    const tail = feedbackTail(flood);
    const body = tail.slice(tail.indexOf('\n') + 1);
    expect(body.length).toBeLessThanOrEqual(FEEDBACK_LIMITS.chars);
    expect(body.endsWith('FAILED (failures=2)')).toBe(true);
    const message = feedbackMessage({ tests: flood });
    expect(message.length).toBeLessThan(FEEDBACK_LIMITS.chars + 400);
    expect(message).toContain('FAILED (failures=2)');
  });
});
