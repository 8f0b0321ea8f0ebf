import { describe, expect, it } from 'vitest';
import { buildSpec, COMMAND_SPECS, gradeSpec, mutateSpec, newSpec, rehearseSpec } from '../../../src/cli/command-specs.ts';
import { TEMPLATES } from '../../../src/cli/commands/new.ts';
import { allowedValues, defineCommand, type CommandSpec, flagDefault, flagSynopsis, FlagValueError, helpText, parseCommand, type FlagSpec } from '../../../src/cli/flags.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { MUTATE_DEFAULTS } from '../../../src/mutate/mutate-run.ts';
import { MAX_COUNT } from '../../../src/mutate/request.ts';
import { REHEARSE_DEFAULTS } from '../../../src/rehearse/rehearse-run.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../../../src/runs/run-flags.ts';

/** A command with one flag of every kind. */
const spec = defineCommand({
  name: 'demo',
  summary: 'a command for the tests',
  usage: '[options]',
  description: 'Every kind of flag.',
  positionals: false,
  flags: {
    out: { type: 'string', value: 'DIR', default: 'out', description: 'a folder' },
    name: { type: 'string', value: 'NAME', description: 'a name, no default' },
    format: { type: 'string', value: 'F', default: 'text', choices: ['text', 'json'], description: 'the output' },
    strict: { type: 'boolean', default: false, short: 's', description: 'fail on warnings' },
    lint: { type: 'boolean', default: true, negatable: true, description: 'lint too' },
    port: { type: 'integer', min: 0, max: 65535, value: 'N', default: 4321, description: 'a port' },
    jobs: { type: 'integer', min: 1, value: 'N', defaultText: 'number of cores', description: 'runs at once' },
    depth: { type: 'integer', max: 3, value: 'N', description: 'how deep' },
    count: { type: 'integer', value: 'N', description: 'any whole number' },
    timeout: { type: 'number', above: 0, value: 'S', default: 30, description: 'seconds' },
    ratio: { type: 'number', min: 0, max: 1, value: 'R', description: 'a share' },
  },
});

/** The error a parse throws, or undefined. */
function refusal(args: string[]): FlagValueError | undefined {
  try {
    parseCommand(spec, args);
    return undefined;
  } catch (err) {
    return err as FlagValueError;
  }
}

describe('flag specs', () => {
  it('give every flag its default, numbers as numbers, and a flag without one undefined', () => {
    const { values } = parseCommand(spec, []);
    expect(values).toEqual({ out: 'out', format: 'text', strict: false, lint: true, port: 4321, timeout: 30 });
    expect(values.name).toBeUndefined();
    expect(values.jobs).toBeUndefined();
  });

  it('parse strings, choices, booleans, short and negated flags, whole numbers and decimals', () => {
    const { values } = parseCommand(spec, ['--out', 'x', '--name', 'n', '--format', 'json', '-s', '--no-lint', '--port', '0', '--jobs', '3', '--depth=-2', '--count', '+7', '--timeout', '0.5', '--ratio', '1']);
    expect(values).toMatchObject({ out: 'x', name: 'n', format: 'json', strict: true, lint: false, port: 0, jobs: 3, depth: -2, count: 7, timeout: 0.5, ratio: 1 });
    expect(typeof values.port).toBe('number');
  });

  it.each([
    [['--format', 'xml'], 'format', 'xml', '"text" or "json"'],
    [['--port', 'abc'], 'port', 'abc', 'a whole number from 0 to 65535'],
    [['--port', '65536'], 'port', '65536', 'a whole number from 0 to 65535'],
    [['--port=-1'], 'port', '-1', 'a whole number from 0 to 65535'],
    [['--port', '80.5'], 'port', '80.5', 'a whole number from 0 to 65535'],
    [['--port', '0x50'], 'port', '0x50', 'a whole number from 0 to 65535'],
    [['--port', ''], 'port', '', 'a whole number from 0 to 65535'],
    [['--port', '1e3'], 'port', '1e3', 'a whole number from 0 to 65535'],
    [['--jobs', '0'], 'jobs', '0', 'a whole number of at least 1'],
    [['--depth', '4'], 'depth', '4', 'a whole number of at most 3'],
    [['--count', '9007199254740993'], 'count', '9007199254740993', 'a whole number'],
    [['--timeout', '0'], 'timeout', '0', 'a number more than 0'],
    [['--timeout', 'soon'], 'timeout', 'soon', 'a number more than 0'],
    [['--ratio', '1.5'], 'ratio', '1.5', 'a number from 0 to 1'],
  ])('refuse %j with PK801 naming the flag, the value and what it takes', (args, flag, value, allowed) => {
    const err = refusal(args);
    expect(err).toBeInstanceOf(FlagValueError);
    expect(err!.diagnostic).toMatchObject({ code: 'PK801', name: 'FlagValueInvalid', severity: 'error', file: `--${flag}` });
    expect(err!.diagnostic.message).toBe(`--${flag} must be ${allowed}, not "${value}".`);
    expect(err!.diagnostic.hint).toBe(`Give --${flag} a value it takes, or leave it out for its default; nothing was run.`);
  });

  it('escape control characters of a refused value', () => {
    expect(refusal(['--port', '1\u001b[2J'])!.diagnostic.message).toBe('--port must be a whole number from 0 to 65535, not "1\\u001b[2J".');
  });

  it("read a flag named no-x as itself beside a negatable flag (check's --no-cache with --no-lint), and refuse --no- of a flag there is not", () => {
    const { checkSpec } = { checkSpec: COMMAND_SPECS.find((s) => s.name === 'check')! };
    expect(parseCommand(checkSpec, ['--no-cache']).values).toMatchObject({ 'no-cache': true, lint: true });
    expect(parseCommand(checkSpec, ['--no-cache', '--no-lint']).values).toMatchObject({ 'no-cache': true, lint: false });
    expect(parseCommand(checkSpec, []).values).toMatchObject({ 'no-cache': false });
    expect(Object.keys(parseCommand(checkSpec, ['--no-cache']).values)).not.toContain('cache');
    expect(() => parseCommand(checkSpec, ['--no-such'])).toThrow(/--no-such/);
  });

  it('check nothing under --help, so the help always answers', () => {
    expect(parseCommand(spec, ['--port', 'abc', '--help']).values.help).toBe(true);
  });

  it('say what a flag takes, as the help and the errors word it', () => {
    const f = (s: Partial<FlagSpec>) => allowedValues({ type: 'integer', description: '', ...s });
    expect(f({ min: 1 })).toBe('a whole number of at least 1');
    expect(f({ min: 0, max: 10 })).toBe('a whole number from 0 to 10');
    expect(f({ type: 'number', above: 0, max: 5 })).toBe('a number more than 0 and at most 5');
    expect(f({ type: 'string', choices: ['a', 'b', 'c'] })).toBe('"a" or "b" or "c"');
    expect(flagDefault(spec.flags.port)).toBe('4321');
    expect(flagDefault(spec.flags.jobs)).toBe('number of cores');
    expect(flagSynopsis('format', spec.flags.format)).toBe('--format text|json');
    expect(helpText(spec)).toContain('--timeout S           seconds (default: 30)');
  });
});

