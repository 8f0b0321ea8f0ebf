# The kit's trusted test harness. It is the test command of every judged run: it starts the
# interpreter (no user site, the sandbox's cleared environment), installs an audit hook before any candidate code is imported,
# screens the candidate's files, loads the packet's test modules from the sources the kit hands
# it (held-out tests and canaries never touch the disk), runs each test itself, checks between
# tests that the test machinery is the one it captured at start, and writes one record per
# event to a private pipe, each line sealed with an HMAC under a per-run key the kit never
# exposes. The judge reads that record and nothing the tests print.
#
# Everything lives in the locals and closures of `_harness`: no module global holds a reference
# a candidate could follow. Every primitive used after candidate code has run (write, the MAC,
# the JSON encoding, the clock, isinstance, ...) is captured before it runs, so a patched module
# attribute or builtin cannot reach the record.
#
# Started by a bootstrap (`python3 -s -B -c ...`) that reads this file, the screen, the manifest
# and the key from pipes named in PACKET_KIT_FDS and calls `_harness(manifest, key, record_fd,
# screen_source)`.


def _harness(manifest, key, record_fd, screen_source):
    import _hashlib
    import _json
    import _thread
    import builtins
    import importlib
    import importlib.util
    import os
    import sys
    import time
    import types
    import unittest
    import unittest.case
    import unittest.loader
    import unittest.result
    import unittest.suite
    import unittest.util
    import contextlib
    import traceback

    # Primitives captured before any candidate code runs.
    _write = os.write
    _close = os.close
    _exit = os._exit
    _clock = time.perf_counter
    _encode_str = _json.encode_basestring_ascii
    _get_ident = _thread.get_ident
    _getframe = sys._getframe
    _isinstance = isinstance
    _issubclass = issubclass
    _type = type
    _len = len
    _str = str
    _repr = repr
    _int = int
    _float = float
    _bool = bool
    _dict = dict
    _list = list
    _tuple = tuple
    _sorted = sorted
    _getattr = getattr
    _hasattr = hasattr
    _dir = dir
    _id = id
    _callable = callable
    _exec = exec
    _compile = compile
    _BaseException = BaseException
    _Exception = Exception
    _KeyboardInterrupt = KeyboardInterrupt
    _AssertionError = AssertionError
    _SkipTest = unittest.case.SkipTest
    _TestCase = unittest.case.TestCase
    _FunctionType = types.FunctionType
    _CoroutineType = types.CoroutineType
    _fspath_str = str.__str__
    _gettrace = sys.gettrace
    _getprofile = sys.getprofile
    _sys_meta_path = sys.meta_path
    _sys_path_hooks = sys.path_hooks
    import pathlib
    _PATH_TYPES = (pathlib.PurePath,)
    _PathStr = pathlib.PurePath.__str__
    _DirEntry = _type(next(iter(os.scandir('/')), None)) if os.path.isdir('/') else None
    _module_cleanups = unittest.case.doModuleCleanups
    _CodeType = types.CodeType
    _ModuleType = types.ModuleType
    _format_exception_only = traceback.format_exception_only
    _format_exception = traceback.format_exception
    _contextmanager = contextlib.contextmanager
    _round = round
    _setattr = setattr
    _memoryview = memoryview
    _RuntimeError = RuntimeError
    _bytes = bytes
    _set = set
    _object = object
    _open = open
    _OSError = OSError
    _realpath = os.path.realpath
    _tc_init = _TestCase.__dict__['__init__']
    _tc_classmethods = {k: _TestCase.__dict__[k] for k in ('setUpClass', 'tearDownClass', 'doClassCleanups')}
    bottom = _getframe(1)
    _spec_from_loader = importlib.util.spec_from_loader
    _module_from_spec = importlib.util.module_from_spec
    _import_module = importlib.import_module
    _modules = sys.modules
    _MISSING = _object()

    mac = _hashlib.hmac_new(key, digestmod='sha256')
    key = None
    os.set_inheritable(record_fd, False)
    seq = [0]
    closed = [False]
    MESSAGE_CAP = 2000

    def cap(text, limit=MESSAGE_CAP):
        text = _str(text)
        return text if _len(text) <= limit else text[:limit] + ' [... cut by the harness]'

    def encode(value):
        t = _type(value)
        if value is None:
            return 'null'
        if t is _bool:
            return 'true' if value else 'false'
        if t is _int:
            return _int.__repr__(value)
        if t is _float:
            return _float.__repr__(value)
        if t is _str:
            return _encode_str(value)
        if t is _list or t is _tuple:
            return '[' + ','.join([encode(v) for v in value]) + ']'
        if t is _dict:
            return '{' + ','.join([_encode_str(_str.__str__(k)) + ':' + encode(v) for k, v in value.items()]) + '}'
        return '"<unencodable>"'

    def send(kind, payload):
        if closed[0] is not False or _type(seq[0]) is not _int:
            return
        payload = _dict(payload)
        payload['seq'] = seq[0]
        payload['kind'] = kind
        body = encode(payload).encode('ascii')
        tag = mac.copy()
        tag.update(body)
        data = body + b' ' + tag.hexdigest().encode('ascii') + b'\n'
        seq[0] += 1
        view = _memoryview(data)
        try:
            while _len(view):
                n = _write(record_fd, view)
                view = view[n:]
        except _BaseException:
            closed[0] = True

    # ---- where code comes from ------------------------------------------------------------
    workspace = os.getcwd()
    prefix = workspace.rstrip('/') + '/'
    harness_file = '/packet-kit/harness.py'
    # The manifest's parts as the harness's own values, read before any candidate code runs.
    test_specs = _tuple(_dict(t) for t in manifest['tests'])
    test_count = _len(test_specs)
    protected = _set(prefix + p for p in manifest['protected'])
    test_files = _set(prefix + t['file'] for t in test_specs)
    trusted_files = protected | test_files | {harness_file}
    # The test modules (visible and held out): code under test that opens one reads what the tests
    # expect (a variant's value, an expected output) instead of doing the task. The packet's other
    # protected files (a module the code runs, a fixture it is handed) stay its to read.
    test_sources = test_files
    roots = _set()
    for r in _list(sys.path) + [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]:
        if not r or r.startswith(prefix) or r in ('/', '/tmp', '/dev/shm') or r.startswith('/tmp/') or r.startswith('/dev/shm/'):
            continue
        for form in (r, _realpath(r)):
            roots.add(form.rstrip('/') + '/')
    system_roots = _tuple(_sorted(roots))

    def untrusted(filename):
        """True for code the packet did not write and the interpreter did not ship."""
        if filename in trusted_files:
            return False
        if filename.startswith('<frozen '):
            return False
        if filename.startswith(prefix) or filename.startswith('<'):
            return True
        for root in system_roots:
            if filename.startswith(root):
                return False
        return True

    def place(frame):
        code = frame.f_code
        name = code.co_filename
        rel = name[_len(prefix):] if name.startswith(prefix) else name
        return rel, frame.f_lineno

    # ---- the audit hook: introspection is evidence ---------------------------------------
    TRAMPOLINES = {
        ('inspect.py', 'currentframe'),
        ('inspect.py', 'stack'),
        ('inspect.py', 'trace'),
        ('inspect.py', 'getouterframes'),
        ('__init__.py', '<lambda>'),
        ('traceback.py', 'walk_stack'),
        ('traceback.py', 'walk_tb'),
    }
    ALWAYS = frozenset({
        'sys._current_frames', 'gc.get_objects', 'gc.get_referrers', 'gc.get_referents',
        'sys.settrace', 'sys.setprofile', 'sys.addaudithook', 'sys._getframemodulename',
    })
    # Refused when code under test makes the call itself; the standard library makes them for its
    # own work (asyncio's types.coroutine replaces a code object at import, multiprocessing forks).
    DIRECT = frozenset({'function.__new__', 'code.__new__', 'code.replace', 'os.fork', 'os.forkpty'})
    GETATTR = frozenset({'tb_frame', 'gi_frame', 'cr_frame', 'ag_frame', '__code__', 'f_back', 'f_code', 'gi_code'})
    # The standard library's modules that read frames and code objects for their own work (tracebacks,
    # logging's caller, warnings, the test runners); any other module that reads one while code under
    # test is on the stack (string.Formatter.get_field, a getattr by name) hands the candidate a frame.
    FRAME_READERS = ('/traceback.py', '/linecache.py', '/logging/__init__.py', '/warnings.py', '/types.py',
                     '/unittest/case.py', '/unittest/result.py', '/unittest/mock.py', '/asyncio/')
    HANDS_OUT = frozenset({('traceback.py', 'walk_tb'), ('traceback.py', 'walk_stack'), ('base_tasks.py', '_task_get_stack')})
    FRAMES = frozenset({'tb_frame', 'gi_frame', 'cr_frame', 'ag_frame', 'f_back'})
    SETATTR = frozenset({'__code__', '__class__', '__bases__', '__globals__', '__closure__'})
    # Paths into the process's own memory and descriptors, whoever opens them (pathlib, io, os, a
    # dir_fd: a leaf named like one is refused wherever it is), and /proc but for a few plain files.
    PATH_EVENTS = frozenset({'open', 'os.listdir', 'os.scandir', 'os.chdir', 'os.symlink', 'os.link', 'os.rename', 'shutil.copyfile', 'os.truncate'})
    PROC_LEAVES = frozenset({'mem', 'pagemap', 'map_files', 'kcore'})
    PROC_ALLOWED = frozenset({'/proc/cpuinfo', '/proc/meminfo', '/proc/stat', '/proc/loadavg', '/proc/uptime', '/proc/version'})
    # A tuple compared by identity: `kind in a_set` would hash the type, running a metaclass's
    # __hash__ of the code's own inside the hook.
    PATH_CLASSES = (pathlib.PurePath, pathlib.PurePosixPath, pathlib.Path, pathlib.PosixPath)
    WATCHED = ALWAYS | DIRECT | PATH_EVENTS | {'sys._getframe', 'object.__getattr__', 'object.__setattr__', 'exec', 'compile'}
    armed = [False]
    inside = _dict()
    blocked = []

    def refuse(event, frame, detail):
        # Name the candidate's own line: the first frame of code under test at or above the one that asked.
        walker = frame
        depth = 0
        while walker is not None and walker is not bottom and depth < 64 and not untrusted(walker.f_code.co_filename):
            walker = walker.f_back
            depth += 1
        if walker is not None and walker is not bottom and depth < 64:
            frame = walker
        rel, line = place(frame)
        blocked.append((event, rel, line))
        send('audit', {'event': event, 'file': rel, 'line': line, 'detail': cap(detail, 300), 'test': current[0]})
        raise _RuntimeError('packet-kit harness: %s is not allowed in code under test (%s:%d)' % (event, rel, line))

    def known_path_class(kind):
        for klass in PATH_CLASSES:
            if kind is klass:
                return True
        return False

    def judge_event(event, args, ident):
        # State 3 while the hook reads the culprit's frame itself: C-level reads, in which no code
        # of the candidate's can run, so the events they raise need no judging.
        inside[ident] = 3
        frame = _getframe(2)
        filename = frame.f_code.co_filename
        inside[ident] = 1
        if event in PATH_EVENTS:
            path = args[0] if args else None
            kind = _type(path)
            if kind is _int or path is None:
                return
            if kind is _bytes:
                path = _bytes.decode(path, 'utf-8', 'replace')
            elif kind is _str:
                pass
            elif _DirEntry is not None and kind is _DirEntry:
                path = path.path
            elif known_path_class(kind):
                path = _PathStr(path)
            else:
                # A path object of the code's own: reading it would run its code inside the hook.
                refuse(event, frame, 'a path object the harness cannot read without running it')
            if _type(path) is not _str:
                refuse(event, frame, 'a path that is not text')
            bad = any(p in PROC_LEAVES for p in path.split('/'))
            real = None
            if not bad and not (path.startswith('/') and path.startswith(system_roots)):
                real = _realpath(path)
                bad = real == '/proc' or (real.startswith('/proc/') and real not in PROC_ALLOWED)
                # A test source opened (read, or imported) while code under test is on the stack.
                bad = bad or (event == 'open' and real in test_sources)
            if not bad:
                return
            # The test's own code may look at /proc (a test of leaked descriptors) and import its
            # helpers; code under test, directly or through the standard library, may do neither.
            walker = frame
            depth = 0
            while walker is not None and walker is not bottom and depth < 64:
                if untrusted(walker.f_code.co_filename):
                    refuse(event, walker, path)
                walker = walker.f_back
                depth += 1
            return
        if event == 'object.__getattr__' or event == 'object.__setattr__':
            # Anyone may call sys.audit: a name that is not exact text (a str subclass's __hash__
            # or __eq__ would run inside the hook) is not the interpreter's.
            if _len(args) < 2 or _type(args[1]) is not _str:
                refuse(event, frame, 'an audit event the interpreter did not raise')
        if event == 'object.__getattr__':
            if args[1] not in GETATTR:
                return
            if untrusted(filename):
                refuse('reading .%s' % args[1], frame, 'an interpreter object')
            code = frame.f_code
            if (code.co_filename.rsplit('/', 1)[-1], code.co_name) in HANDS_OUT:
                # A generator that yields frames: whoever iterates it gets them.
                if frame.f_back is not None and untrusted(frame.f_back.f_code.co_filename):
                    refuse('reading .%s' % args[1], frame.f_back, 'frames through %s' % code.co_name)
                return
            if filename == harness_file or filename in trusted_files or args[1] not in FRAMES:
                return
            for reader in FRAME_READERS:
                if reader in filename:
                    return
            walker = frame.f_back
            depth = 0
            while walker is not None and walker is not bottom and depth < 64:
                if untrusted(walker.f_code.co_filename):
                    refuse('reading .%s' % args[1], walker, 'through %s' % filename.rsplit('/', 1)[-1])
                walker = walker.f_back
                depth += 1
            return
        if event == 'object.__setattr__':
            if args[1] in SETATTR and untrusted(filename):
                refuse('setting .%s' % args[1], frame, 'an interpreter object')
            return
        if event == 'exec' or event == 'compile':
            if untrusted(filename):
                refuse(event, frame, 'dynamic code')
            return
        if event in DIRECT:
            if untrusted(filename):
                refuse(event, frame, 'called from code under test')
            return
        if event == 'sys._getframe':
            if untrusted(filename):
                refuse(event, frame, 'a frame object')
            code = frame.f_code
            base = code.co_filename.rsplit('/', 1)[-1]
            if (base, code.co_name) in TRAMPOLINES and frame.f_back is not None and untrusted(frame.f_back.f_code.co_filename):
                refuse(event, frame.f_back, 'a frame object through %s' % code.co_name)
            return
        if event in ALWAYS:
            # Stack walks and tracers are refused whoever asks, once candidate code is loaded,
            # except the harness's own.
            walker = frame
            depth = 0
            while walker is not None and walker is not bottom and depth < 64:
                if untrusted(walker.f_code.co_filename):
                    refuse(event, walker, 'called from code under test')
                walker = walker.f_back
                depth += 1
            return
        if event.startswith('ctypes.'):
            refuse(event, frame, 'ctypes')

    def hook(event, args):
        if not armed[0]:
            return
        if _type(event) is not _str:
            # sys.audit takes a str subclass: its own __hash__ and __eq__ must not run in here.
            event = _str.__str__(event)
        if event not in WATCHED and not event.startswith('ctypes.'):
            return
        ident = _get_ident()
        state = inside.get(ident)
        if state:
            # An event raised while the hook is judging another: the harness's own reads (its
            # _getframe, f_back) are fine; anything else is foreign code that ran inside the hook
            # (a __hash__, __eq__ or __fspath__ of the code's own), which must not go unjudged.
            if state >= 2:
                return
            inside[ident] = 2
            try:
                frame = _getframe(1)
                if frame.f_code.co_filename != harness_file:
                    refuse(event, frame, 'code under test ran inside the audit hook')
            finally:
                inside[ident] = state
            return
        inside[ident] = 1
        try:
            judge_event(event, args, ident)
        finally:
            inside[ident] = 0

    # TestCase's methods, rebuilt over frozen copies of unittest.case's and unittest.util's globals
    # (and of builtins): a later patch of a module global or a builtin, even one that undoes
    # itself, does not reach the assertions the tests call.
    frozen_builtins = _dict(builtins.__dict__)

    def freeze(module):
        g = _dict(module.__dict__)
        g['__builtins__'] = frozen_builtins
        return g

    case_globals = freeze(unittest.case)
    util_globals = freeze(unittest.util)

    def rebuilt(f, g):
        new = _FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)
        new.__kwdefaults__ = f.__kwdefaults__
        new.__qualname__ = f.__qualname__
        new.__dict__.update(f.__dict__)
        return new

    for g, home in ((util_globals, unittest.util), (case_globals, unittest.case)):
        for k, v in _list(g.items()):
            if _type(v) is _FunctionType and _getattr(v, '__module__', None) in ('unittest.util', 'unittest.case'):
                g[k] = rebuilt(v, util_globals if v.__module__ == 'unittest.util' else case_globals)
    frozen_testcase = {k: rebuilt(v, case_globals) for k, v in _TestCase.__dict__.items() if _type(v) is _FunctionType}

    sys.addaudithook(hook)

    # ---- the integrity of the test machinery ---------------------------------------------
    def code_of(value):
        if _type(value) is _FunctionType:
            return value.__code__
        inner = _getattr(value, '__func__', None)
        if _type(inner) is _FunctionType:
            return inner.__code__
        return None

    class Namespace:
        def __init__(self, label, mapping, methods_only=False, report_added=False):
            self.report_added = report_added
            self.label = label
            self.mapping = mapping
            self.methods_only = methods_only
            # Identity is enough: a function's code replaced in place raises an audit event the hook refuses.
            self.saved = {k: (v, None) for k, v in _list(mapping.items()) if not methods_only or code_of(v) is not None}

        def changes(self):
            out = []
            now = self.mapping
            for k, (v, _code) in self.saved.items():
                cur = now.get(k, _MISSING)
                if cur is _MISSING:
                    out.append('%s.%s was deleted' % (self.label, k))
                elif cur is not v:
                    out.append('%s.%s was replaced' % (self.label, k))
            if self.report_added:
                for k in now:
                    if k not in self.saved:
                        out.append('%s.%s was added' % (self.label, k))
            return out

    watched = []

    def watch_module(mod):
        watched.append(Namespace(mod.__name__, mod.__dict__))
        for name, value in _list(mod.__dict__.items()):
            if _isinstance(value, _type) and _getattr(value, '__module__', None) == mod.__name__:
                watched.append(Namespace('%s.%s' % (mod.__name__, name), value.__dict__, report_added=True))

    for mod in (unittest, unittest.case, unittest.result, unittest.suite, unittest.loader, unittest.util, contextlib, traceback, types):
        watch_module(mod)
    watched.append(Namespace('builtins', builtins.__dict__))
    sys_saved = {name: _getattr(sys, name, None) for name in ('stdout', 'stderr', 'stdin', '__stdout__', '__stderr__', 'excepthook', 'displayhook', 'unraisablehook', 'breakpointhook', 'meta_path', 'path_hooks')}
    meta_saved = _list(sys.meta_path)
    hooks_saved = _list(sys.path_hooks)

    def hook_is_trusted(entry):
        # An import hook counts as the standard library's when the code of its class is (its
        # __module__ is the class's own word and proves nothing).
        for klass in _type(entry).__mro__:
            for value in _list(klass.__dict__.values()):
                code = code_of(value)
                if code is not None:
                    return not untrusted(code.co_filename)
        return _type(entry) in (_type(x) for x in meta_saved + hooks_saved)

    def integrity(where):
        problems = []
        for ns in watched:
            problems.extend(ns.changes())
        for name, value in sys_saved.items():
            if name in ('stdout', 'stderr', 'stdin'):
                continue  # redirect_stdout in a test is fine; the screen names candidate code that does it
            if _getattr(sys, name, None) is not value:
                problems.append('sys.%s was replaced' % name)
        for label, now, saved in (('sys.meta_path', _sys_meta_path, meta_saved), ('sys.path_hooks', _sys_path_hooks, hooks_saved)):
            for entry in _list(now):
                if any(entry is known for known in saved):
                    continue
                if not hook_is_trusted(entry):
                    problems.append('%s holds an import hook from code under test' % label)
        if _gettrace() is not None:
            problems.append('a trace function is set')
        if _getprofile() is not None:
            problems.append('a profile function is set')
        if problems:
            send('integrity', {'where': where, 'problems': problems[:50]})
            # Put the machinery back, so one tampered test does not decide the next.
            for ns in watched:
                for k, (v, _code) in ns.saved.items():
                    try:
                        if ns.mapping.get(k, _MISSING) is not v:
                            if _isinstance(ns.mapping, _dict):
                                ns.mapping[k] = v
                            else:
                                _type.__setattr__(owner_of(ns), k, v)
                    except _BaseException:
                        pass
        return problems

    owners = _dict()

    def owner_of(ns):
        return owners.get(_id(ns))

    for ns in watched:
        if not _isinstance(ns.mapping, _dict):
            # A class's mappingproxy: find the class again to restore through type.__setattr__.
            label = ns.label.rsplit('.', 1)
            mod = _modules.get(label[0])
            if mod is not None:
                owners[_id(ns)] = _getattr(mod, label[1], None)

    # ---- start --------------------------------------------------------------------------
    current = [None]
    send('hello', {'python': sys.version.split()[0], 'pid': os.getpid(), 'style': manifest['style']})

    screen_files = []
    for rel in manifest['screen']['files']:
        try:
            with _open(prefix + rel, 'rb') as fh:
                screen_files.append((rel, fh.read(1024 * 1024 * 4)))
        except _OSError as err:
            send('screen-error', {'file': rel, 'error': cap(err, 300)})
    screen_ns = {'__name__': '__packet_kit_screen__'}
    try:
        _exec(screen_source if _type(screen_source) is _CodeType else _compile(screen_source, '/packet-kit/screen.py', 'exec'), screen_ns)
        result = screen_ns['screen'](screen_files, manifest['screen'].get('allow', []))
        send('screen', {'findings': result['findings'][:500], 'normalized': result.get('normalized', {})})
    except _BaseException as err:
        send('screen-error', {'file': '', 'error': cap(''.join(_format_exception_only(_type(err), err)), 500)})
    screen_ns = None

    top = prefix + manifest.get('top', '.').strip('/') if manifest.get('top', '.') not in ('', '.') else workspace
    if top not in sys.path:
        sys.path.insert(0, top)
    os.environ.pop('PACKET_KIT_FDS', None)

    if manifest['style'] == 'pytest':
        armed[0] = True
        failed = run_pytest(manifest, send, integrity, cap, current)
        send('done', {'tests': seq[0]})
        closed[0] = True
        return 1 if failed or blocked else 0

    # ---- collect: every TestCase subclass in a module, every test method, and its marks ----
    seen = _set()
    cases = []
    marks_of = _dict()

    def mark(obj, name):
        # Only the packet's decorators set these, and they set exactly True.
        return _getattr(obj, name, False) is True

    def marks(cls, method):
        fn = None
        for klass in cls.__mro__:
            if method in klass.__dict__:
                fn = klass.__dict__[method]
                break
        expecting = mark(fn, '__unittest_expecting_failure__') or mark(cls, '__unittest_expecting_failure__')
        skip = mark(cls, '__unittest_skip__') or mark(fn, '__unittest_skip__')
        why = ''
        if skip:
            why = _getattr(cls, '__unittest_skip_why__', '') if mark(cls, '__unittest_skip__') else _getattr(fn, '__unittest_skip_why__', '')
            why = cap(why if _type(why) is _str else '', 300)
        return (expecting, skip, why)

    def collect(t, mod):
        names = _sorted(k for k in _list(mod.__dict__) if _type(k) is _str)
        for attr in names:
            cls = mod.__dict__.get(attr)
            if not _isinstance(cls, _type) or not _issubclass(cls, _TestCase) or cls is _TestCase:
                continue
            methods = _sorted(n for n in _dir(cls) if n.startswith('test') and _callable(_getattr(cls, n, None)))
            for m in methods:
                tid = '%s.%s.%s' % (cls.__module__, cls.__qualname__, m)
                if tid in seen:
                    continue
                seen.add(tid)
                marks_of[tid] = marks(cls, m)
                cases.append((t, mod, cls, m, tid))

    # ---- load the test modules from the kit's sources ------------------------------------
    armed[0] = True
    modules = []
    for t in test_specs:
        name = t['module']
        path = prefix + t['file']
        current[0] = t['file']
        t0 = _clock()
        try:
            if '.' in name:
                _import_module(name.rsplit('.', 1)[0])
            spec = _spec_from_loader(name, loader=None, origin=path)
            mod = _module_from_spec(spec)
            mod.__file__ = path
            _modules[name] = mod
            if '.' in name:
                parent = _modules.get(name.rsplit('.', 1)[0])
                if parent is not None:
                    _setattr(parent, name.rsplit('.', 1)[1], mod)
            code = _compile(t['source'], path, 'exec', dont_inherit=True)
            _exec(code, mod.__dict__)
            modules.append((t, mod))
            collect(t, mod)
            send('module', {'file': t['file'], 'module': name, 'ok': True, 'ms': _round((_clock() - t0) * 1000, 2)})
        except _BaseException as err:
            _modules.pop(name, None)
            send('module', {'file': t['file'], 'module': name, 'ok': False, 'error': cap(''.join(_format_exception(_type(err), err, err.__traceback__)[-6:]), 1500)})
        current[0] = None
    integrity('loading the test modules')


    # Test classes and their methods, as loaded: a method replaced later is tampering.
    class_watch = _dict()
    for _t, _mod, cls, _m, _tid in cases:
        if _id(cls) not in class_watch:
            class_watch[_id(cls)] = Namespace(cls.__qualname__, cls.__dict__, methods_only=True)
            watched.append(class_watch[_id(cls)])
            owners[_id(class_watch[_id(cls)])] = cls

    tc_functions = {k: v for k, v in frozen_testcase.items() if not (k.startswith('__') and k.endswith('__'))}
    tc_failure = _AssertionError

    def origin_problem(cls, method):
        for klass in cls.__mro__:
            if method in klass.__dict__:
                f = klass.__dict__[method]
                inner = f
                hops = 0
                while hops < 8:
                    code = code_of(inner)
                    if code is not None:
                        break
                    inner = _getattr(inner, '__wrapped__', None)
                    hops += 1
                    if inner is None:
                        return 'is not a function'
                fname = code.co_filename if code is not None else '<unknown>'
                if untrusted(fname):
                    rel = fname[_len(prefix):] if fname.startswith(prefix) else fname
                    return 'runs code from %s, not from the packet\'s test files' % rel
                return None
        return 'has no method %s' % method

    def bind(test, cls):
        # The test sees TestCase's own methods as the harness captured them, whatever the class holds now.
        d = test.__dict__
        for k, v in tc_functions.items():
            for klass in cls.__mro__:
                if k in klass.__dict__:
                    if klass is _TestCase:
                        d[k] = v.__get__(test, cls)
                    break
        for klass in cls.__mro__:
            if 'failureException' in klass.__dict__:
                d['failureException'] = tc_failure if klass is _TestCase else klass.__dict__['failureException']
                break

    def next_in_mro(cls, name):
        for klass in cls.__mro__:
            if name in klass.__dict__:
                return klass
        return None

    def class_call(cls, name):
        owner = next_in_mro(cls, name)
        if owner is _TestCase:
            return _tc_classmethods[name].__get__(None, cls)()
        return _getattr(cls, name)()

    def describe(err, limit=MESSAGE_CAP):
        try:
            return cap(''.join(_format_exception_only(_type(err), err)).strip(), limit)
        except _BaseException:
            return cap(_type(err).__name__, limit)

    class SubTest:
        # The harness's own subTest: a failure inside is counted, the test goes on, and no live
        # contextlib class is between the test and the count.
        def __init__(self, sub, failure, msg, params):
            self.sub = sub
            self.failure = failure
            self.label = '%s %s' % (msg if msg is not None else '', params)

        def __enter__(self):
            return None

        def __exit__(self, kind, err, tb):
            if kind is None:
                return False
            if _issubclass(kind, _SkipTest):
                self.sub['skipped'] += 1
                return True
            if _issubclass(kind, _KeyboardInterrupt):
                return False
            if _issubclass(kind, self.failure):
                self.sub['failed'] += 1
            else:
                self.sub['errors'] += 1
            if self.sub['first'] is None:
                self.sub['first'] = self.label + ': ' + describe(err, 600)
            return True

    def run_one(test, cls, method, marks):
        """One test: setUp, the method, tearDown, cleanups. Returns (outcome, message, subfailed)."""
        failure = test.__dict__.get('failureException', tc_failure)
        sub = {'failed': 0, 'errors': 0, 'skipped': 0, 'first': None}

        test.__dict__['subTest'] = lambda msg=None, **params: SubTest(sub, failure, msg, params)
        test.__dict__['_outcome'] = None
        fn = _getattr(test, method)
        expecting, skip, why = marks
        if skip:
            return 'skipped', why, 0
        outcome, message = 'passed', ''
        in_method = False
        try:
            test.setUp()
        except _SkipTest as err:
            outcome, message = 'skipped', describe(err)
        except _BaseException as err:
            outcome, message = 'error', 'setUp: ' + describe(err)
        if outcome == 'passed':
            try:
                returned = fn()
                if _isinstance(returned, _CoroutineType):
                    returned.close()
                    outcome, message = 'error', 'the test is a coroutine (an async test), which the harness does not run: counted as an error, never a pass'
            except _SkipTest as err:
                outcome, message = 'skipped', describe(err)
            except _BaseException as err:
                outcome, message, in_method = ('failed' if _issubclass(_type(err), failure) else 'error'), describe(err), True
            try:
                test.tearDown()
            except _BaseException as err:
                if outcome == 'passed':
                    outcome, message, in_method = 'error', 'tearDown: ' + describe(err), False
        cleanups = test.__dict__.get('_cleanups')
        while cleanups:
            func, args, kwargs = cleanups.pop()
            try:
                func(*args, **kwargs)
            except _BaseException as err:
                if outcome == 'passed' or outcome == 'skipped':
                    outcome, message, in_method = 'error', 'cleanup: ' + describe(err), False
        if outcome == 'passed' and (sub['failed'] or sub['errors']):
            outcome = 'failed' if sub['failed'] else 'error'
            message = 'subTest %s' % sub['first']
            in_method = True
        if outcome == 'passed' and sub['skipped']:
            outcome, message = 'skipped', 'a subTest was skipped'
        if expecting:
            # Only a failure of the test method itself is the one the mark expects.
            if outcome in ('failed', 'error') and in_method:
                return 'expected-failure', message, sub['failed']
            if outcome == 'passed':
                return 'unexpected-success', '', 0
        return outcome, message, sub['failed'] + sub['errors']

    # ---- run, with class and module fixtures ---------------------------------------------
    class_state = _dict()  # id(cls) -> None | error message
    module_state = _dict()
    finished_classes = _dict()
    remaining = _dict()
    for _t, mod, cls, _m, _tid in cases:
        remaining[_id(cls)] = remaining.get(_id(cls), 0) + 1
        remaining[_id(mod)] = remaining.get(_id(mod), 0) + 1

    results = []
    for t, mod, cls, method, tid in cases:
        current[0] = tid
        t0 = _clock()
        problem = origin_problem(cls, method)
        if problem is not None:
            send('test', {'id': tid, 'file': t['file'], 'outcome': 'error', 'message': 'the test %s' % problem, 'foreign': True, 'ms': 0})
            results.append('error')
            continue
        if _id(mod) not in module_state:
            setup = mod.__dict__.get('setUpModule')
            module_state[_id(mod)] = None
            if setup is not None:
                try:
                    setup()
                except _SkipTest as err:
                    module_state[_id(mod)] = 'skip:' + describe(err)
                except _BaseException as err:
                    module_state[_id(mod)] = 'setUpModule: ' + describe(err)
        if _id(cls) not in class_state:
            class_state[_id(cls)] = module_state[_id(mod)]
            if class_state[_id(cls)] is None and not mark(cls, '__unittest_skip__'):
                try:
                    class_call(cls, 'setUpClass')
                except _SkipTest as err:
                    class_state[_id(cls)] = 'skip:' + describe(err)
                except _BaseException as err:
                    class_state[_id(cls)] = 'setUpClass: ' + describe(err)
                    try:
                        class_call(cls, 'doClassCleanups')
                    except _BaseException:
                        pass
        state = class_state[_id(cls)]
        if state is not None:
            outcome, message, subfailed = ('skipped', state[5:], 0) if state.startswith('skip:') else ('error', state, 0)
        else:
            try:
                test = cls.__new__(cls)
                init = next_in_mro(cls, '__init__')
                if init is _TestCase:
                    _tc_init(test, method)
                else:
                    test.__init__(method)
                bind(test, cls)
                outcome, message, subfailed = run_one(test, cls, method, marks_of[tid])
            except _BaseException as err:
                outcome, message, subfailed = 'error', describe(err), 0
            test = None
        remaining[_id(cls)] -= 1
        if remaining[_id(cls)] == 0 and class_state[_id(cls)] is None:
            try:
                class_call(cls, 'tearDownClass')
            except _BaseException as err:
                if outcome == 'passed':
                    outcome, message = 'error', 'tearDownClass: ' + describe(err)
            try:
                class_call(cls, 'doClassCleanups')
            except _BaseException as err:
                if outcome == 'passed':
                    outcome, message = 'error', 'class cleanup: ' + describe(err)
        remaining[_id(mod)] -= 1
        if remaining[_id(mod)] == 0 and module_state.get(_id(mod)) is None:
            teardown = mod.__dict__.get('tearDownModule')
            if teardown is not None:
                try:
                    teardown()
                except _BaseException as err:
                    if outcome == 'passed':
                        outcome, message = 'error', 'tearDownModule: ' + describe(err)
            try:
                _module_cleanups()
            except _BaseException as err:
                if outcome == 'passed':
                    outcome, message = 'error', 'module cleanup: ' + describe(err)
        tampered = integrity('after %s' % tid)
        results.append(outcome)
        send('test', {
            'id': tid,
            'file': t['file'],
            'outcome': outcome,
            'message': message,
            'subtestsFailed': subfailed,
            'tampered': _bool(tampered),
            'ms': _round((_clock() - t0) * 1000, 2),
        })
    current[0] = None
    failed = _len([1 for r in results if r != 'passed' and r != 'expected-failure']) + test_count - _len(modules)
    send('done', {'tests': _len(cases), 'blocked': _len(blocked)})
    closed[0] = True
    try:
        _close(record_fd)
    except _OSError:
        pass
    return 1 if failed or blocked else 0


