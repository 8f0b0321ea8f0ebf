import { describe, expect, it } from 'vitest';
import { countVisibleTests } from '../../../src/packets/visible-tests.ts';

describe('countVisibleTests', () => {
  it('counts test functions in Python test files only', () => {
    const starter = [
      { path: 'tests/test_gate.py', text: 'class T(unittest.TestCase):\n    def test_a(self):\n        pass\n\n    async def test_b(self):\n        pass\n    def helper(self):\n        pass\n' },
      { path: 'tests/gate_support.py', text: 'def test_like_helper():\n    pass\n' },
      { path: 'tests/checks_test.py', text: 'def test_c():\n    pass\n' },
      { path: 'src/gate.py', text: 'def test_not_a_test_file():\n    pass\n' },
      { path: 'tests/test_binary.py' },
    ];
    expect(countVisibleTests('python', starter)).toBe(3);
    expect(countVisibleTests('Python', starter)).toBe(3);
  });

  it('counts JavaScript and Go conventions, and knows when it does not know', () => {
    expect(countVisibleTests('typescript', [{ path: 'test/a.test.ts', text: "test('a', () => {});\nit.skip('b', () => {});\n  describe('c', () => {});\n" }])).toBe(2);
    expect(countVisibleTests('go', [{ path: 'a_test.go', text: 'func TestA(t *testing.T) {}\nfunc helper() {}\nfunc TestB(t *testing.T) {}\n' }])).toBe(2);
    expect(countVisibleTests('cobol', [{ path: 'TEST.CBL', text: 'anything' }])).toBeUndefined();
    expect(countVisibleTests('python', [])).toBe(0);
  });
});
