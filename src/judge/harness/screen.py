"""The static screen: names, at file:line:col, the primitives a candidate's Python files use to
reach the harness that judges them (the test runner, frames, gc, trace hooks, fd 1/2, the module
table, dunder chains, computed names, eval), before any of that code is imported.

The kit's trusted harness calls screen(files, allow) inside the sandbox. It reads only the bytes
it is given: stdlib only, no side effects at import, no global state, Python 3.9+.

It also returns, per file, the token-normalised text of each logical line (comments dropped,
whitespace squeezed, adjacent literals joined, getattr/setattr with a literal name rewritten as
an attribute) so that a packet's `workspace.forbid` patterns can run over it as well as over the
raw text.

`python3 screen.py` reads {"files": [[path, base64data], ...], "allow": [...]} (or a list of such
objects, answered by a list) on stdin and prints the result as JSON.
"""

import ast
import bisect
import codecs
import io
import re
import string
import tokenize

MAX_DETAIL = 200
MAX_LINES = 5000
MAX_TEXT = 2000

# Why candidate code never needs each primitive: the second half of every finding's detail.
WHY = {
    "coding-cookie": "a source encoding other than UTF-8 can hide code from readers and patterns",
    "test-machinery": "candidate code has no business with the test runner",
    "introspection": "frames, tracebacks and code objects reach the harness that judges the code",
    "gc": "the garbage collector hands out every live object, the harness's included",
    "trace": "a trace or profile hook sees every frame the harness runs",
    "ctypes": "foreign memory access goes around every Python-level guard",
    "builtins": "the builtins namespace holds what the harness relies on",
    "atexit": "exit hooks run after the tests, while the outcome is being recorded",
    "signal": "a signal handler receives the interrupted frame",
    "fd-redirect": "the harness's output channels are not the candidate's to move",
    "sys-modules": "the interpreter's module table and hooks reach every loaded module, the runner's included",
    "dynamic-import": "an import named at run time hides what the code loads",
    "computed-attr": "an attribute named at run time hides what the code reaches",
    "dunder": "this name walks from an object to the interpreter's internals",
    "eval": "code compiled at run time is hidden from the screen",
    "constant-eq": "an equality that ignores its operand makes every assertion pass",
    "fork": "a child process keeps a copy of the harness's memory",
}

_TEST_MODULES = frozenset(("unittest", "doctest", "pytest", "_pytest", "pluggy"))
_MODULES = {
    "gc": "gc",
    "ctypes": "ctypes", "_ctypes": "ctypes", "cffi": "ctypes",
    "builtins": "builtins", "__builtin__": "builtins",
    "atexit": "atexit",
    "signal": "signal",
    "importlib": "dynamic-import", "imp": "dynamic-import", "pkgutil": "dynamic-import",
    "runpy": "dynamic-import", "zipimport": "dynamic-import", "pydoc": "dynamic-import",
}
for _m in ("_string", "inspect", "dis", "pdb", "bdb", "code", "codeop", "trace", "tracemalloc", "faulthandler",
           "linecache", "marshal", "pickle", "_pickle", "copyreg", "shelve", "dill"):
    _MODULES[_m] = "introspection"
for _m in _TEST_MODULES:
    _MODULES[_m] = "test-machinery"
del _m

# Attribute names (the last part of a dotted name) that are a primitive wherever they are read.
_ATTRS = {
    "unittest": "test-machinery", "doctest": "test-machinery", "pytest": "test-machinery", "_pytest": "test-machinery",
    "get_objects": "gc", "get_referrers": "gc", "get_referents": "gc", "gc": "gc",
    "settrace": "trace", "setprofile": "trace", "settrace_all_threads": "trace", "setprofile_all_threads": "trace",
    "ctypes": "ctypes",
    "__build_class__": "builtins", "__builtins__": "builtins",
    "redirect_stdout": "fd-redirect", "redirect_stderr": "fd-redirect",
    "import_module": "dynamic-import",
    "get_field": "computed-attr", "vformat": "computed-attr", "Formatter": "computed-attr",
    "formatter_field_name_split": "computed-attr", "_string": "computed-attr",
    "resolve_dotted_attribute": "computed-attr", "resolve_name": "dynamic-import",
}
for _a in ("walk_stack", "walk_tb", "extract_stack", "StackSummary", "capture_locals", "currentframe",
           "_getframe", "_current_frames", "_getframemodulename", "f_back", "f_locals", "f_globals",
           "f_builtins", "f_code", "tb_frame", "tb_next", "gi_frame", "cr_frame", "ag_frame", "gi_code",
           "co_consts", "co_code", "cell_contents"):
    _ATTRS[_a] = "introspection"
del _a

_SYS_HOOKS = frozenset(("modules", "meta_path", "path_hooks", "path_importer_cache", "addaudithook", "audit",
                        "excepthook", "unraisablehook", "displayhook", "breakpointhook"))
_STD_STREAMS = frozenset(("stdout", "stderr", "stdin", "__stdout__", "__stderr__", "__stdin__"))
_OS_MODULES = frozenset(("os", "posix", "nt"))
_FORK = frozenset(("fork", "forkpty", "register_at_fork"))
_FD_ANY = frozenset(("dup", "dup2", "closerange"))
_FD_LITERAL = frozenset(("close", "write", "fdopen"))
_STD_FDS = (0, 1, 2)

