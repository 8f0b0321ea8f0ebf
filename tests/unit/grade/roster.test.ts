import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissionNames, sharedNames } from '../../../src/grade/grade.ts';
import { loadRoster, nameAsGraded, parseRosterCsv, parseRosterJson, rosterCheck, rosterText, rosterUnmatched, ROSTER_MAX_BYTES, type Roster, type RosterPacket, type RosterProblem } from '../../../src/grade/roster.ts';

/** A packet of twenty variants sent (v1..v20 of a possible 30), every one rendering but v13. */
const packet: RosterPacket = { id: 'retry-budget', most: 30, renders: async (k) => k !== 13 };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roster-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function load(name: string, content: string | Buffer, p: RosterPacket = packet) {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return loadRoster(file, name, p);
}

const problems = (got: Awaited<ReturnType<typeof load>>): RosterProblem[] => {
  if ('roster' in got) throw new Error(`read, expected problems: ${JSON.stringify(got.roster.rows)}`);
  return got.problems;
};

describe('reading a roster in CSV', () => {
  it('reads the header and a row per submission, blank lines, CRLF, a UTF-8 BOM, quoted cells and spaces around cells', async () => {
    const got = await load('roster.csv', '\uFEFFsubmission,variant\r\nalice,v3\r\n\r\n  bob , v7 \n"carol-b","v12"\n\n');
    expect(got).toEqual({
      roster: {
        file: 'roster.csv',
        rows: [
          { submission: 'alice', variant: 'v3', number: 3, line: 2 },
          { submission: 'bob', variant: 'v7', number: 7, line: 4 },
          { submission: 'carol-b', variant: 'v12', number: 12, line: 5 },
        ],
      },
    });
  });

  it('refuses a first line that is not the header, saying what to write', () => {
    const noHeader = parseRosterCsv('alice,v3\nbob,v4\n');
    expect('problems' in noHeader && noHeader.problems[0]).toMatchObject({ line: 1, field: 'header', fix: 'add the line "submission,variant" above the first row' });
    const other = parseRosterCsv('name,variant\nalice,v3\n');
    expect('problems' in other && other.problems).toEqual([expect.objectContaining({ line: 1, field: 'header', problem: 'the first line is "name,variant", not the header "submission,variant"' })]);
    const json = parseRosterCsv('{"schemaVersion":1}\n');
    expect('problems' in json && json.problems[0]!.fix).toMatch(/\.json extension/);
    expect(parseRosterCsv('\n\n')).toEqual({ rows: [], problems: [expect.objectContaining({ problem: 'the file is empty' })] });
  });

  it('names the line and the field of a row with a field missing, one too many, or a broken quote', () => {
    const got = parseRosterCsv('submission,variant\nalice\nbob,\n,v3\ncarol,v4,extra\n"dave,v5\nerin",v6\n');
    expect('problems' in got && got.problems.map((p) => [p.line, p.field, p.problem])).toEqual([
      [2, 'variant', 'the row has no variant'],
      [3, 'variant', 'the row has no variant'],
      [4, 'submission', 'the row has no submission'],
      [5, null, 'the row has 3 fields, not 2'],
      [6, null, 'a quoted cell has no closing quote (a cell cannot span lines)'],
      [7, null, 'a quote inside a cell that does not start with one'],
    ]);
  });

  it('refuses a variant id not written as packet build writes it, and a name packet grade never gives, each with the spelling to use', () => {
    const got = parseRosterCsv('submission,variant\nalice,V3\nbob,3\ncarol,banana\nAlice Smith.zip,v4\n');
    expect('problems' in got && got.problems.map((p) => [p.line, p.field, p.fix])).toEqual([
      [2, 'variant', expect.stringContaining('"v3"')],
      [3, 'variant', expect.stringContaining('"v3"')],
      [4, 'variant', expect.stringContaining('v1, v2')],
      [5, 'submission', expect.stringContaining('"Alice-Smith"')],
    ]);
  });

  it('refuses a name twice (case aside, as packet grade tells names apart), a variant the packet does not have, and one that does not render', async () => {
    const got = problems(await load('twice.csv', 'submission,variant\nalice,v3\nbob,v4\nAlice,v5\nbob,v4\ncarol,v31\ndave,v13\n'));
    expect(got.map((p) => [p.line, p.field])).toEqual([
      [4, 'submission'],
      [5, 'submission'],
      [6, 'variant'],
      [7, 'variant'],
    ]);
    expect(got[0]!.problem).toBe('"alice" and "Alice" (packet grade tells names apart without their case) is named twice, on lines 2 and 4, sent v3 and v5');
    expect(got[1]!.problem).toBe('"bob" is named twice, on lines 3 and 5');
    expect(got[2]!.problem).toBe('packet retry-budget has no variant v31: it has v1..v30 at most');
    expect(got[3]!.problem).toMatch(/variant v13 of packet retry-budget does not make a packet/);
  });

  it('refuses a variant above --variants N when the flag is given, and a roster of no rows', async () => {
    const got = problems(await load('above.csv', 'submission,variant\nalice,v3\nbob,v9\n', { ...packet, sentOut: 8 }));
    expect(got).toEqual([expect.objectContaining({ line: 3, field: 'variant', problem: expect.stringContaining('--variants 8') })]);
    expect(problems(await load('empty.csv', 'submission,variant\n\n'))).toEqual([expect.objectContaining({ problem: 'it names no submission' })]);
  });
});