def run_pytest(manifest, send, integrity, cap, current):
    """pytest packets: pytest runs in this process, a plugin of the harness records every report."""
    import pytest
    import _pytest
    import pluggy
    outcomes = {}
    red = [0]

    class Recorder:
        def pytest_runtest_logreport(self, report):
            current[0] = report.nodeid
            entry = outcomes.setdefault(report.nodeid, {'outcome': 'passed', 'message': ''})
            if report.failed:
                entry['outcome'] = 'failed' if report.when == 'call' else 'error'
                entry['message'] = cap(_short(report.longreprtext), 1500)
            elif report.skipped and entry['outcome'] == 'passed':
                entry['outcome'] = 'expected-failure' if hasattr(report, 'wasxfail') else 'skipped'
            if report.when == 'teardown':
                if entry['outcome'] not in ('passed', 'expected-failure'):
                    red[0] += 1
                problems = integrity('after %s' % report.nodeid)
                send('test', {'id': report.nodeid, 'file': report.nodeid.split('::', 1)[0], 'outcome': entry['outcome'], 'message': entry['message'], 'tampered': bool(problems), 'ms': round(report.duration * 1000, 2)})

        def pytest_collectreport(self, report):
            if report.failed:
                send('module', {'file': report.nodeid, 'module': report.nodeid, 'ok': False, 'error': cap(_short(report.longreprtext), 1500)})

    args = ['-q', '-p', 'no:cacheprovider', '-p', 'no:randomly'] + list(manifest.get('pytestArgs', []))
    code = pytest.main(args, plugins=[Recorder()])
    current[0] = None
    return red[0] or (1 if code not in (0, 5) else 0)


def _short(text):
    lines = str(text).strip().splitlines()
    return '\n'.join(lines[-8:])
