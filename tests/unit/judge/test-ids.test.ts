import { describe, expect, it } from 'vitest';
import { makeCanary, withCanary } from '../../../src/judge/canaries.ts';
import { runnerStyle } from '../../../src/judge/runners/index.ts';
import { canonicalTestId, expectedTests, isTestFile, moduleName, scanPython, testFileOf } from '../../../src/judge/test-ids.ts';

const helpers = scanPython(
  'tests/fakes.py',
  `import unittest


class AgentCase(unittest.TestCase):
    def setUp(self):
        self.x = 1

    def helper_not_a_test(self):
        pass


class Mixin:
    def test_from_mixin(self):
        pass
`,
);

const unittestFile = scanPython(
  'tests/test_agent.py',
  `"""Tests.

def test_in_a_docstring(self):
    this is not code
"""
import unittest
from tests.fakes import AgentCase, Mixin as Shared


class TestResolve(AgentCase):
    '''class docstring with
    def test_also_not_code(self): pass
    '''
    def test_one(self):
        self.assertEqual(1, 1)

    @unittest.expectedFailure
    def test_two(self):
        x = """
def test_three(self):
"""

    def not_a_test(self):
        pass

    async def test_async(self):
        pass


class TestShared(Shared, unittest.TestCase):
    def test_own(self):
        pass


class Base(unittest.TestCase):
    def test_base(self):
        pass


class Derived(Base):
    def test_derived(self):
        pass


class Plain:
    def test_not_collected_by_unittest(self):
        pass


def test_module_function():
    assert True
`,
);

describe('scanPython', () => {
  it('finds classes, bases, test methods and imports, not text in strings', () => {
    expect(unittestFile.classes.map((c) => [c.name, c.bases, c.tests])).toEqual([
      ['TestResolve', ['AgentCase'], ['test_one', 'test_two', 'test_async']],
      ['TestShared', ['Shared', 'unittest.TestCase'], ['test_own']],
      ['Base', ['unittest.TestCase'], ['test_base']],
      ['Derived', ['Base'], ['test_derived']],
      ['Plain', [], ['test_not_collected_by_unittest']],
    ]);
    expect(unittestFile.functions).toEqual(['test_module_function']);
    expect([...unittestFile.imports]).toEqual([
      ['AgentCase', ['tests.fakes', 'AgentCase']],
      ['Shared', ['tests.fakes', 'Mixin']],
    ]);
  });

  it('joins lines continued in brackets and ignores comments', () => {
    const m = scanPython('tests/test_x.py', 'class TestX(\n    unittest.TestCase,  # the base\n):\n    def test_a(\n        self,\n    ):\n        pass\n    # def test_commented(self):\n');
    expect(m.classes).toEqual([{ name: 'TestX', bases: ['unittest.TestCase'], tests: ['test_a'] }]);
  });
});