_DUNDERS = frozenset((
    "__class__", "__subclasses__", "__globals__", "__closure__", "__code__", "__dict__", "__builtins__",
    "__mro__", "__bases__", "__base__", "__self__", "__func__", "__module__", "__import__", "__loader__",
    "__spec__", "__getattribute__", "__reduce__", "__reduce_ex__", "__traceback__", "__context__",
    "__cause__", "__wrapped__", "__defaults__", "__kwdefaults__", "__objclass__", "__init_subclass__",
    "__set_name__",
))
# Literal alternatives only: linear, no backtracking.
_DUNDER_IN_TEXT = re.compile("|".join(sorted((re.escape(d) for d in _DUNDERS), key=len, reverse=True)))
# Frame and code attributes named in a string (a format field, a getattr by a name built elsewhere).
_FRAME_WORDS = ("cell_contents", "tb_frame", "f_back", "f_locals", "f_globals", "f_builtins", "f_code", "gi_frame", "cr_frame", "ag_frame",
                "gi_code", "co_consts", "co_code", "tb_next")
_FRAME_IN_TEXT = re.compile(r"(?<![A-Za-z0-9_])(?:%s)(?![A-Za-z0-9_])" % "|".join(_FRAME_WORDS))
# Subscript keys that reach the interpreter's tables through a namespace dict (vars(os)["sys"]).
_TABLE_KEYS = frozenset(("sys", "modules", "builtins", "__builtins__", "meta_path", "path_hooks"))
_BARE_NAMES = {"__import__": "dynamic-import", "__loader__": "dynamic-import", "__spec__": "dynamic-import",
               "__builtins__": "builtins", "__build_class__": "builtins"}
_ATTR_FUNCS = frozenset(("getattr", "setattr", "delattr", "hasattr"))
_EVAL = frozenset(("eval", "exec", "compile"))
_CODE_TYPES = frozenset(("FunctionType", "CodeType", "LambdaType"))
_EQ = frozenset(("__eq__", "__ne__"))
_BUILTIN_PREFIXES = ("builtins.", "__builtin__.", "__builtins__.")

_FIELD_ATTR = re.compile(r"\.([^.\[]+)")
_DEVICE_PATH = re.compile(r"/dev/(?:std(?:in|out|err)|fd/|tty)|/proc/[^/\s]{0,20}/(?:fd|mem)\b")
_MATCH_CLASS = getattr(ast, "MatchClass", None)  # 3.10+


def _pattern_primitive(name):
    """The primitive a `case C(name=...)` pattern reads, when the name is one the screen watches."""
    if name in _DUNDERS:
        return "dunder"
    if name in _ATTRS:
        return _ATTRS[name]
    if name in _SYS_HOOKS or name == "sys":
        return "sys-modules"
    if name in _FORK:
        return "fork"
    if name in _FD_ANY or name in _STD_STREAMS:
        return "fd-redirect"
    if name in _EVAL:
        return "eval"
    return None


_VISITED = frozenset((ast.Attribute, ast.Name, ast.Call, ast.Constant, ast.Import, ast.ImportFrom, ast.Assign, ast.Subscript,
                      ast.AnnAssign, ast.NamedExpr, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                      ast.keyword, ast.Dict, ast.Expr) + ((_MATCH_CLASS,) if _MATCH_CLASS else ()))
_SKIPPED_FIELDS = frozenset(("ctx", "op", "ops", "type_ignores"))
# What the pass after the walk looks at; everything else is skipped unresolved.
_WATCHED_ATTRS = frozenset(_ATTRS) | _DUNDERS | _SYS_HOOKS | _STD_STREAMS | _FORK | _FD_ANY | _EVAL | frozenset(
    ("monitoring", "sys", "breakpoint"))
_ATTR_VALUES = frozenset(("getattr", "setattr", "delattr", "attrgetter", "methodcaller"))
_WATCHED_NAMES = _EVAL | _ATTR_VALUES | frozenset(("breakpoint", "sys"))
_NAMESPACES = frozenset(("globals", "locals", "vars"))
_WATCHED_CALLS = _ATTR_FUNCS | _CODE_TYPES | _FD_LITERAL | frozenset(
    ("attrgetter", "methodcaller", "vars", "open", "format", "format_map"))

