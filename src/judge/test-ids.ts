/**
 * The tests a run must execute, read from the test files themselves (never from the run), and
 * the one id form the judge compares in: `path/to/test_file.py::Class::method` or
 * `path/to/test_file.py::function`. The code under test writes the runner's output, so the
 * expected ids cannot come from there.
 *
 * Python test files are read, not run: a line scanner that knows indentation, decorators and
 * triple-quoted strings finds the classes, their bases (in the file, imported from another
 * file of the packet, or a `...TestCase` by name) and the `test*` methods, inherited ones
 * included. That covers what unittest's loader and pytest collect from plain test modules;
 * tests generated at import time (a loop that adds methods) are beyond it, and a packet that
 * relies on them fails its own sample check with the ids named, rather than passing open.
 */

/** Which collection rules apply: unittest collects TestCase classes; pytest also `Test*` classes and `test*` functions (the runner a command uses: ./runners/). */
export type RunnerStyle = 'unittest' | 'pytest';

/** One test the kit expects to run and pass. */
export interface ExpectedTest {
  /** `file::Class::method` or `file::function`. */
  id: string;
  /** The test file, relative to the workspace root. */
  file: string;
  /** A held-out test (from `hidden/`). */
  hidden: boolean;
}

/** A class as the scanner saw it. */
interface ClassInfo {
  name: string;
  /** Base expressions as written (`unittest.TestCase`, `AgentCase`). */
  bases: string[];
  /** `test*` methods defined in the class body. */
  tests: string[];
}

/** What the scanner found in one Python file. */
export interface PythonModule {
  /** The file, relative to the workspace root. */
  file: string;
  classes: ClassInfo[];
  /** Module-level `test*` functions. */
  functions: string[];
  /** Names bound by `from X import A [as B]`: local name -> [module, name]. */
  imports: Map<string, [string, string]>;
}

/** True for a file the runner would load as a test module. */
export function isTestFile(file: string, style: RunnerStyle): boolean {
  if (!file.endsWith('.py')) return false;
  const base = file.slice(file.lastIndexOf('/') + 1);
  return style === 'unittest' ? base.startsWith('test') : base.startsWith('test_') || base.endsWith('_test.py');
}

/** The dotted module name of a file (`tests/test_a.py` -> `tests.test_a`). */
export function moduleName(file: string): string {
  return file.replace(/\.py$/, '').replace(/\/__init__$/, '').split('/').join('.');
}