describe('expectedTests', () => {
  it('follows unittest: TestCase classes (imported bases and mixins included), inherited tests, no plain classes or functions', () => {
    const ids = expectedTests([unittestFile], [helpers], 'unittest', new Set()).map((t) => t.id);
    expect(ids).toEqual([
      'tests/test_agent.py::Base::test_base',
      'tests/test_agent.py::Derived::test_base',
      'tests/test_agent.py::Derived::test_derived',
      'tests/test_agent.py::TestResolve::test_async',
      'tests/test_agent.py::TestResolve::test_one',
      'tests/test_agent.py::TestResolve::test_two',
      'tests/test_agent.py::TestShared::test_from_mixin',
      'tests/test_agent.py::TestShared::test_own',
    ]);
  });

  it('follows pytest: also Test* classes and test functions', () => {
    const ids = expectedTests([unittestFile], [helpers], 'pytest', new Set()).map((t) => t.id);
    expect(ids).toContain('tests/test_agent.py::test_module_function');
    expect(ids).not.toContain('tests/test_agent.py::Plain::test_not_collected_by_unittest');
    const pytestClass = scanPython('tests/test_p.py', 'class TestPlain:\n    def test_a(self):\n        pass\n');
    expect(expectedTests([pytestClass], [], 'pytest', new Set()).map((t) => t.id)).toEqual(['tests/test_p.py::TestPlain::test_a']);
    expect(expectedTests([pytestClass], [], 'unittest', new Set())).toEqual([]);
  });

  it('takes a class on a base it cannot see for a TestCase when it has tests, and marks hidden files', () => {
    const m = scanPython('tests/test_hidden_h.py', 'from elsewhere import Case\n\nclass TestH(Case):\n    def test_h(self):\n        pass\n');
    expect(expectedTests([m], [], 'unittest', new Set(['tests/test_hidden_h.py']))).toEqual([{ id: 'tests/test_hidden_h.py::TestH::test_h', file: 'tests/test_hidden_h.py', hidden: true }]);
  });

  it('takes a subclass of a local base on a base it cannot see for a TestCase too', () => {
    const m = scanPython('tests/test_d.py', 'from outside import CaseBase\n\nclass Base(CaseBase):\n    def setUp(self):\n        pass\n\nclass TestD(Base):\n    def test_d(self):\n        pass\n');
    expect(expectedTests([m], [], 'unittest', new Set()).map((t) => t.id)).toEqual(['tests/test_d.py::TestD::test_d']);
  });

  it('follows pytest into a plain Test* class a module imports (pytest collects the module namespace)', () => {
    const shared = scanPython('tests/helpers.py', 'class TestShared:\n    def test_shared(self):\n        assert True\n\nclass Helper:\n    def test_not_collected(self):\n        pass\n');
    const user = scanPython('tests/test_a.py', 'from tests.helpers import TestShared, Helper\n\ndef test_own():\n    assert True\n');
    expect(expectedTests([user], [shared], 'pytest', new Set()).map((t) => t.id)).toEqual(['tests/test_a.py::test_own', 'tests/test_a.py::TestShared::test_shared']);
    expect(expectedTests([user], [shared], 'unittest', new Set())).toEqual([]);
  });

  it('collects a TestCase with tests that a module imports (unittest loads it from the module namespace)', () => {
    const base = scanPython('tests/shared.py', 'import unittest\n\nclass SharedChecks(unittest.TestCase):\n    def test_shared(self):\n        pass\n');
    const user = scanPython('tests/test_user.py', 'from tests.shared import SharedChecks\n');
    expect(expectedTests([user], [base], 'unittest', new Set()).map((t) => t.id)).toEqual(['tests/test_user.py::SharedChecks::test_shared']);
  });
});

describe('runner ids', () => {
  const files = ['tests/test_a.py', 'tests/sub/test_b.py'];
  it('maps unittest and pytest ids to the judge form', () => {
    expect(canonicalTestId('tests.test_a.TestX.test_y', files)).toBe('tests/test_a.py::TestX::test_y');
    expect(canonicalTestId('test_a.TestX.test_y', files)).toBe('tests/test_a.py::TestX::test_y');
    expect(canonicalTestId('tests.sub.test_b.T.test_z', files)).toBe('tests/sub/test_b.py::T::test_z');
    expect(canonicalTestId('tests/test_a.py::TestX::test_y[3-4]', files)).toBe('tests/test_a.py::TestX::test_y');
    expect(canonicalTestId('tests/test_a.py::test_fn', files)).toBe('tests/test_a.py::test_fn');
    expect(canonicalTestId('tests/other.py::test_fn', files)).toBeNull();
    expect(canonicalTestId('other.TestX.test_y', files)).toBeNull();
  });

  it('finds the file of an import failure', () => {
    expect(testFileOf('unittest.loader._FailedTest.tests.test_a', files)).toBe('tests/test_a.py');
    expect(testFileOf('unittest.loader.ModuleImportFailure.test_b', files)).toBe('tests/sub/test_b.py');
    expect(testFileOf('unittest.loader._FailedTest.nowhere', files)).toBeNull();
  });

  it('knows the runners and their file patterns', () => {
    expect(runnerStyle('python3 -m unittest discover -s tests -t . -q')).toBe('unittest');
    expect(runnerStyle('python3 -m pytest -q')).toBe('pytest');
    expect(runnerStyle('pytest tests')).toBe('pytest');
    expect(runnerStyle('make test')).toBeNull();
    expect(isTestFile('tests/test_a.py', 'unittest')).toBe(true);
    expect(isTestFile('tests/tests.py', 'unittest')).toBe(true);
    expect(isTestFile('tests/tests.py', 'pytest')).toBe(false);
    expect(isTestFile('tests/a_test.py', 'pytest')).toBe(true);
    expect(isTestFile('tests/fakes.py', 'unittest')).toBe(false);
    expect(isTestFile('tests/test_a.txt', 'unittest')).toBe(false);
    expect(moduleName('tests/sub/__init__.py')).toBe('tests.sub');
  });
});

