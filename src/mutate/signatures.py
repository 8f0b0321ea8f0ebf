"""Read, without running them, the def lines of a packet's sources and of proposed mutants, and
the names the test files import from those sources.

Input: contract-input.json in the working directory,
    {"sources": {path: text}, "tests": {path: text}, "mutants": [{"path": ..., "code": ...}]}
Output on stdout, one JSON object:
    {"imports": {source path: [names]},
     "sample": {source path: {"defs": {name: signature}} or {"error": why}},
     "mutants": [{"defs": {...}} or {"error": why}, ...]}

A signature is the shape a caller depends on: async or not, the parameter names and kinds in
order, which ones have a default, *args and **kwargs, and the staticmethod / classmethod /
property decorators. Default values and annotations are left out: a changed default is a change
of behaviour, not of the contract. Only ast.parse is used; nothing is imported or executed.
"""
import ast
import json
import sys

CALL_DECORATORS = {"staticmethod", "classmethod", "property"}


def decorator_names(fn):
    names = []
    for d in fn.decorator_list:
        if isinstance(d, ast.Name) and d.id in CALL_DECORATORS:
            names.append(d.id)
        elif isinstance(d, ast.Attribute) and d.attr in ("setter", "getter", "deleter"):
            names.append(d.attr)
    return names


def signature(fn):
    a = fn.args
    positional = [p.arg for p in a.posonlyargs] + [p.arg for p in a.args]
    first_default = len(positional) - len(a.defaults)
    parts = []
    for i, name in enumerate(positional):
        parts.append(name + ("=..." if i >= first_default else ""))
        if a.posonlyargs and i == len(a.posonlyargs) - 1:
            parts.append("/")
    if a.vararg:
        parts.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        parts.append("*")
    for p, default in zip(a.kwonlyargs, a.kw_defaults):
        parts.append(p.arg + ("=..." if default is not None else ""))
    if a.kwarg:
        parts.append("**" + a.kwarg.arg)
    prefix = "async def" if isinstance(fn, ast.AsyncFunctionDef) else "def"
    decorators = "".join("@" + d + " " for d in decorator_names(fn))
    return f"{decorators}{prefix} {fn.name}({', '.join(parts)})"


def definitions(text):
    """Top-level functions and classes, and the methods of each class."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", None)
        where = f" (line {line})" if line else ""
        return {"error": f"{type(exc).__name__}: {getattr(exc, 'msg', exc)}{where}"}
    defs = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[node.name] = signature(node)
        elif isinstance(node, ast.ClassDef):
            defs[node.name] = "class " + node.name
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defs[f"{node.name}.{item.name}"] = signature(item)
    return {"defs": defs}


def module_name(path):
    name = path[: -len(".py")] if path.endswith(".py") else path
    if name.endswith("/__init__"):
        name = name[: -len("/__init__")]
    return name.replace("/", ".")


def dotted(node):
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def imported_names(tests, modules):
    """Names each source module gives the test files: `from m import a`, and `m.a` after `import m`."""
    used = {path: set() for path in modules.values()}
    for path, text in tests.items():
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        package = module_name(path).split(".")[:-1]
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package[: len(package) - (node.level - 1)] if node.level > 1 else list(package)
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    if sub in modules:
                        aliases[alias.asname or alias.name] = sub
                    elif base in modules:
                        used[modules[base]].add(alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        aliases[alias.asname or alias.name] = alias.name
        if not aliases:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            chain = dotted(node)
            if not chain:
                continue
            for local, module in aliases.items():
                if chain.startswith(local + "."):
                    rest = chain[len(local) + 1 :].split(".")
                    used[modules[module]].add(rest[0])
    return {path: sorted(names) for path, names in used.items() if names}


def main():
    with open("contract-input.json", encoding="utf-8") as fh:
        given = json.load(fh)
    sources = given["sources"]
    modules = {module_name(p): p for p in sources}
    out = {
        "imports": imported_names(given["tests"], modules),
        "sample": {p: definitions(t) for p, t in sources.items()},
        "mutants": [definitions(m["code"]) for m in given["mutants"]],
    }
    json.dump(out, sys.stdout, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