_COOKIE = re.compile(r"^[ \t\f]*#[^\n]*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
_UNKNOWN = "?"
_MAX_DEPTH = 100  # how deep resolution and constant checks follow one expression (Python's own stack stays far off)


def _finding(path, line, col, primitive, what):
    detail = "%s: %s" % (what, WHY[primitive])
    if len(detail) > MAX_DETAIL:
        detail = detail[: MAX_DETAIL - 1] + "\u2026"
    return {"file": path, "line": line, "col": col, "primitive": primitive, "detail": detail}


def _decode(data):
    """(text or None, cookie problem or None): the source as Python itself decodes it."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        line = _cookie_line(data)
        return None, ((line, "declares a source encoding Python refuses") if line else None)
    problem = None
    if encoding not in ("utf-8", "utf-8-sig"):
        problem = (_cookie_line(data) or 1, "declares the source encoding %s" % encoding)
    try:
        text = codecs.decode(data, encoding)
    except (UnicodeDecodeError, LookupError):
        return None, problem
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n"), problem


def _cookie_line(data):
    for number, raw in enumerate(data.split(b"\n", 2)[:2], 1):
        if _COOKIE.match(raw.decode("latin-1")):
            return number
    return None


class _File:
    """The AST side of one file: one ast.walk collects, then a pass over what it kept decides."""

    def __init__(self, path, text):
        self.path = path
        self.lines = text.split("\n")
        self.findings = []
        self.bindings = {}      # name -> [("mod", dotted) | ("expr", node)]
        self.imported = set(("sys", "os", "builtins"))  # first parts of names that denote modules
        self.resolved = {}      # id(node) -> frozenset of dotted names
        self.resolving = set()
        self.too_deep = False
        self.receivers = set()  # ids of nodes read only as an attribute's object or getattr's first argument
        self.aliased = set()    # ids of values bound whole to a plain name
        self.in_class = set()   # ids of values bound to a name in a class body (read later as C.name)
        self.consumed = set()   # ids of literal names already judged as the name of an attribute
        self.called = set()     # ids of expressions called directly (the `f` of `f(...)`)
        self.functions = {}     # name -> [FunctionDef] (for `__eq__ = some_function`)
        self.stars = []         # modules imported with `from M import *`: a bare name may be M.name
        self.eq_refs = []       # (node, name) for `__eq__ = name`
        self.attributes = []
        self.names = []
        self.calls = []

    # -- positions ----------------------------------------------------------------------------
    def col(self, line, byte_col):
        """1-based character column of ast's UTF-8 byte offset."""
        if 0 < line <= len(self.lines):
            text = self.lines[line - 1]
            if not text.isascii():
                return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace")) + 1
        return byte_col + 1

    def add(self, node, primitive, what, end=None):
        if end is None:
            line, col = node.lineno, self.col(node.lineno, node.col_offset)
        else:
            line, col = end
        self.findings.append(_finding(self.path, line, col, primitive, what))

    def attr_pos(self, node):
        """Where an Attribute's name is written (its object may span lines)."""
        line = getattr(node, "end_lineno", None) or node.lineno
        end = getattr(node, "end_col_offset", None)
        if end is None:
            return node.lineno, self.col(node.lineno, node.col_offset)
        return line, self.col(line, end) - len(node.attr)

    # -- collection ---------------------------------------------------------------------------
    def bind(self, name, kind, value):
        self.bindings.setdefault(name, []).append((kind, value))

    def bind_target(self, target, value):
        if isinstance(target, ast.Name):
            if isinstance(value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
                self.bind(target.id, "expr", value)
                self.aliased.add(id(value))
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts):
                self.bind_target(t, v)

    def walk(self, tree):
        """Every node once, each before its children: one pass over the tree."""
        visit = self.visit
        visited = _VISITED
        skipped = _SKIPPED_FIELDS
        fields_of = {}
        node_type = ast.AST
        stack = [tree]
        pop = stack.pop
        push = stack.append
        extend = stack.extend
        while stack:
            node = pop()
            cls = node.__class__
            fields = fields_of.get(cls)
            if fields is None:
                if not isinstance(node, node_type):
                    continue  # a None key of a dict display, a name of `global`
                fields = fields_of[cls] = tuple(f for f in cls._fields if f not in skipped)
            if cls in visited:
                visit(node)
            for name in fields:
                value = getattr(node, name, None)
                if value.__class__ is list:
                    extend(value)
                elif isinstance(value, node_type):
                    push(value)

    def visit(self, node):
        kind = type(node)
        if kind is ast.Attribute:
            self.receivers.add(id(node.value))
            self.attributes.append(node)
        elif kind is ast.Name:
            self.names.append(node)
        elif kind is ast.Call:
            self.calls.append(node)
            func = node.func
            self.called.add(id(func))
            if isinstance(func, ast.Attribute) and func.attr in ("get", "pop", "setdefault") and _namespace_call(func.value) \
                    and not (node.args and _literal_key(node.args[0])):
                self.add(node, "computed-attr", "looks up a name computed at run time in %s()" % func.value.func.id)
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in _ATTR_FUNCS and node.args:
                self.receivers.add(id(node.args[0]))
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    self.consumed.add(id(node.args[1]))
        elif kind is ast.Constant:
            if isinstance(node.value, str) and id(node) not in self.consumed:
                found = "__" in node.value and _DUNDER_IN_TEXT.search(node.value)
                if found:
                    self.add(node, "dunder", "a string names %s" % found.group(0))
                if "_" in node.value:
                    found = _FRAME_IN_TEXT.search(node.value)
                    if found:
                        self.add(node, "introspection", "a string names the frame attribute %s" % found.group(0))
                if "/dev/" in node.value or "/proc/" in node.value:
                    found = _DEVICE_PATH.search(node.value)
                    if found:
                        self.add(node, "fd-redirect", "a string names the path %s" % found.group(0))
        elif kind is ast.Import:
            for alias in node.names:
                self.check_module(node, alias.name, "imports %s" % alias.name)
                top = alias.name.split(".")[0]
                if alias.asname:
                    self.bind(alias.asname, "mod", alias.name)
                    self.imported.add(alias.asname)
                else:
                    self.bind(top, "mod", top)
                self.imported.add(top)
        elif kind is ast.ImportFrom:
            if node.level == 0 and node.module:
                self.imported.add(node.module.split(".")[0])
                self.check_module(node, node.module, "imports from %s" % node.module)
                for alias in node.names:
                    dotted = "%s.%s" % (node.module, alias.name)
                    self.check_dotted(node, dotted, "imports %s" % dotted, None)
                    bound = alias.asname or alias.name
                    if alias.name == "*":
                        self.stars.append(node.module)
                    else:
                        self.bind(bound, "mod", dotted)
                        self.imported.add(bound)
        elif kind is ast.Assign:
            for target in node.targets:
                self.bind_target(target, node.value)
                self.check_eq_assignment(target, node.value)
        elif kind is ast.AnnAssign:
            if node.value is not None:
                self.bind_target(node.target, node.value)
        elif kind is ast.NamedExpr:
            self.bind_target(node.target, node.value)
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            self.functions.setdefault(node.name, []).append(node)
        elif kind is ast.ClassDef:
            self.check_class(node)
        elif kind is ast.keyword:
            if node.arg == "capture_locals":
                self.add(node.value, "introspection", "asks a traceback for capture_locals")
        elif kind is ast.Dict:
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value in _EQ and _const_callable(value):
                    self.add(key, "constant-eq", "maps %s to a function that returns a constant" % key.value)
        elif kind is ast.Subscript:
            if _namespace_call(node.value) and not _literal_key(node.slice):
                self.add(node, "computed-attr", "looks up a name computed at run time in %s()" % node.value.func.id)
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value in _TABLE_KEYS:
                self.add(node, "sys-modules", "looks up %r in a namespace" % key.value)
        elif kind is _MATCH_CLASS:
            for name in node.kwd_attrs:
                primitive = _pattern_primitive(name)
                if primitive:
                    self.add(node, primitive, "matches the attribute %s in a pattern" % name)
        elif kind is ast.Expr and isinstance(node.value, ast.Constant):
            self.consumed.add(id(node.value))  # a docstring or a bare literal is inert

    def check_module(self, node, module, what):
        top = module.split(".")[0]
        primitive = _MODULES.get(top) or _MODULES.get(module)
        if primitive is None and (top.startswith("packet_kit") or top.startswith("_packet_kit")):
            primitive = "test-machinery"
        if primitive:
            self.add(node, primitive, what)

    # -- constant equality ------------------------------------------------------------------------
    def check_class(self, node):
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in _EQ:
                if _const_function(item):
                    self.add(item, "constant-eq", "%s.%s returns a constant" % (node.name, item.name))
            elif isinstance(item, (ast.Assign, ast.AnnAssign)) and item.value is not None:
                self.in_class.add(id(item.value))
            if isinstance(item, ast.Assign):
                for target in item.targets:
                    if isinstance(target, ast.Name) and target.id in _EQ:
                        if isinstance(item.value, ast.Name):
                            self.eq_refs.append((item, item.value.id, "%s.%s" % (node.name, target.id)))
                        elif _const_callable(item.value):
                            self.add(item, "constant-eq", "%s.%s returns a constant" % (node.name, target.id))

    def check_eq_assignment(self, target, value):
        if isinstance(target, ast.Attribute) and target.attr in _EQ:
            if _const_callable(value):
                self.add(target, "constant-eq", "sets %s to a function that returns a constant" % target.attr)
            elif isinstance(value, ast.Name):
                self.eq_refs.append((target, value.id, target.attr))

    # -- resolution -----------------------------------------------------------------------------
    def resolve(self, node):
        """The dotted names an expression may denote, through imports and plain aliases."""
        key = id(node)
        done = self.resolved.get(key)
        if done is not None:
            return done
        if key in self.resolving:
            return frozenset((_UNKNOWN,))  # a cycle of aliases
        if len(self.resolving) > _MAX_DEPTH:
            if not self.too_deep:  # no real code chains names this deep: say so rather than guess
                self.too_deep = True
                self.add(node, "computed-attr", "chains names deeper than the screen follows (%d levels)" % _MAX_DEPTH)
            return frozenset((_UNKNOWN,))
        self.resolving.add(key)
        try:
            out = self._resolve(node)
        finally:
            self.resolving.discard(key)
        self.resolved[key] = out
        return out

    def _resolve(self, node):
        if isinstance(node, ast.Name):
            bound = self.bindings.get(node.id)
            if not bound:
                return frozenset([node.id] + ["%s.%s" % (m, node.id) for m in self.stars])
            out = set()
            for kind, value in bound:
                if kind == "mod":
                    out.add(value)
                else:
                    out.update(self.resolve(value))
                if len(out) > 64:
                    break
            return frozenset(out)
        if isinstance(node, ast.Attribute):
            return frozenset("%s.%s" % (base, node.attr) for base in self.resolve(node.value))
        if isinstance(node, ast.Call):
            name = self.literal_attr_call(node)
            if name is not None:
                return frozenset("%s.%s" % (base, name) for base in self.resolve(node.args[0]))
        return frozenset((_UNKNOWN,))

    def func_names(self, call):
        return set(_base(q) for q in self.resolve(call.func))

    def literal_attr_call(self, call):
        """The literal name of getattr(X, "name"[, default]), else None."""
        if len(call.args) in (2, 3) and isinstance(call.args[1], ast.Constant) \
                and isinstance(call.args[1].value, str) and "getattr" in self.func_names(call):
            return call.args[1].value
        return None

    # -- the decisions --------------------------------------------------------------------------
    def check_dotted(self, node, dotted, what, pos, store=False):
        parts = dotted.split(".")
        last = parts[-1]
        prev = parts[-2] if len(parts) > 1 else None
        hit = []
        if len(parts) > 1:
            if dotted.startswith(_BUILTIN_PREFIXES):
                if last in _EVAL:
                    hit.append("eval")
                elif last == "breakpoint":
                    hit.append("introspection")
            if last in _ATTRS:
                hit.append(_ATTRS[last])
            if last in _DUNDERS:
                hit.append("dunder")
            if prev == "sys":
                if last in _SYS_HOOKS or last == "monitoring":
                    hit.append("sys-modules" if last != "monitoring" else "trace")
                elif last in _STD_STREAMS and store:
                    hit.append("fd-redirect")
            if prev in _OS_MODULES or prev == "pty":
                if last in _FORK:
                    hit.append("fork")
                elif last in _FD_ANY and prev != "pty":
                    hit.append("fd-redirect")
            if prev is not None and last == "sys" and parts[0] in self.imported and len(parts) >= 2 \
                    and parts[0] != _UNKNOWN:
                hit.append("sys-modules")
        for primitive in hit:
            if pos is None:
                self.add(node, primitive, what)
            else:
                self.add(node, primitive, what, pos)
        return hit

    def finish(self):
        for node in self.attributes:
            if node.attr in _ATTR_VALUES and id(node) not in self.called and id(node) not in self.aliased:
                if any(_value_of_attr_family(_base(q)) for q in self.resolve(node)):
                    self.add(node, "computed-attr", "passes %s around as a value" % node.attr, self.attr_pos(node))
            if node.attr not in _WATCHED_ATTRS:
                continue
            pos = self.attr_pos(node)
            store = not isinstance(node.ctx, ast.Load)
            what = "assigns" if store else "reads"
            for dotted in sorted(self.resolve(node)):
                self.check_dotted(node, dotted, "%s %s" % (what, _shown(dotted, node.attr)), pos, store)
        for node in self.names:
            if node.id in _BARE_NAMES:
                self.add(node, _BARE_NAMES[node.id], "uses %s" % node.id)
            elif node.id in _DUNDERS:
                self.add(node, "dunder", "uses %s" % node.id)
            if not isinstance(node.ctx, ast.Load) or (
                    node.id not in self.bindings and node.id not in _WATCHED_NAMES and not self.stars):
                continue
            names = self.resolve(node)
            for dotted in sorted(names):
                base = _base(dotted)
                if base in _EVAL:
                    self.add(node, "eval", "uses %s" % base)
                    break
                if base == "breakpoint":
                    self.add(node, "introspection", "uses breakpoint")
                    break
                if _value_of_attr_family(base) and id(node) not in self.called and id(node) not in self.aliased:
                    self.add(node, "computed-attr", "passes %s around as a value" % base)
                    break
                if dotted != node.id and "." in dotted and self.check_dotted(
                        node, dotted, "uses %s" % _shown(dotted, dotted.rsplit(".", 1)[1]), None):
                    break
            self.check_escape(node, names)
        for node in self.attributes:
            if node.attr == "sys" and isinstance(node.ctx, ast.Load):
                self.check_escape(node, self.resolve(node))
        for node in self.calls:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in _WATCHED_CALLS or (isinstance(func, ast.Name) and (name in self.bindings or self.stars)):
                self.check_call(node)
        for node, name, what in self.eq_refs:
            if any(_const_function(f) for f in self.functions.get(name, ())):
                self.add(node, "constant-eq", "%s is %s, which returns a constant" % (what, name))

    def check_escape(self, node, names):
        """sys handed around as a value (a list, an argument, an attribute) where its uses cannot be followed."""
        key = id(node)
        if key in self.receivers or (key in self.aliased and key not in self.in_class):
            return
        if any(q == "sys" or q.endswith(".sys") for q in names):
            self.add(node, "sys-modules", "passes the sys module around as a value")

    def check_call(self, call):
        funcs = self.func_names(call)
        args = call.args
        first = args[0] if args else None
        if funcs & _ATTR_FUNCS:
            which = sorted(funcs & _ATTR_FUNCS)[0]
            name = args[1] if len(args) > 1 else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                self.add(call, "computed-attr", "calls %s with a computed name" % which)
            elif which != "hasattr":
                store = which != "getattr"
                for dotted in sorted("%s.%s" % (b, name.value) for b in self.resolve(first)):
                    if self.check_dotted(call, dotted, "%s names %s" % (which, _shown(dotted, name.value)), None, store):
                        break
                if store and name.value in _EQ and len(args) > 2 and _const_callable(args[2]):
                    self.add(call, "constant-eq", "sets %s to a function that returns a constant" % name.value)
        for q in funcs:
            parts = q.split(".")
            last = parts[-1]
            prev = parts[-2] if len(parts) > 1 else None
            if last in ("attrgetter", "methodcaller") and prev == "operator":
                names = args if last == "attrgetter" else args[:1]
                if not names or any(not (isinstance(a, ast.Constant) and isinstance(a.value, str)) or "__" in a.value
                                    or not _WATCHED_ATTRS.isdisjoint(a.value.split(".")) for a in names):
                    self.add(call, "computed-attr", "calls operator.%s with a computed name or one the screen watches" % last)
            elif last in _CODE_TYPES and prev == "types":
                self.add(call, "eval", "builds a function or code object with types.%s" % last)
            elif q == "vars" and first is not None and any(r.split(".")[0] in self.imported for r in self.resolve(first)):
                self.add(call, "sys-modules", "calls vars() on a module")
            elif q == "vars" and first is not None and not isinstance(first, ast.Name):
                self.add(call, "computed-attr", "calls vars() on a value the screen cannot follow")
            elif (q == "open" or (prev in ("os", "io") and last in ("open", "fdopen"))) and _std_fd(first):
                self.add(call, "fd-redirect", "opens file descriptor %d" % first.value)
            elif prev in _OS_MODULES and last in _FD_LITERAL and first is not None:
                if _std_fd(first):
                    self.add(call, "fd-redirect", "calls os.%s on file descriptor %d" % (last, first.value))
                elif last == "write" and not isinstance(first, ast.Constant):
                    self.add(call, "fd-redirect", "calls os.write on a computed file descriptor")
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("format", "format_map"):
            if not (isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)):
                self.add(call, "computed-attr", "calls .%s on a string that is not a literal" % func.attr, self.attr_pos(func))
            else:
                for name in _format_attrs(func.value.value, 3):
                    primitive = _pattern_primitive(name)
                    if primitive:
                        self.add(func.value, primitive, "a format string reads the attribute %s" % name)