describe('canaries', () => {
  const seq = (values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length]!;
  };

  it('are a failing TestCase for unittest, and a failing function for plain pytest files', () => {
    const c = makeCanary('tests/test_a.py', 'unittest', true, seq([0.1, 0.2, 0.3, 0.4]));
    expect(c.id).toMatch(/^tests\/test_a\.py::Test[A-Z][a-z]{9}::test_[a-z]{9}$/);
    expect(c.source).toMatch(/class Test\w+\(__import__\("unittest"\)\.TestCase\):\n {4}def test_\w+\(self\):\n {8}self\.assertEqual\((\d+), (\d+)\)\n$/);
    const [, a, b] = /assertEqual\((\d+), (\d+)\)/.exec(c.source)!;
    expect(Number(a)).not.toBe(Number(b));
    const p = makeCanary('tests/test_p.py', 'pytest', false, Math.random);
    expect(p.id).toMatch(/^tests\/test_p\.py::test_[a-z]{10}$/);
    expect(p.source).toMatch(/def test_\w+\(\):\n {4}assert (\d+) == (\d+)\n$/);
  });

  it('never take a name the file already uses, and differ from run to run', () => {
    const zero = () => 0;
    const taken = new Set(['TestAaaaaaaaaa']);
    const values = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5];
    let i = 0;
    const c = makeCanary('tests/test_a.py', 'unittest', true, () => (i < values.length ? values[i++]! : zero()), taken);
    expect(c.id).not.toContain('TestAaaaaaaaaa');
    const ids = new Set(Array.from({ length: 20 }, () => makeCanary('tests/test_a.py', 'unittest', true, Math.random).id));
    expect(ids.size).toBe(20);
  });

  it('are appended after a final newline', () => {
    const c = makeCanary('tests/test_a.py', 'unittest', true, Math.random);
    expect(withCanary('x = 1', c)).toBe(`x = 1\n${c.source}`);
    expect(withCanary('x = 1\n', c)).toBe(`x = 1\n${c.source}`);
  });
});

describe('scanPython: strings, brackets and continuations do not hide a test or invent one', () => {
  const tests = (source: string) => scanPython('tests/test_s.py', source).classes.flatMap((c) => c.tests);

  it('reads past single- and double-quoted strings holding brackets, quotes and escapes', () => {
    const source = String.raw`import unittest


class TestS(unittest.TestCase):
    opener = '('
    pairs = ("a", 1)
    quoted = "say \"(\" twice"
    path = "C:\temp"
    def test_after_strings(self):
        pass
`;
    expect(tests(source)).toEqual(['test_after_strings']);
  });

  it('does not let a stray closing bracket unbalance the rest of the file', () => {
    const source = 'x = 1)\nclass TestS(\n    unittest.TestCase,\n):\n    def test_a(self):\n        pass\n';
    expect(scanPython('tests/test_s.py', source).classes).toEqual([{ name: 'TestS', bases: ['unittest.TestCase'], tests: ['test_a'] }]);
  });

  it('keeps a statement the file ends in the middle of', () => {
    expect(scanPython('tests/test_s.py', 'def test_tail(\n    x,').functions).toEqual(['test_tail']);
  });

  it('skips star imports and keeps the names it can read', () => {
    expect([...scanPython('tests/test_s.py', 'from tests.fakes import *\nfrom tests.more import A as B, C\n').imports]).toEqual([
      ['B', ['tests.more', 'A']],
      ['C', ['tests.more', 'C']],
    ]);
  });
});