describe('reading a roster in JSON', () => {
  const doc = (sent: string) => `{\n  "schemaVersion": 1,\n  "kind": "packet-kit/variant-roster",\n  "sent": {\n${sent}\n  }\n}\n`;

  it('reads the sent map, each row with its line', async () => {
    expect(await load('roster.json', doc('    "alice": "v3",\n    "bob": "v7"'))).toEqual({
      roster: {
        file: 'roster.json',
        rows: [
          { submission: 'alice', variant: 'v3', number: 3, line: 5 },
          { submission: 'bob', variant: 'v7', number: 7, line: 6 },
        ],
      },
    });
  });

  it('tells a name written twice, which JSON.parse alone would keep silently', async () => {
    const got = problems(await load('twice.json', doc('    "alice": "v3",\n    "bob": "v7",\n    "alice": "v4"')));
    expect(got).toEqual([expect.objectContaining({ line: 7, field: 'submission', problem: expect.stringContaining('named twice, on lines 5 and 7') })]);
  });

  it('refuses the wrong kind or schemaVersion, a field of its own, a value that is not a string, and what is not JSON', () => {
    const wrong = parseRosterJson('{"schemaVersion": 2, "kind": "packet-kit/variants-key", "sent": {"alice": 3}, "note": "x"}');
    expect('problems' in wrong && wrong.problems.map((p) => p.field)).toEqual(['note', 'schemaVersion', 'kind', 'sent.alice']);
    const broken = parseRosterJson('{\n  "sent": {"alice": "v3",}\n}');
    expect('problems' in broken && broken.problems[0]).toMatchObject({ problem: expect.stringMatching(/not valid JSON/) });
    expect(parseRosterJson('["alice"]')).toEqual({ rows: [], problems: [expect.objectContaining({ problem: 'it is not a JSON object' })] });
    const noSent = parseRosterJson('{"schemaVersion": 1, "kind": "packet-kit/variant-roster"}');
    expect('problems' in noSent && noSent.problems).toEqual([expect.objectContaining({ field: 'sent', problem: 'sent is missing' })]);
  });
});