def _value_of_attr_family(base):
    """getattr and friends, or operator.attrgetter/methodcaller: fine when called on the spot."""
    last = base.rsplit(".", 1)[-1]
    return last in _ATTR_VALUES and (base == last or base == "operator." + last)


def _namespace_call(node):
    """globals(), locals() or vars() with no argument: a dict of names."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NAMESPACES \
        and not node.args and not node.keywords


def _literal_key(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _format_attrs(template, depth):
    """The attribute names a literal str.format template reads ({0.attr}, {x[k].attr}, nested specs too)."""
    try:
        fields = list(string.Formatter().parse(template))
    except (ValueError, TypeError):
        return []
    names = []
    for _, field, spec, _ in fields:
        if field:
            names.extend(_FIELD_ATTR.findall(field))
        if spec and depth > 1 and "{" in spec:
            names.extend(_format_attrs(spec, depth - 1))
    return names


def _shown(dotted, attr):
    return attr if dotted.startswith(_UNKNOWN + ".") else dotted


def _base(dotted):
    for prefix in _BUILTIN_PREFIXES:
        if dotted.startswith(prefix):
            return dotted[len(prefix):]
    return dotted


def _std_fd(node):
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value in _STD_FDS


def _is_const(node, depth=0):
    """True for an expression of constants only; one nested past _MAX_DEPTH counts as constant (fails closed)."""
    if depth > _MAX_DEPTH:
        return True
    depth += 1
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _is_const(node.operand, depth)
    if isinstance(node, ast.BinOp):
        return _is_const(node.left, depth) and _is_const(node.right, depth)
    if isinstance(node, ast.BoolOp):
        return all(_is_const(v, depth) for v in node.values)
    if isinstance(node, ast.Compare):
        return _is_const(node.left, depth) and all(_is_const(c, depth) for c in node.comparators)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_const(e, depth) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _is_const(k, depth) for k in node.keys) and all(
            _is_const(v, depth) for v in node.values)
    return False


def _const_callable(node):
    return isinstance(node, ast.Lambda) and _is_const(node.body)


def _const_function(func):
    """True when every return of the function (NotImplemented aside) is a constant."""
    returns = []
    raises = False
    stack = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return):
            returns.append(node.value)
        elif isinstance(node, ast.Raise):
            raises = True
        stack.extend(ast.iter_child_nodes(node))
    if not returns:
        return not raises  # falls off the end: always None
    honest = [v for v in returns if not (isinstance(v, ast.Name) and v.id == "NotImplemented")]
    return bool(honest) and all(v is None or _is_const(v) for v in honest)


# -- token normalisation --------------------------------------------------------------------------
# One scan of the whole text with one master pattern (the tokenize module is pure Python before
# 3.12 and costs more than the parse). Every alternative is unambiguous (each character has one
# way in), so no input makes it backtrack.

# Literals in the unrolled form normal*(special normal*)*: a quote or backslash is never in
# `normal`, so each character has one way in and an unterminated literal fails in linear time.
_SQ3 = "'''[^'\\\\]*(?:(?:\\\\.|'(?!''))[^'\\\\]*)*'''"
_DQ3 = '"""[^"\\\\]*(?:(?:\\\\.|"(?!""))[^"\\\\]*)*"""'
_SQ1 = "'[^'\\\\\\n]*(?:\\\\.[^'\\\\\\n]*)*'"
_DQ1 = '"[^"\\\\\\n]*(?:\\\\.[^"\\\\\\n]*)*"'
_TOKEN = re.compile(
    r"[ \t\f]*(?:(?:\\\n|#[^\n]*)[ \t\f]*)*"  # what separates tokens: blanks, joined lines, a comment
    r"(?:(?P<name>(?![rRbBuUfFtT]{1,2}['\"])[^\W\d]\w*)"  # names first, the most common; a literal's prefix is not one
    r"|(?P<op>\*\*=|//=|>>=|<<=|->|:=|[-+*/%&|^@<>=!]=|\*\*|//|<<|>>|[-+*%&|^~<>()\[\]{},:;@=!/]|\.(?![\d.])|\.\.\.)"
    r"|(?P<newline>\n)"
    r"|(?P<string>(?:[rRbBuUfFtT]{1,2})?(?:" + "|".join((_SQ3, _DQ3, _SQ1, _DQ1)) + r"))"
    r"|(?P<number>0[xXoObB]\w+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d[\d_]*)?[jJ]?)"
    r"|(?P<other>.)"
    r"|(?P<end>\Z))",
    re.DOTALL,
)

_WORD = "w"
_STR = "s"
_OP = "o"
_OTHER = "x"
_KINDS = {"string": _STR, "number": _WORD, "name": _WORD, "op": _OP, "other": _OTHER}
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_OPENERS.values())