describe('expectedTests: which classes are TestCases', () => {
  const ids = (source: string, style: 'unittest' | 'pytest' = 'unittest') => expectedTests([scanPython('tests/test_c.py', source)], [], style, new Set()).map((t) => t.id);

  it('takes a dotted base ending in TestCase for one, and its subclasses', () => {
    expect(ids('class Base(django.test.TestCase):\n    def setUp(self):\n        pass\n\nclass Child(Base):\n    def test_c(self):\n        pass\n')).toEqual(['tests/test_c.py::Child::test_c']);
  });

  it('reads a class of the module whose name ends in TestCase rather than assume one', () => {
    expect(ids('class BaseTestCase:\n    def test_helper(self):\n        pass\n\nclass Child(BaseTestCase):\n    def test_c(self):\n        pass\n')).toEqual([]);
  });

  it('does not take object, or a name that only starts like TestCase, for a TestCase', () => {
    expect(ids('class Helper(object):\n    def test_x(self):\n        pass\n')).toEqual([]);
    expect(ids('class Base(TestCaseMixin):\n    pass\n\nclass Child(Base, object):\n    def test_y(self):\n        pass\n')).toEqual(['tests/test_c.py::Child::test_y']);
  });

  it('takes a base named in the file but defined nowhere it can see for a possible TestCase', () => {
    expect(ids('from helpers import *\n\nclass Child(Case):\n    def test_z(self):\n        pass\n')).toEqual(['tests/test_c.py::Child::test_z']);
  });

  it('survives classes that inherit from each other (Python refuses them; the scanner must not hang or crash)', () => {
    expect(ids('class A(B):\n    def test_a(self):\n        pass\n\nclass B(A):\n    def test_b(self):\n        pass\n')).toEqual([]);
    expect(ids('class TestA(TestB):\n    def test_a(self):\n        pass\n\nclass TestB(TestA):\n    def test_b(self):\n        pass\n', 'pytest')).toContain('tests/test_c.py::TestA::test_b');
  });
});

describe('runner ids: edges', () => {
  const files = ['tests/test_a.py', 'tests/sub/test_b.py'];
  it('needs a test name after the module, and the loader\'s prefix at the start', () => {
    expect(canonicalTestId('tests.test_a', files)).toBeNull();
    expect(testFileOf('tests.test_a', files)).toBeNull();
    expect(testFileOf('other.unittest.loader._FailedTest.tests.test_a', files)).toBeNull();
  });

  it('reads module names only from the end of the path', () => {
    expect(moduleName('tests/x.py/test_a.py')).toBe('tests.x.py.test_a');
    expect(moduleName('tests/__init__helpers/test_a.py')).toBe('tests.__init__helpers.test_a');
    expect(isTestFile('tests/test_a.py', 'pytest')).toBe(true);
    expect(isTestFile('tests/check_test.py', 'pytest')).toBe(true);
    expect(isTestFile('tests/testing.py', 'pytest')).toBe(false);
  });
});