describe('the commands\' flag specs', () => {
  const numeric = COMMAND_SPECS.flatMap((s) => Object.entries(s.flags).filter(([, f]) => f.type === 'integer' || f.type === 'number').map(([name, f]) => [s.name, name, f] as const));

  it('carry the bounds the commands used to check themselves', () => {
    const bounds = Object.fromEntries(numeric.map(([command, name, f]) => [`${command} --${name}`, allowedValues(f)]));
    expect(bounds).toMatchObject({
      'preview --port': 'a whole number from 0 to 65535',
      'serve-model --port': 'a whole number from 0 to 65535',
      'serve-model --slow-ms': 'a whole number of at least 0',
      'rehearse --jobs': 'a whole number of at least 1',
      'rehearse --timeout': 'a number more than 0',
      'rehearse --feedback': 'a whole number of at least 0',
      'rehearse --stall': 'a whole number of at least 1',
      'rehearse --endpoint-jobs': 'a whole number of at least 1',
      'rehearse --max-tokens': 'a whole number of at least 1',
      'mutate --count': `a whole number from 1 to ${MAX_COUNT}`,
      'mutate --feedback': 'a whole number from 0 to 10',
      'mutate --adopt': 'a whole number of at least 1',
      'grade --jobs': 'a whole number of at least 1',
      'build --timeout': 'a number more than 0',
    });
    expect(mutateSpec.flags.count.max).toBe(MAX_COUNT);
    expect(newSpec.flags.kind.choices).toEqual(Object.keys(TEMPLATES));
  });

  it("default as the run library does when a flag is not given, so a library caller gets the command's run", () => {
    const defaults = (spec: CommandSpec, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, spec.flags[n]!.default]));
    expect(defaults(rehearseSpec, Object.keys(REHEARSE_DEFAULTS))).toEqual(REHEARSE_DEFAULTS);
    expect(defaults(mutateSpec, Object.keys(MUTATE_DEFAULTS))).toEqual(MUTATE_DEFAULTS);
    for (const spec of [rehearseSpec, mutateSpec, gradeSpec, buildSpec] as CommandSpec[]) {
      expect(spec.flags.timeout!.default, spec.name).toBe(DEFAULT_TIMEOUT_SECONDS);
      expect(spec.flags.jobs!.default, spec.name).toBeUndefined();
    }
  });

  it('have numbers as the defaults of numeric flags, and values inside their own bounds', () => {
    for (const [command, name, f] of numeric) {
      if (f.default === undefined) continue;
      expect(typeof f.default, `${command} --${name}`).toBe('number');
      expect(parseCommand({ ...COMMAND_SPECS.find((s) => s.name === command)!, positionals: true }, [`--${name}`, String(f.default)]).values[name], `${command} --${name}`).toBe(f.default);
    }
  });

  it('refuse a bad value of every numeric flag and choice before the command runs, with exit 2', async () => {
    const cases = [
      ...numeric.map(([command, name]) => [command, name, '-1.5'] as const),
      ...COMMAND_SPECS.flatMap((s) => Object.entries(s.flags).filter(([, f]) => f.choices).map(([name]) => [s.name, name, 'nope'] as const)),
    ];
    expect(cases.length).toBeGreaterThan(30);
    for (const [command, name, value] of cases) {
      // A cwd that does not exist: a command that ran at all would fail differently.
      const io = memoryIo('/nonexistent/packet-kit');
      expect(await runCli([command, `--${name}=${value}`], io), `${command} --${name}`).toBe(2);
      expect(io.stderr, `${command} --${name}`).toMatch(new RegExp(`^packet ${command}: PK801 --${name} must be .*, not "${value}"\\.\\n  hint: .*\\nRun "packet ${command} --help" for its options\\.\\n$`));
      expect(io.stdout).toBe('');
    }
  });
});