describe('the file itself', () => {
  it('refuses a file that is missing, a folder, too large, UTF-16, not UTF-8 or holding a NUL', async () => {
    expect(problems(await loadRoster(path.join(dir, 'nope.csv'), 'nope.csv', packet))[0]!.problem).toBe('there is no such file');
    await mkdir(path.join(dir, 'folder.csv'));
    expect(problems(await loadRoster(path.join(dir, 'folder.csv'), 'folder.csv', packet))[0]!.problem).toBe('it is not a file');
    expect(problems(await load('big.csv', `submission,variant\n${'a,v1\n'.repeat(ROSTER_MAX_BYTES / 5 + 1)}`))[0]!.problem).toMatch(/more than a roster's 1048576/);
    expect(problems(await load('utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('submission,variant\n', 'utf16le')])))[0]!.problem).toMatch(/UTF-16/);
    expect(rosterText(Buffer.from([0x61, 0xc3, 0x28]))).toEqual({ problem: expect.objectContaining({ problem: 'it is not UTF-8 text' }) });
    expect(rosterText(Buffer.from('submission,variant\nal\0ice,v3\n'))).toEqual({ problem: expect.objectContaining({ line: 2 }) });
  });

  it('lists at most 20 problems and counts the rest', async () => {
    const got = problems(await load('many.csv', `submission,variant\n${Array.from({ length: 30 }, (_, i) => `s${i},x`).join('\n')}\n`));
    expect(got).toHaveLength(21);
    expect(got[20]!.problem).toBe('10 more problems after these');
  });
});

describe('checking a submission against the roster', () => {
  const roster: Roster = {
    file: 'roster.csv',
    rows: [
      { submission: 'alice', variant: 'v7', number: 7, line: 2 },
      { submission: 'bob', variant: 'v1', number: 1, line: 3 },
    ],
  };

  it('gives the variant sent, whatever the submission states, and PK585 when it states another', () => {
    expect(rosterCheck(roster, 'alice', null)).toEqual({ sent: roster.rows[0] });
    expect(rosterCheck(roster, 'alice', 'v7')).toEqual({ sent: roster.rows[0] });
    const other = rosterCheck(roster, 'alice', [
      { id: 'v7', by: "its README's Variant line names" },
      { id: 'v1', by: "its README's Digest line is the digest of" },
    ]);
    expect(other).toMatchObject({ sent: roster.rows[0], finding: { code: 'PK585', name: 'VariantNotSent', severity: 'error' } });
    if (!('finding' in other) || !other.finding) throw new Error('expected PK585');
    expect(other.finding.message).toMatch(/^This submission was sent variant v7, and its README's Digest line is the digest of variant v1\. So says the roster roster\.csv \(line 2\)\./);
    // The stated id is the candidate's text, shown escaped.
    const hostile = rosterCheck(roster, 'alice', '\u202ev7');
    expect('finding' in hostile && hostile.finding!.message).toContain('\\u202ev7');
  });

  it('refuses a submission the roster does not name (PK586), pointing at a row that differs only in case', () => {
    const r = rosterCheck(roster, 'Alice', 'v7');
    expect(r).toMatchObject({ refusal: { code: 'PK586', kind: 'intake', severity: 'error' } });
    expect('refusal' in r && r.refusal.message).toMatch(/names no submission "Alice" \(it has "alice" on line 2: names match exactly, case included\)/);
    expect(rosterCheck(roster, 'carol', 'v2')).toMatchObject({ refusal: { code: 'PK586' } });
  });

  it('lists the rows no submission matched', () => {
    expect(rosterUnmatched(roster, ['alice', 'carol'])).toEqual([roster.rows[1]]);
  });
});

describe('submission names', () => {
  it('are what a roster row must say: the file name, its archive extension and unsafe characters gone', () => {
    expect(nameAsGraded('/tmp/in/Alice Smith.tar.gz')).toBe('Alice-Smith');
    expect(nameAsGraded('sub/bob.zip')).toBe('bob');
    expect(nameAsGraded('folder/carol/')).toBe('carol');
    expect(nameAsGraded('...zip')).toBe('submission');
  });

  it('never give one submission the name another already has, and tell which names were shared', () => {
    expect(submissionNames(['a/alice.zip', 'b/alice.zip', 'alice-2.zip'])).toEqual(['alice', 'alice-3', 'alice-2']);
    expect(submissionNames(['a/x.zip', 'b/X.zip'])).toEqual(['x', 'X-2']);
    expect([...sharedNames(['a/alice.zip', 'b/Alice.zip', 'bob.zip'])]).toEqual(['alice']);
  });
});
