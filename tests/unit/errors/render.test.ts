import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { renderDiagnostic } from '../../../src/errors/render.ts';

const d = (over: Partial<Diagnostic> = {}): Diagnostic => ({
  code: 'PK107',
  name: 'InvalidValue',
  severity: 'error',
  message: '"budget.tokens" must be a number.',
  hint: 'Fix the value.',
  file: 'packets/a/prompt.mdx',
  line: 7,
  column: 3,
  ...over,
});

describe('the diagnostic renderer', () => {
  it('writes a problem in a file as file:line:col CODE severity message (rule), and the hint', () => {
    expect(renderDiagnostic(d())).toBe('packets/a/prompt.mdx:7:3 PK107 error "budget.tokens" must be a number.\n  hint: Fix the value.\n');
    expect(renderDiagnostic(d({ severity: 'warning', rule: 'prompt-length', column: undefined }))).toBe(
      'packets/a/prompt.mdx:7:1 PK107 warning "budget.tokens" must be a number. (prompt-length)\n  hint: Fix the value.\n',
    );
    expect(renderDiagnostic(d({ line: undefined, column: undefined }))).toBe('packets/a/prompt.mdx PK107 error "budget.tokens" must be a number.\n  hint: Fix the value.\n');
  });

  it("writes a command's refusal without the place, and says warning only for a warning", () => {
    expect(renderDiagnostic(d({ file: '--port' }), { place: false })).toBe('PK107 "budget.tokens" must be a number.\n  hint: Fix the value.\n');
    expect(renderDiagnostic(d({ file: '--port', severity: 'warning' }), { place: false })).toBe('PK107 warning "budget.tokens" must be a number.\n  hint: Fix the value.\n');
    expect(renderDiagnostic(d({ file: '' }))).toBe('PK107 "budget.tokens" must be a number.\n  hint: Fix the value.\n');
  });

  it('escapes control characters of the path, so a file name cannot forge or erase a line', () => {
    const text = renderDiagnostic(d({ file: 'packets/a\n/x PK000 error forged\u001b[2K.mdx' }));
    expect(text).toBe('packets/a\\n/x PK000 error forged\\u001b[2K.mdx:7:3 PK107 error "budget.tokens" must be a number.\n  hint: Fix the value.\n');
    expect(text.split('\n')).toHaveLength(3);
  });

  it('keeps a hint of several lines indented', () => {
    expect(renderDiagnostic(d({ hint: 'first\nsecond' }))).toMatch(/\n {2}hint: first\n {2}second\n$/);
  });

  it('paints with the colours it is given, and nothing else', () => {
    const paint = pc.createColors(true);
    expect(renderDiagnostic(d({ rule: 'r' }), { paint })).toBe(`${paint.bold('packets/a/prompt.mdx:7:3')} PK107 ${paint.red('error')} "budget.tokens" must be a number. ${paint.dim('(r)')}\n  ${paint.dim('hint:')} Fix the value.\n`);
  });
});

describe('the diagnostic renderer, on values a message quotes', () => {
  it('escapes escape sequences and carriage returns in the message and the hint, and keeps their line breaks', () => {
    expect(renderDiagnostic(d({ message: 'The folder "x\u001b[2K\ry" is gone.\nSecond line.', hint: 'Try "\u0007".' }), { place: false })).toBe(
      'PK107 The folder "x\\u001b[2K\\ry" is gone.\nSecond line.\n  hint: Try "\\u0007".\n',
    );
  });
});