def _quote(value):
    if isinstance(value, bytes):
        return "b" + _quote(value.decode("latin-1"))
    return '"%s"' % (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                     .replace("\r", "\\r").replace("\t", "\\t"))


def _prefix(text):
    i = 0
    while i < len(text) and text[i] not in "'\"":
        i += 1
    return text[:i].lower()


def _strings(run):
    """One item per maximal run of adjacent plain literals, their values joined and re-quoted."""
    out = []
    group = []

    def flush():
        if len(group) == 1:
            out.append((_STR, group[0], None))
        elif group:
            try:
                values = [ast.literal_eval(t) for t in group]
                joined = values[0][:0].join(values)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                out.extend((_STR, t, None) for t in group)
            else:
                out.append((_STR, _quote(joined), joined))
        del group[:]

    for text in run:
        prefix = _prefix(text)
        if "f" in prefix or "t" in prefix:
            flush()
            out.append((_STR, text, None))
        else:
            group.append(text)
    flush()
    return out


def _value(item):
    """The str value of a literal item, or None."""
    kind, text, value = item
    if kind != _STR:
        return None
    if value is None:
        prefix = _prefix(text)
        if "f" in prefix or "b" in prefix or "t" in prefix:
            return None
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    return value if isinstance(value, str) else None


def _rewrite(items, lo, hi, match):
    """getattr(X, "name"[, default]) as X.name and setattr(X, "name", v) as X.name=v, inner calls first."""
    out = []
    i = lo
    while i < hi:
        item = items[i]
        opener = i + 1
        if item[0] == _WORD and item[1] in ("getattr", "setattr") and opener < hi and items[opener][1] == "(" \
                and match.get(opener, hi) < hi and not (out and out[-1][1] in (".", "def")):
            close = match[opener]
            args = [_rewrite(items, a, b, match) for a, b in _split_args(items, opener + 1, close, match)]
            name = _value(args[1][0]) if len(args) > 1 and len(args[1]) == 1 else None
            if name is not None and name.isidentifier() and args[0] and (
                    (item[1] == "getattr" and len(args) in (2, 3)) or (item[1] == "setattr" and len(args) == 3)):
                out.extend(args[0])
                out.append((_OP, ".", None))
                out.append((_WORD, name, None))
                if item[1] == "setattr":
                    out.append((_OP, "=", None))
                    out.extend(args[2])
            else:
                out.append(item)
                out.append(items[opener])
                for n, arg in enumerate(args):
                    if n:
                        out.append((_OP, ",", None))
                    out.extend(arg)
                out.append(items[close])
            i = close + 1
        else:
            out.append(item)
            i += 1
    return out