describe('canaries: the exact test planted', () => {
  const constant = (v: number) => () => v;

  it('writes two different numbers from the random draws into a failing assertion', () => {
    // random() = 0.5: letters "n", left 1000 + 4500, right left + 1 + 48.
    expect(makeCanary('tests/test_a.py', 'pytest', false, constant(0.5))).toEqual({
      file: 'tests/test_a.py',
      id: 'tests/test_a.py::test_nnnnnnnnnn',
      source: '\n\ndef test_nnnnnnnnnn():\n    assert 5500 == 5549\n',
    });
    expect(makeCanary('tests/test_a.py', 'unittest', false, constant(0)).source).toBe('\n\nclass TestAaaaaaaaaa(__import__("unittest").TestCase):\n    def test_aaaaaaaaa(self):\n        self.assertEqual(1000, 1001)\n');
  });

  it('writes a TestCase into a pytest file that holds TestCases, and a function into one that does not', () => {
    expect(makeCanary('tests/test_a.py', 'pytest', true, constant(0)).id).toBe('tests/test_a.py::TestAaaaaaaaaa::test_aaaaaaaaa');
    expect(makeCanary('tests/test_a.py', 'pytest', false, constant(0)).id).toBe('tests/test_a.py::test_aaaaaaaaaa');
    expect(makeCanary('tests/test_a.py', 'unittest', false, constant(0)).id).toBe('tests/test_a.py::TestAaaaaaaaaa::test_aaaaaaaaa');
  });

  it('draws again when a function of that name is taken', () => {
    const draws = [...Array(10).fill(0), ...Array(10).fill(0.04)];
    let i = 0;
    const c = makeCanary('tests/test_a.py', 'pytest', false, () => draws[i++] ?? 0.5, new Set(['test_aaaaaaaaaa']));
    expect(c.id).toBe('tests/test_a.py::test_bbbbbbbbbb');
  });

  it('is the whole text of an empty file', () => {
    const c = makeCanary('tests/test_a.py', 'pytest', false, constant(0));
    expect(withCanary('', c)).toBe(c.source);
  });
});

describe('scanPython: line endings, indentation and continuations', () => {
  const tests = (source: string) => scanPython('tests/test_s.py', source).classes.flatMap((c) => c.tests);

  it('reads Windows and old Mac line endings like Unix ones', () => {
    const unix = 'import unittest\n\nclass TestS(unittest.TestCase):\n    def test_a(self):\n        pass\n\n    def test_b(self):\n        pass\n';
    expect(tests(unix.replace(/\n/g, '\r\n'))).toEqual(['test_a', 'test_b']);
    expect(tests(unix.replace(/\n/g, '\r'))).toEqual(['test_a', 'test_b']);
  });

  it('counts a tab as eight columns of indentation', () => {
    expect(tests('class TestS(unittest.TestCase):\n\tdef test_a(self):\n\t\tpass\n        def test_b(self):\n            pass\n')).toEqual(['test_a', 'test_b']);
  });

  it('keeps a class open across a triple-quoted string whose lines start at column 0', () => {
    const source = 'class TestS(unittest.TestCase):\n    usage = """\nno indentation here\n"""\n    def test_after(self):\n        pass\n';
    expect(tests(source)).toEqual(['test_after']);
  });

  it('reads a string holding an opening bracket as a string', () => {
    expect(tests('PATTERN = "a(b"\nclass TestS(unittest.TestCase):\n    def test_a(self):\n        pass\n')).toEqual(['test_a']);
    expect(tests('PATTERN = "a\\"(b"\nclass TestS(unittest.TestCase):\n    def test_a(self):\n        pass\n')).toEqual(['test_a']);
  });

  it('joins a line continued with a backslash, with or without spaces after it', () => {
    const m = scanPython('tests/test_s.py', 'from tests.fakes import \\\n    AgentCase\nfrom tests.more import \\  \n    Other\n');
    expect([...m.imports]).toEqual([
      ['AgentCase', ['tests.fakes', 'AgentCase']],
      ['Other', ['tests.more', 'Other']],
    ]);
  });

  it('continues a string cut by a backslash at the end of the line, and ends an unclosed quote with its line', () => {
    expect(tests('class TestS(unittest.TestCase):\n    msg = "first \\\nsecond"\n    def test_a(self):\n        pass\n')).toEqual(['test_a']);
    expect(tests('x = "unclosed\nclass TestS(unittest.TestCase):\n    def test_a(self):\n        pass\n')).toEqual(['test_a']);
  });

  it('reads a bracketed import over several lines, with any spacing around `as`', () => {
    const m = scanPython('tests/test_s.py', 'from tests.fakes import (\n    AgentCase  as  Case,\n    Mixin\n)\n');
    expect([...m.imports]).toEqual([
      ['Case', ['tests.fakes', 'AgentCase']],
      ['Mixin', ['tests.fakes', 'Mixin']],
    ]);
  });

  it('collects only the methods of the class body, not functions nested in them', () => {
    expect(tests('class TestS(unittest.TestCase):\n    def test_a(self):\n        def test_inner():\n            pass\n        test_inner()\n')).toEqual(['test_a']);
  });

  it('reads a decorated class and a decorated method', () => {
    const source = '@dataclass\nclass TestS(unittest.TestCase):\n    @unittest.skipIf(\n        False, "never"\n    )\n    def test_a(self):\n        pass\n';
    expect(tests(source)).toEqual(['test_a']);
  });
});

