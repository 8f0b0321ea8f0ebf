import { describe, expect, it } from 'vitest';
import { buildReporter } from '../../../src/bundle/build-steps.ts';
import { check, packet, report } from '../../support/report-fixtures.ts';

/** The build's rehearsal lines quote what a check's run printed: shown escaped, on the build's own lines. */
describe('the build\'s rehearsal lines', () => {
  it('show a check\'s output and the sandbox notice with their control characters escaped', () => {
    const out: string[] = [];
    const r = buildReporter((t) => void out.push(t));
    const p = packet('alpha', 'defect');
    const hostile = { ...check('mutant:drops-minutes', { code: 'PK446' }), defect: 'PK446 \u001b[2J\rbuild: done       1 packet\n\u202e' };
    r.onPacketEnd!({ ...p, checks: [p.checks[0]!, hostile] });
    r.onRunEnd!({ ...report([p]), sandbox: { kind: 'bubblewrap', notice: 'a\u001b[31m\nb' } });
    const text = out.join('');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u);
    expect(text).toContain('    mutant:drops-minutes: PK446 \\u001b[2J\\rbuild: done       1 packet\\n\\u202e\n');
    expect(text).toContain('  note: a\\u001b[31m\nb\n');
  });
});
