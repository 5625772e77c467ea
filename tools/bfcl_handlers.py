"""Load BFCL's model handler classes and its model registry from a Gorilla checkout.

BFCL's package cannot be installed here (no PyPI), and importing it whole needs openai,
anthropic, google-genai, tree_sitter, … This module imports the checkout's own files
(`bfcl_eval/…`, read at run time, nothing copied) and hands every third-party module
that is not installed a permissive stand-in: enough for the handler classes to be
defined, never enough to reach a model. The decode methods under test are BFCL's own.

Used by tools/gen-decode-vectors.py and tools/gen-model-registry.py.
"""
import ast
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import textwrap
import types


class _AnyMeta(type):
    """Class-level attributes of a stand-in class are stand-in classes too (`cohere.types.ToolV2`)."""

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _AnyMeta(name, (_Anything,), {})

    def __getitem__(cls, item):
        return cls

    def __or__(cls, other):
        return cls

    __ror__ = __or__


class _Anything(metaclass=_AnyMeta):
    """Stands in for any object of a missing third-party module: callable, subclassable, any attribute."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # used as a decorator: keep the function
        return _Anything()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Anything()

    def __iter__(self):
        return iter(())

    def __or__(self, other):
        return _Anything()

    __ror__ = __and__ = __rand__ = __add__ = __radd__ = __or__


class _StubModule(types.ModuleType):
    """A missing third-party module: every attribute is a fresh class (so it can be subclassed or called)."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []  # a package, so `import a.b.c` finds stand-ins below it

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        cls = _AnyMeta(name, (_Anything,), {})
        setattr(self, name, cls)
        return cls


def _overrides_module():
    m = types.ModuleType("overrides")
    m.override = lambda f: f
    m.final = lambda f: f

    class EnforceOverrides:
        pass

    m.EnforceOverrides = EnforceOverrides
    return m


def _third_party_imports(bfcl_root):
    """Top-level names BFCL's own source imports that are neither stdlib nor bfcl_eval."""
    names = set()
    for dirpath, _dirs, files in os.walk(os.path.join(bfcl_root, "bfcl_eval")):
        for f in files:
            if not f.endswith(".py"):
                continue
            try:
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "bfcl_eval"}


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Last on sys.meta_path: a third-party module BFCL imports that is not installed becomes a stand-in."""

    def __init__(self, names):
        self.names = names

    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] not in self.names:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        if spec.name == "overrides":
            return _overrides_module()
        return _StubModule(spec.name)

    def exec_module(self, module):
        pass


def load(bfcl_root):
    """Put the checkout's `bfcl_eval` first on the import path, with stand-ins for what is missing."""
    bfcl_root = os.path.abspath(bfcl_root)
    if not os.path.isdir(os.path.join(bfcl_root, "bfcl_eval", "model_handler")):
        raise SystemExit("not a BFCL checkout (no bfcl_eval/model_handler): %s" % bfcl_root)
    sys.path.insert(0, bfcl_root)
    sys.meta_path.append(_StubFinder(_third_party_imports(bfcl_root)))
    sys.modules.setdefault("overrides", _overrides_module())
    os.environ.setdefault("BFCL_PROJECT_ROOT", os.path.join(bfcl_root, ".bfcl-tmp-never-written"))
    return bfcl_root


def model_registry():
    """BFCL's MODEL_CONFIG_MAPPING: registry key → ModelConfig (with the real handler classes)."""
    from bfcl_eval.constants.model_config import MODEL_CONFIG_MAPPING  # noqa: E402

    return MODEL_CONFIG_MAPPING


def defining_class(cls, method):
    """The class in `cls`'s MRO whose body defines `method`."""
    for k in cls.__mro__:
        if method in k.__dict__:
            return k
    return None


def forced_is_fc_model(cls):
    """The constant an `__init__` in the MRO assigns to `self.is_fc_model` (most derived first), else None."""
    for k in cls.__mro__:
        init = k.__dict__.get("__init__")
        if init is None or not hasattr(init, "__code__"):
            continue
        try:
            src = textwrap.dedent(inspect.getsource(init))
        except (OSError, TypeError):
            continue
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for t in node.targets:
                    if isinstance(t, ast.Attribute) and t.attr == "is_fc_model" and isinstance(t.value, ast.Name) and t.value.id == "self":
                        return bool(node.value.value)
    return None


def reads_is_fc_model(func):
    """Whether a method's source reads `self.is_fc_model` (its behaviour then depends on the mode)."""
    fn = func.__func__ if isinstance(func, (staticmethod, classmethod)) else func
    return "is_fc_model" in inspect.getsource(fn)


def bare_handler(cls, is_fc_model):
    """An instance without running `__init__` (which would build API clients): only what decoding reads.
    The model name carries "FC" in function-calling mode: v3's handlers branch on `"FC" in self.model_name`."""
    h = cls.__new__(cls)
    h.is_fc_model = is_fc_model
    h.model_name = "model-FC" if is_fc_model else "model"
    h.registry_name = h.model_name
    h.temperature = 0.0
    return h