def _split_args(items, lo, hi, match):
    spans = []
    start = k = lo
    while k < hi:
        text = items[k][1]
        if text in _OPENERS and k in match:
            k = match[k] + 1
            continue
        if text == ",":
            spans.append((start, k))
            start = k + 1
        k += 1
    if start < hi or spans:
        spans.append((start, hi))
    return spans


def _render(items):
    parts = []
    prev = None
    for kind, text, _ in items:
        # A space only where two words would otherwise run together (a prefixed literal is a word here).
        if prev == _WORD and (kind == _WORD or (kind == _STR and text[:1].isalpha())):
            parts.append(" ")
        parts.append(text)
        prev = kind
    return "".join(parts)


def _logical(items):
    """The text of one logical line: adjacent plain literals joined, getattr/setattr rewritten."""
    joined = []
    run = []
    for item in items:
        if item[0] == _STR:
            run.append(item[1])
            continue
        if run:
            joined.extend(_strings(run))
            run = []
        joined.append(item)
    if run:
        joined.extend(_strings(run))
    if any(item[0] == _WORD and item[1] in ("getattr", "setattr") for item in joined):
        match = {}
        stack = []
        for n, item in enumerate(joined):
            if item[0] != _OP:
                continue
            if item[1] in _OPENERS:
                stack.append(n)
            elif item[1] in _CLOSERS and stack and _OPENERS[joined[stack[-1]][1]] == item[1]:
                match[stack.pop()] = n
        joined = _rewrite(joined, 0, len(joined), match)
    return _render(joined)