describe('expectedTests: classes from helper modules', () => {
  const ids = (helper: string, test: string) => expectedTests([scanPython('tests/test_c.py', test)], [scanPython('tests/helpers.py', helper)], 'unittest', new Set()).map((t) => t.id);

  it('takes a base whose name ends in TestCase for one by name, even when a helper defines it without bases', () => {
    expect(ids('class BaseTestCase:\n    pass\n', 'from tests.helpers import BaseTestCase\n\nclass TestX(BaseTestCase):\n    def test_x(self):\n        pass\n')).toEqual(['tests/test_c.py::TestX::test_x']);
  });

  it('does not take a helper whose name only contains TestCase for a TestCase', () => {
    expect(ids('class TestCaseMixin:\n    def test_shared(self):\n        pass\n', 'from tests.helpers import TestCaseMixin\n\nclass TestX(TestCaseMixin):\n    def test_x(self):\n        pass\n')).toEqual([]);
  });

  it('does not invent a test for classes whose bases loop', () => {
    const e = expectedTests([scanPython('tests/test_c.py', 'class TestA(TestB):\n    def test_a(self):\n        pass\n\nclass TestB(TestA):\n    pass\n')], [], 'pytest', new Set());
    expect(e.map((t) => t.id)).toEqual(['tests/test_c.py::TestA::test_a']);
  });
});

describe('runner ids: pytest parameters', () => {
  it('drops the parameters of a parametrised pytest id, brackets inside them too', () => {
    const files = ['tests/test_a.py'];
    expect(canonicalTestId('tests/test_a.py::TestX::test_y[1-2]', files)).toBe('tests/test_a.py::TestX::test_y');
    expect(canonicalTestId('tests/test_a.py::test_z[x[0]-y]', files)).toBe('tests/test_a.py::test_z');
    expect(canonicalTestId('tests/test_a.py::test_plain', files)).toBe('tests/test_a.py::test_plain');
  });
});

describe('scanPython: any spacing Python allows', () => {
  it('reads class, def, async def and from-import lines with extra spaces', () => {
    const m = scanPython('tests/test_s.py', 'from  tests.fakes  import  AgentCase\n\nclass  TestS (AgentCase) :\n    def  test_a (self):\n        pass\n\n    async  def  test_b(self):\n        pass\n');
    expect(m.classes).toEqual([{ name: 'TestS', bases: ['AgentCase'], tests: ['test_a', 'test_b'] }]);
    expect([...m.imports]).toEqual([['AgentCase', ['tests.fakes', 'AgentCase']]]);
  });
});
