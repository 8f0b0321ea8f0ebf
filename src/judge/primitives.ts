import { z } from 'astro/zod';

/**
 * The primitives the static screen (`harness/screen.py`) names at file:line:col in a candidate's
 * Python files before the run: each is a way for code under test to reach the harness that
 * judges it. The ids are stable (a packet's `workspace.allowPrimitives` names them) and must
 * match the ones screen.py reports. Plain constants: the packet schema reads them too.
 */
export const PRIMITIVES = [
  'coding-cookie',
  'test-machinery',
  'introspection',
  'gc',
  'trace',
  'ctypes',
  'builtins',
  'atexit',
  'signal',
  'fd-redirect',
  'sys-modules',
  'dynamic-import',
  'computed-attr',
  'dunder',
  'eval',
  'constant-eq',
  'fork',
] as const;

/** One primitive id. */
export type Primitive = (typeof PRIMITIVES)[number];

/** The primitive ids as a zod enum. */
export const primitiveSchema = z.enum(PRIMITIVES);

/** What each primitive is, and why candidate code never needs it: one sentence each, for the docs. */
export const PRIMITIVE_DOCS: Readonly<Record<Primitive, string>> = {
  'coding-cookie':
    'A source encoding other than UTF-8 declared in the first two lines (`# -*- coding: utf-7 -*-`): it lets code read differently to a person or a pattern than to Python, and a solution never needs it.',
  'test-machinery':
    'An import of unittest, doctest, pytest, _pytest, pluggy or the kit\'s own harness, or reading one through another module: the tests import the runner, the code under test has no business with it.',
  introspection:
    'Frames, tracebacks and code objects (inspect, sys._getframe, f_back, f_locals, tb_frame, co_code, walk_stack, dis, pdb, marshal, pickle and the like): they reach the caller\'s variables, the harness\'s included, and ordinary code has no need to look up its own stack.',
  gc: 'The gc module or its get_objects/get_referrers/get_referents: they hand out every live object, the runner\'s results among them.',
  trace: 'A trace or profile hook (sys.settrace, sys.setprofile, threading.settrace, sys.monitoring): it sees every frame the harness runs, which only a debugger needs.',
  ctypes: 'ctypes, _ctypes or cffi: raw memory access goes around every guard the interpreter keeps, and a solution in Python has no use for it.',
  builtins: 'The builtins module, `__builtins__` or `__build_class__`: replacing a builtin changes what the harness itself calls.',
  atexit: 'An exit hook (atexit): it runs after the tests, while the outcome is being recorded.',
  signal: 'The signal module: a handler receives the interrupted frame, and the tests never send the code a signal.',
  'fd-redirect':
    'Moving the standard streams (os.dup2, os.dup, os.close/os.write/open on fd 0, 1 or 2, os.closerange, reassigning sys.stdout or sys.stderr, contextlib.redirect_stdout): they are the harness\'s channels, and code that prints uses print.',
  'sys-modules':
    'The interpreter\'s tables and hooks (sys.modules, sys.meta_path, sys.path_hooks, sys.excepthook, sys.addaudithook and the like, sys read through another module, vars() of a module): they reach every loaded module, the runner\'s included.',
  'dynamic-import': 'An import named at run time (importlib, __import__, pkgutil, runpy, __loader__, __spec__): it hides what the code loads, and a solution imports what it uses by name.',
  'computed-attr':
    'getattr, setattr, delattr or hasattr with a name that is not a literal, operator.attrgetter or methodcaller with a computed or dunder name, `.format` on a string that is not a literal: the attribute reached is decided at run time, out of the screen\'s sight.',
  dunder:
    'Reading an interpreter-internal attribute (`__class__`, `__subclasses__`, `__globals__`, `__dict__`, `__code__`, `__mro__`, `__traceback__` and the like), by name or in a string: these chains walk from any object to the runner; defining `__eq__` or calling `super().__init__()` is fine.',
  eval: 'eval, exec or compile, or building a function from a code object (types.FunctionType, CodeType): code made at run time is code the screen never read.',
  'constant-eq': 'An `__eq__` or `__ne__` that returns a constant on every path: a value equal to everything makes every assertion pass.',
  fork: 'os.fork, os.forkpty or os.register_at_fork: a child keeps a copy of the harness\'s memory and can speak after the tests end.',
};