# A physical line that is a whole logical line (brackets balanced, no comment, joined line, tab,
# float edge, triple quote, getattr/setattr) whose literals all close on it and none touches the
# next needs no tokens: split at its literals, squeeze the blanks of the code between them with
# two linear substitutions, and the text is the same. _normalize(..., fast=False) is the token
# path alone, to check that.
_SLOW_LINE = re.compile(r"[#\\\t\f]|\d\.|\.\d|getattr|setattr|'''|" + '"""')
_LITERAL_SPLIT = re.compile("(" + _SQ1 + "|" + _DQ1 + ")")
_PREFIX_ONLY = re.compile(r" *(?:[rRbBuUfFtT]{1,2})?")
_WORD_GAP = re.compile(r"(?<=\w) +(?=\w)")
_OTHER_GAP = re.compile(r"(?<!\w) +| +(?!\w)")


def _squeeze(code):
    """One space between two words, none elsewhere (plain replacement strings keep sub in C)."""
    return _OTHER_GAP.sub("", _WORD_GAP.sub(" ", code)) if " " in code else code


def _fast_line(raw):
    """The normalised text of a line that needs no tokens, else None."""
    if "'" not in raw and '"' not in raw:
        return _squeeze(raw)
    pieces = _LITERAL_SPLIT.split(raw)
    last = len(pieces) - 1
    for i in range(0, last + 1, 2):
        code = pieces[i]
        if "'" in code or '"' in code or (0 < i < last and _PREFIX_ONLY.fullmatch(code)):
            return None  # a literal that does not close here, or two literals side by side
        pieces[i] = _squeeze(code)
    return "".join(pieces)