const CLASS_LINE = /^class\s+([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*:/;
const DEF_LINE = /^(?:async\s+)?def\s+(test\w*)\s*\(/;
const FROM_IMPORT = /^from\s+([\w.]+)\s+import\s+\(?([^#)]*)\)?/;

/** Python source split into logical lines with their indentation; strings, comments and continuations handled roughly but safely. */
function logicalLines(source: string): { indent: number; text: string }[] {
  // Stryker disable next-line ArrayDeclaration: equivalent; a made-up first entry has no indent and no text, so the scanner skips it.
  const out: { indent: number; text: string }[] = [];
  let inTriple: string | null = null;
  let depth = 0;
  let current: { indent: number; text: string } | null = null;
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    let text = '';
    let i = 0;
    // Stryker disable next-line Regex: equivalent; a pattern that matches the empty string matches at 0 without the anchor too.
    const indentMatch = /^[ \t]*/.exec(raw)![0];
    const indent = indentMatch.replace(/\t/g, '        ').length;
    while (i < raw.length) {
      if (inTriple) {
        const end = raw.indexOf(inTriple, i);
        if (end < 0) {
          i = raw.length;
          break;
        }
        i = end + 3;
        inTriple = null;
        // Stryker disable next-line StringLiteral: equivalent, as for a single-quoted string below.
        text += '""';
        continue;
      }
      const ch = raw[i]!;
      if (ch === '#') break;
      if (raw.startsWith('"""', i) || raw.startsWith("'''", i)) {
        inTriple = raw.slice(i, i + 3);
        i += 3;
        continue;
      }
      if (ch === '"' || ch === "'") {
        let j = i + 1;
        while (j < raw.length && raw[j] !== ch) j += raw[j] === '\\' ? 2 : 1;
        // Stryker disable next-line StringLiteral: equivalent; no pattern the scanner reads looks inside a string, and a line that is only a string sets no indentation that matters.
        text += '""';
        // The escape skipped past the end: a backslash inside the string continues it on the next line.
        if (j > raw.length) text += '\\';
        i = j + 1;
        continue;
      }
      if ('([{'.includes(ch)) depth++;
      if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
      text += ch;
      i++;
    }
    // A backslash at the end of the code (not in a comment) continues the line.
    text = text.trimEnd();
    const backslash = text.endsWith('\\');
    if (backslash) text = text.slice(0, -1);
    const continued = inTriple !== null || depth > 0 || backslash;
    // A line starts a logical line when the one before it ended one (outside any string or bracket,
    // not continued with a backslash); only such a line's indentation counts.
    if (current === null) {
      current = { indent, text: text.trim() };
    } else {
      // Stryker disable next-line MethodExpression: equivalent; the patterns read allow any whitespace between words.
      current.text += ` ${text.trim()}`;
    }
    if (!continued) {
      if (current.text) out.push(current);
      current = null;
    }
  }
  if (current?.text) out.push(current);
  return out;
}

/** Scan one Python file. Pure. */
export function scanPython(file: string, source: string): PythonModule {
  const classes: ClassInfo[] = [];
  const functions: string[] = [];
  const imports = new Map<string, [string, string]>();
  let open: { info: ClassInfo; bodyIndent: number | null } | null = null;
  for (const { indent, text } of logicalLines(source)) {
    if (indent === 0) {
      open = null;
      const cls = CLASS_LINE.exec(text);
      if (cls) {
        const bases = (cls[2] ?? '')
          .split(',')
          .map((b) => b.trim())
          .filter((b) => b && !b.includes('='));
        const info: ClassInfo = { name: cls[1]!, bases, tests: [] };
        classes.push(info);
        open = { info, bodyIndent: null };
        continue;
      }
      const fn = DEF_LINE.exec(text);
      if (fn) {
        functions.push(fn[1]!);
        continue;
      }
      const imp = FROM_IMPORT.exec(text);
      if (imp) {
        for (const part of imp[2]!.split(',')) {
          // Stryker disable next-line Regex: the anchors are equivalent; a part of an import holds one name and an optional alias.
          const m = /^\s*([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?\s*$/.exec(part);
          if (m) imports.set(m[2] ?? m[1]!, [imp[1]!, m[1]!]);
        }
      }
      continue;
    }
    if (!open) continue;
    open.bodyIndent ??= indent;
    if (indent !== open.bodyIndent) continue;
    const def = DEF_LINE.exec(text);
    if (def && !open.info.tests.includes(def[1]!)) open.info.tests.push(def[1]!);
  }
  return { file, classes, functions, imports };
}

/** Resolve classes across the scanned modules: whether each is a TestCase, and its test methods with inherited ones. */
function resolver(modules: readonly PythonModule[]) {
  const byModule = new Map(modules.map((m) => [moduleName(m.file), m]));
  type Ref = { module: PythonModule; info: ClassInfo } | 'testcase' | 'unknown' | 'object';
  const find = (module: PythonModule, expr: string): Ref => {
    const last = expr.split('.').at(-1)!;
    if (expr === 'object') return 'object';
    if (/TestCase$/.test(last) && !module.classes.some((c) => c.name === expr)) return 'testcase';
    // A dotted name (`helpers.Base`) is neither a class of the module nor a name it imported.
    const local = module.classes.find((c) => c.name === expr);
    if (local) return { module, info: local };
    const imported = module.imports.get(expr);
    if (imported) {
      const other = byModule.get(imported[0]);
      const cls = other?.classes.find((c) => c.name === imported[1]);
      if (other && cls) return { module: other, info: cls };
    }
    return 'unknown';
  };
  const memo = new Map<ClassInfo, { testCase: boolean; tests: string[] }>();
  const resolve = (module: PythonModule, info: ClassInfo, seen: Set<ClassInfo> = new Set()): { testCase: boolean; tests: string[] } => {
    const known = memo.get(info);
    // Stryker disable next-line ConditionalExpression: equivalent; the memo only saves work, the result is the same without it.
    if (known) return known;
    if (seen.has(info)) return { testCase: false, tests: [] };
    seen.add(info);
    let testCase = false;
    let unknownBase = false;
    const tests = new Set(info.tests);
    for (const base of info.bases) {
      const ref = find(module, base);
      if (ref === 'testcase') testCase = true;
      else if (ref === 'unknown') unknownBase = true;
      else if (ref !== 'object') {
        const inherited = resolve(ref.module, ref.info, seen);
        testCase ||= inherited.testCase;
        for (const t of inherited.tests) tests.add(t);
      }
    }
    // A base the kit cannot see (a helper outside the packet's test files) may be a TestCase: the
    // class is taken for one, and so are its subclasses, so their tests are expected rather than
    // silently skipped.
    if (!testCase && unknownBase) testCase = true;
    // Unsorted: expectedTests sorts what it returns.
    const result = { testCase, tests: [...tests] };
    // Stryker disable next-line CallExpression: equivalent; the memo only saves work.
    memo.set(info, result);
    return result;
  };
  return { resolve, find };
}

/**
 * The tests the runner must execute, from the scanned files. `testFiles` are the files the
 * runner loads (see `isTestFile`); `helpers` are other scanned files whose classes test files
 * import. Sorted by id.
 */
export function expectedTests(testModules: readonly PythonModule[], helpers: readonly PythonModule[], style: RunnerStyle, hidden: ReadonlySet<string>): ExpectedTest[] {
  const { resolve, find } = resolver([...testModules, ...helpers]);
  const out = new Map<string, ExpectedTest>();
  const add = (file: string, id: string) => out.set(id, { id, file, hidden: hidden.has(file) });
  for (const module of testModules) {
    const candidates: { name: string; module: PythonModule; info: ClassInfo }[] = module.classes.map((info) => ({ name: info.name, module, info }));
    // unittest's loader also collects TestCase classes imported into the module's namespace,
    // and pytest its Test* classes.
    for (const [local] of module.imports) {
      const ref = find(module, local);
      if (typeof ref !== 'string') candidates.push({ name: local, module: ref.module, info: ref.info });
    }
    for (const c of candidates) {
      const { testCase, tests } = resolve(c.module, c.info);
      const pytestClass = style === 'pytest' && c.name.startsWith('Test');
      if (!testCase && !pytestClass) continue;
      for (const t of tests) add(module.file, `${module.file}::${c.name}::${t}`);
    }
    if (style === 'pytest') for (const f of module.functions) add(module.file, `${module.file}::${f}`);
  }
  return [...out.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * A runner's test id in the judge's form, or null when it names no known test file.
 * unittest: `tests.test_a.TestX.test_y` (module relative to the top-level dir, or to the start
 * dir when no `-t` is given); pytest: `tests/test_a.py::TestX::test_y[param]` (the parameters
 * are dropped: every parametrised case answers for the one expected id).
 */
export function canonicalTestId(runnerId: string, testFiles: readonly string[]): string | null {
  if (runnerId.includes('::')) {
    const [file, ...rest] = runnerId.split('::');
    if (!testFiles.includes(file!)) return null;
    return [file, ...rest.map((p) => p.split('[')[0])].join('::');
  }
  const parts = runnerId.split('.');
  // Stryker disable next-line EqualityOperator: equivalent; n = 0 looks up the empty module name, which no test file has.
  for (let n = parts.length - 1; n > 0; n--) {
    const mod = parts.slice(0, n).join('.');
    const file = testFiles.find((f) => moduleName(f) === mod) ?? testFiles.find((f) => moduleName(f).endsWith(`.${mod}`));
    if (file) return [file, ...parts.slice(n)].join('::');
  }
  return null;
}

/** The test file a runner id belongs to (for import failures: `unittest.loader._FailedTest.tests.test_a` names the module). */
export function testFileOf(runnerId: string, testFiles: readonly string[]): string | null {
  const canonical = canonicalTestId(runnerId, testFiles);
  if (canonical) return canonical.split('::')[0]!;
  // Stryker disable next-line Regex: equivalent without the end anchor; `.+` already runs to the end of an id, which holds no newline.
  const failed = /^unittest\.loader\.(?:_FailedTest|ModuleImportFailure)\.(.+)$/.exec(runnerId);
  if (failed) {
    const mod = failed[1]!;
    return testFiles.find((f) => moduleName(f) === mod) ?? testFiles.find((f) => moduleName(f).endsWith(`.${mod}`)) ?? null;
  }
  return null;
}