def _normalize(text, lines, fast=True):
    """[[line, text]] for each logical line whose normalised text differs from the line as written."""
    out = []
    pos = 0
    number = 0
    count = len(lines)
    while number < count:
        line = lines[number]
        number += 1
        raw = line.strip()
        normal = None
        if raw and fast and _SLOW_LINE.search(line) is None and _balanced(line):
            normal = _fast_line(raw)
        if not raw or normal is not None:
            pos += len(line) + 1
            if raw:
                if normal != raw:
                    out.append([number, normal[:MAX_TEXT]])
                    if len(out) >= MAX_LINES:
                        break
            continue
        pos, number, found = _tokens_of_logical_line(text, pos, number, lines)
        if found is not None:
            out.append(found)
            if len(out) >= MAX_LINES:
                break
    return out


def _balanced(line):
    return line.count("(") + line.count("[") + line.count("{") == line.count(")") + line.count("]") + line.count("}")


def _tokens_of_logical_line(text, pos, number, lines):
    """Tokenise from `pos` (the start of line `number`) to the end of its logical line.
    Returns (offset after it, its last line number, [first line, text] or None)."""
    items = []   # (kind, token, value) of the logical line
    parts = []   # its text as written out, while it needs no literal joined and no call rewritten
    kinds = _KINDS
    depth = 0
    first = pos
    prev = None
    rework = False
    for m in _TOKEN.finditer(text, pos):
        group = m.lastgroup
        if group == "newline" or group == "end":
            if depth and group == "newline":
                continue
            end = m.end()
            last = text.count("\n", pos, m.start(group)) + number
            if not items:
                return end, last, None
            start = text.count("\n", pos, first) + number
            normal = "".join(parts)
            if rework:
                try:
                    normal = _logical(items)
                except RecursionError:  # getattr nested past any parseable depth: keep the plain text
                    pass
            normal = normal[:MAX_TEXT]
            if normal == "\n".join(lines[start - 1:last]).strip():
                return end, last, None
            return end, last, [start, normal]
        token = m.group(group)
        kind = kinds[group]
        if not items:
            first = m.start(group)
        if kind == _OP:
            if token in _OPENERS:
                depth += 1
            elif token in _CLOSERS and depth:
                depth -= 1
        elif kind == _WORD:
            if prev == _WORD:
                parts.append(" ")
            if token == "getattr" or token == "setattr":
                rework = True
        elif kind == _STR:
            if prev == _STR:
                rework = True
            elif prev == _WORD and token[:1].isalpha():
                parts.append(" ")
        parts.append(token)
        items.append((kind, token, None))
        prev = kind
    return len(text) + 1, len(lines), None


def _screen_file(path, data):
    findings = []
    text, problem = _decode(data)
    if problem is not None:
        findings.append(_finding(path, problem[0], 1, "coding-cookie", problem[1]))
    if text is None:
        text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
        return findings, _normalize(text, text.split("\n"))
    state = _File(path, text)
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        tree = None
    if tree is not None:
        state.walk(tree)
        state.finish()
        findings.extend(state.findings)
    return findings, _normalize(text, state.lines)


def screen(files, allow):
    """files: list of (relative_path: str, data: bytes); allow: iterable of primitive ids the packet allows.
    Returns {"findings": [ {"file": str, "line": int, "col": int, "primitive": str, "detail": str} ... ],
             "normalized": {relative_path: [[line, text], ...]} }"""
    allowed = set(allow or ())
    findings = {}
    normalized = {}
    for path, data in files:
        found, normal = _screen_file(path, bytes(data))
        normalized[path] = normal
        for f in found:
            if f["primitive"] in allowed:
                continue
            key = (f["file"], f["line"], f["col"], f["primitive"])
            if key not in findings or f["detail"] < findings[key]["detail"]:
                findings[key] = f
    return {"findings": [findings[k] for k in sorted(findings)], "normalized": normalized}


def _main():
    import base64
    import json
    import sys

    request = json.loads(sys.stdin.read())

    def one(req):
        files = [(path, base64.b64decode(data)) for path, data in req.get("files", [])]
        return screen(files, req.get("allow", []))

    result = [one(r) for r in request] if isinstance(request, list) else one(request)
    sys.stdout.write(json.dumps(result, ensure_ascii=False, sort_keys=True))
    sys.stdout.write("\n")


if __name__ == "__main__":
    _main()
