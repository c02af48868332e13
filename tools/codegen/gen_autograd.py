"""gradgen's codegen driver: declarations + derivative formulas -> C++ autograd code.

  gen_autograd --native_functions specs/native_functions.yaml \\
               --derivatives specs/derivatives.yaml --out_dir OUT

writes into OUT:
  Functions.h, Functions.cpp        Backward nodes            (gen_autograd_functions.py)
  VariableType.h, VariableType.cpp  the differentiable API    (gen_variable_type.py)
  NativeFunctions.h                 kernel declarations       (gen_variable_type.py)
  manifest.json                     every node, its inputs' ranges and saved members
  gradcheck_test.cpp                with --samples: the library's gradient test (load_samples.py,
                                    gen_gradcheck_test.py, docs/samples.md)

A mistake in a spec file is one line `file:line[:col]: message` on stderr and exit status 1; no
output is written then (all files are rendered in memory first, then each is written to a
temporary name and renamed into place).
"""

from __future__ import annotations

import functools
import gc
import keyword
import marshal
import os
import sys
import time
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

# Runs as `python3 tools/codegen/gen_autograd.py` too: make `tools.codegen` importable.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# Under Bazel the pinned packages of @gradgen_py_deps are on sys.path; the host interpreter's own
# site directories (Debian's dist-packages has its own PyYAML) must not be, or a missing pin would
# silently fall back to whatever the machine has. Outside Bazel (a developer's shell) keep all.
if ".runfiles" in os.path.abspath(__file__):
    sys.path[:] = [
        p for p in sys.path if not {"site-packages", "dist-packages"} & set(os.path.realpath(p or ".").split(os.sep))
    ]

if __name__ == "__main__":
    # Mako imports pygments for pretty tracebacks when it is installed (it is, for pytest); the
    # codegen never shows those, and the import costs a tenth of a second of every build.
    sys.modules.setdefault("pygments", None)  # type: ignore[assignment]

from absl import flags  # noqa: E402

from tools.codegen import gen_autograd_functions, gen_variable_type, mako_templates  # noqa: E402
from tools.codegen.autogen import add_autogen_variants  # noqa: E402
from tools.codegen.autograd_info import DifferentiabilityInfo  # noqa: E402
from tools.codegen.contract import (  # noqa: E402
    CPP_KEYWORDS,
    DECLARATIONS_PER_SHARD,
    DEFAULT_FORMULA_HEADERS,
    DEFAULT_FORMULA_NAMESPACES,
    GRADCHECK_PY_TEST,
    GRADCHECK_TEST,
    MAX_SHARDS,
    PATH_COMPONENT_CHARS,
    PYTHON_SHARDS_DIR,
    SHARD_SUFFIX,
    SHARDS_DIR,
    is_cpp_identifier,
    shard_suffix,
)
from tools.codegen.errors import SpecError  # noqa: E402
from tools.codegen.formula_env import FormulaEnvironment, header_function_names  # noqa: E402
from tools.codegen.load_derivatives import EntryCache, load_derivatives  # noqa: E402
from tools.codegen.load_native_functions import parse_native_functions  # noqa: E402
from tools.codegen.memo import LRU, MISSING, ByIdentity  # noqa: E402
from tools.codegen.model import NativeFunction  # noqa: E402
from tools.codegen.plan import DeclarationPlan, Plan, plan  # noqa: E402

if TYPE_CHECKING:
    from tools.codegen.load_samples import TestPlan
    from tools.codegen.python import Bindings

# The defaults of generate() and of the flags below. The Bazel rule passes every one of them
# explicitly (DEFAULT_FORMULA_* come from tools/codegen/contract.py, as the rule's do).
DEFAULT_INCLUDE_PREFIX = "csrc/generated"
DEFAULT_NAMESPACE = "gradgen"

FLAGS = flags.FLAGS
flags.DEFINE_string("native_functions", None, "Path of the op declarations (native_functions.yaml).")
flags.DEFINE_string("derivatives", None, "Path of the derivative formulas (derivatives.yaml).")
flags.DEFINE_string(
    "native_functions_name",
    None,
    "Name of the declarations file in messages and generated comments (default: the path).",
)
flags.DEFINE_string(
    "derivatives_name", None, "Name of the formulas file in messages and generated comments (default: the path)."
)
flags.DEFINE_string("out_dir", None, "Directory the generated files are written to.")
flags.DEFINE_string(
    "samples",
    None,
    "Path of the samples file (docs/samples.md): also write gradcheck_test.cpp, the library's gradient test.",
)
flags.DEFINE_string("samples_name", None, "Name of the samples file in messages (default: the path).")
flags.DEFINE_string(
    "python_module",
    None,
    "With --samples: the library's Python extension module (`my_ops_py`, `pkg/_ops`): also write "
    "gradcheck_test.py, the same samples run through its bindings (pytest).",
)
flags.DEFINE_bool(
    "require_samples",
    True,
    "With --samples: the generated test fails naming each declaration with formulas and no samples.",
)
flags.DEFINE_string(
    "include_prefix", DEFAULT_INCLUDE_PREFIX, 'How generated files include each other: #include "<prefix>/Functions.h".'
)
flags.DEFINE_string(
    "namespace", DEFAULT_NAMESPACE, "C++ namespace of the generated API (nodes go in <ns>::autograd::generated)."
)
flags.DEFINE_multi_string(
    "formula_header",
    list(DEFAULT_FORMULA_HEADERS),
    "Header(s) declaring the helpers formulas call; included by Functions.cpp.",
)
flags.DEFINE_multi_string(
    "formula_namespace",
    list(DEFAULT_FORMULA_NAMESPACES),
    "Namespace(s) of formula helpers, made visible in Functions.cpp with `using namespace`.",
)
flags.DEFINE_multi_string(
    "formula_environment_header",
    [],
    "A header whose functions formulas may call (the rule passes every header of the library's "
    "hdrs, deps and runtime); with any given, each function a formula calls must be one of "
    "theirs, an op of the spec, or a --formula_function: else a spec error at the formula.",
)
flags.DEFINE_multi_string(
    "formula_function",
    [],
    "A name formulas may call besides those of --formula_environment_header and the spec's ops.",
)
flags.DEFINE_enum(
    "missing_derivative",
    "error",
    ["error", "not_implemented"],
    "A Tensor-returning op without formulas: a spec error, or (PyTorch's way) a wrapper that "
    "raises when a gradient is asked of it.",
)
flags.DEFINE_bool(
    "implicit_composite",
    False,
    "PyTorch's rule: a declaration with no `dispatch:` and no `structured_delegate:` is "
    "CompositeImplicitAutograd (its kernel composes differentiable ops), so it needs no formula.",
)
# The Bazel rule accepts the same range and the same automatic choice: MAX_SHARDS,
# DECLARATIONS_PER_SHARD, SHARDS_DIR and PYTHON_SHARDS_DIR are tools/codegen/contract.py's.
# Note [Automatic shard count]: a Bazel rule declares its outputs before any file is read, so
# with `--shards=0` (the rule's `shards` unset) the spec's size decides how many shards there
# are, one per DECLARATIONS_PER_SHARD declarations (rounded up), and their files go into two
# directories that Bazel declares as tree artifacts and compiles one action per file:
# `shards.cc/` holds Functions_<k>.cpp and VariableType_<k>.cpp, `python_shards.cc/`
# python_functions_<k>.cpp. (The `.cc` makes Bazel give those compiles the C++ options,
# --cxxopt included.) A compile of one file of a directory depends on every header in it, so a
# shard has no header of its own: its nodes' declarations are written into both of its files
# (Functions.h, which only users' code includes, declares every node), and an edit that changes
# what one node saves still changes only that shard's two files. 64 declarations per shard trade
# one shard's compile (what an edit costs) against the headers every extra file parses again
# (what a full build costs). At 2,000 ops (//tests/integration:scale_test, quiet machine):
# 32 shards compile in 36.9 s and an edit takes 2.2-2.5 s; 16 shards (125 per shard) take 26.3 s
# and 2.5-3.0 s. The edit is what the 5 s target binds, and load on a 2-core machine (CI) adds up
# to half to it, so the smaller shards.
flags.DEFINE_integer(
    "shards",
    1,
    "Split Functions.cpp and VariableType.cpp into this many files each; 0: choose from the "
    f"spec's size (one shard per {DECLARATIONS_PER_SHARD} declarations), in the directories "
    f"{SHARDS_DIR}/ and {PYTHON_SHARDS_DIR}/.",
    lower_bound=0,
    upper_bound=MAX_SHARDS,
)
flags.DEFINE_list(
    "expected_outputs",
    None,
    "The file names the caller declared (the Bazel rule's list); the run fails, naming the "
    "difference, when they are not exactly the files it writes.",
)
flags.DEFINE_bool("timing", False, "Print the time of each phase to stderr.")
flags.DEFINE_bool("report_import_origins", False, "Print where yaml, mako and absl were imported from, then exit.")


class _Timer:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.t = time.perf_counter()

    def lap(self, what: str) -> None:
        if self.enabled:
            now = time.perf_counter()
            print(f"gen_autograd: {what}: {(now - self.t) * 1000:.0f} ms", file=sys.stderr)
            self.t = now


def shard_of(key: str, shards: int) -> int:
    """A stable shard for `key`: crc32, not hash(), so it never depends on PYTHONHASHSEED."""
    return zlib.crc32(key.encode("utf-8")) % shards


def auto_shard_count(declarations: int) -> int:
    """The shards the automatic choice uses for a spec of `declarations` (Note [Automatic shard count])."""
    return max(1, min(MAX_SHARDS, -(-declarations // DECLARATIONS_PER_SHARD)))


def _render(name: str, **kwargs) -> str:
    # Compiled at build time (mako_templates.py), loaded once per run.
    return mako_templates.render(name, **kwargs)


# Note [Python bindings in a second process]: the Python API is planned from the declarations
# alone (python.bindings) and rendered into its own files, and the API headers (VariableType.h,
# NativeFunctions.h) declare each declaration's function from it alone too, while the other C++
# files need the formulas. So once the declarations are parsed, a forked child makes those files
# (_declaration_files) while this process loads the formulas and plans; that child is done by
# then. Once planned, the wrappers' shards, most of the rendering left, are split between two
# more children (_wrapper_groups) while this process renders the nodes' files. The children hand
# their files back through a pipe (marshal), and all are written together, all or none, as
# before. The codegen is the first action of every build and every compile waits for it, so its
# wall time counts (docs/benchmarks.md). Only the command line runs this way (`parallel`); the
# files are the same. (The persistent worker does not: it keeps what it made for the next
# request instead, Note [Worker cache].)
class _InSecondProcess:
    """`fn()` (returning marshal-able data) run in a forked child; `result()` waits for it."""

    def __init__(self, fn) -> None:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, hand the result over, leave without cleanup
            os.close(read_end)
            try:
                payload = marshal.dumps((True, fn()))
            except BaseException as e:  # a bug: the parent reports it
                import traceback

                payload = marshal.dumps((False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))
            with os.fdopen(write_end, "wb") as fh:
                fh.write(payload)
            os._exit(0)
        os.close(write_end)
        self.pid: Optional[int] = pid
        self.read_end = read_end

    def result(self):
        with os.fdopen(self.read_end, "rb") as fh:
            data = fh.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if not data or os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"a second codegen process ended with status {status}")
        ok, value = marshal.loads(data)
        if not ok:
            raise RuntimeError(f"the codegen failed in a second process: {value}")
        return value

    def discard(self) -> None:
        """Stops the child if its result was not taken (the run failed before it)."""
        if self.pid is not None:
            import signal

            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self.read_end)
            self.pid = None


def generate(
    native_functions_path: str,
    derivatives_path: str,
    *,
    native_functions_name: Optional[str] = None,
    derivatives_name: Optional[str] = None,
    include_prefix: str = DEFAULT_INCLUDE_PREFIX,
    namespace: str = DEFAULT_NAMESPACE,
    formula_headers: Sequence[str] = DEFAULT_FORMULA_HEADERS,
    formula_namespaces: Sequence[str] = DEFAULT_FORMULA_NAMESPACES,
    missing_derivative: str = "error",
    implicit_composite: bool = False,
    timing: bool = False,
    shards: int = 1,
    environment_headers: Sequence[str] = (),
    environment_functions: Sequence[str] = (),
    samples_path: Optional[str] = None,
    samples_name: Optional[str] = None,
    require_samples: bool = True,
    python_module: Optional[str] = None,
    parallel: bool = False,
) -> Dict[str, str]:
    """Runs the whole codegen in memory: file name -> contents. Raises SpecError.

    With `environment_headers` or `environment_functions`, every function a formula calls must be
    an op of the spec, a function of those headers or one of those names (formula_env.py).
    With `parallel`, the files the declarations alone make (the Python bindings, the API headers)
    are made in a second process and the wrappers' shards in two more (Note [Python bindings in a
    second process]); the files are the same either way."""
    timer = _Timer(timing)
    nf_name = native_functions_name or native_functions_path
    d_name = derivatives_name or derivatives_path
    functions, cached = _declarations(native_functions_path, nf_name)
    timer.lap("parse declarations")
    common = dict(
        namespace=namespace,
        # Generated code outside namespace gradgen still names the runtime's types unqualified.
        runtime_namespaces=[] if namespace == "gradgen" else ["::gradgen"],
        include_prefix=include_prefix,
        functions_file=nf_name,
        derivatives_file=d_name,
    )
    layout = _ShardLayout(shards or auto_shard_count(len(functions)), automatic=shards == 0)
    declaration_files = None
    if cached is not None:  # a worker: its caches make the children's work cheap (Note [Worker cache])
        declaration_files = _WorkerDeclarationFiles(cached, functions, layout, common)
    elif parallel and hasattr(os, "fork"):
        declaration_files = _InSecondProcess(lambda: _declaration_files(functions, None, layout, common))
    try:
        return _generate_rest(
            functions,
            cached,
            derivatives_path,
            d_name,
            declaration_files,
            layout,
            common,
            timer,
            missing_derivative=missing_derivative,
            implicit_composite=implicit_composite,
            namespace=namespace,
            formula_headers=formula_headers,
            formula_namespaces=formula_namespaces,
            environment_headers=environment_headers,
            environment_functions=environment_functions,
            samples_path=samples_path,
            samples_name=samples_name,
            require_samples=require_samples,
            python_module=python_module,
        )
    finally:
        if declaration_files is not None:
            declaration_files.discard()


def _generate_rest(
    functions: List[NativeFunction],
    cached: Optional["_CachedDeclarations"],
    derivatives_path: str,
    d_name: str,
    declaration_files: Optional[object],
    layout: "_ShardLayout",
    common: Dict[str, object],
    timer: _Timer,
    *,
    missing_derivative: str,
    implicit_composite: bool,
    namespace: str,
    formula_headers: Sequence[str],
    formula_namespaces: Sequence[str],
    environment_headers: Sequence[str],
    environment_functions: Sequence[str],
    samples_path: Optional[str],
    samples_name: Optional[str],
    require_samples: bool,
    python_module: Optional[str],
) -> Dict[str, str]:
    """generate() after the declarations are parsed (the files made from them alone perhaps under
    way in `declaration_files`; `cached`: a worker's caches for these declarations)."""
    environment = None
    if environment_headers or environment_functions:
        environment = _formula_environment(functions, environment_headers, environment_functions)
    entry_cache = None if cached is None else cached.entries
    infos = load_derivatives(derivatives_path, functions, d_name, environment, entry_cache)
    timer.lap("load derivatives")
    planned = plan(
        functions,
        infos,
        missing_derivative,
        implicit_composite,
        python_bindings=declaration_files is None,
        cache=None if cached is None else _worker.plans,
    )
    tests = None
    if samples_path is not None:
        # Imported only with --samples (PyTorch's specs have none): 20 ms of imports.
        from tools.codegen.load_samples import plan_samples

        tests = plan_samples(samples_path, functions, planned.matched, planned.kinds, samples_name, require_samples)
    timer.lap("analyse")
    shards = _Shards(planned, layout, formula_headers, formula_namespaces, common, _Texts(cached is not None))
    out = _code_files(shards, namespace, isinstance(declaration_files, _InSecondProcess))
    if declaration_files is None:
        out.update(_declaration_files(functions, planned.python, layout, common))
    else:
        out.update(declaration_files.result())
    if tests is not None:
        out[GRADCHECK_TEST] = _render_gradcheck_test(tests, common)
        if python_module:
            out[GRADCHECK_PY_TEST] = _render_gradcheck_py_test(tests, python_module, common)
    timer.lap("render")
    return out


# Note [Worker cache]: a persistent worker (bazel_worker.py) keeps, between requests, what it
# made from inputs that did not change, so that a request after an edit of one formula redoes
# only what that formula touches. Every key is content (a file's name in messages and the
# SHA-256 of its bytes, a derivative entry's text, a flag's value) or the identity
# of a value itself found by content (memo.py); every value is immutable, so a cached run is the
# same run, byte for byte, as a fresh one (tests/codegen/test_bazel_worker.py and
# //bench:codegen_bench check it). What is kept:
#   * the declarations, by native_functions.yaml's name and bytes (parsing PyTorch's is a quarter
#     of a run); and for those declarations (dropped with them):
#     - each derivative entry read and analysed, by its text; node names are numbered again per
#       request (load_derivatives.EntryCache). An entry that moved keeps the Locations of where it
#       was first read: no Location reaches a generated file, and a request that raises a
#       SpecError runs again without the caches (_generate_from_flags), so every message is
#       a fresh run's;
#     - the files they alone make (the Python bindings' and the API headers VariableType.h and
#       NativeFunctions.h), by layout and the file names and namespace they print;
#   * each declaration's plan, by its declaration, info and wrapper kind (plan.py);
#   * each node's and wrapper's code and rendered text, by its info or declaration plan; the
#     shard files are those texts joined, each file's preamble rendered per request (_Texts).
# Every cache is bounded (least recently used first out). A one-shot process keeps nothing
# (`_worker` None) and forks its children instead (Note [Python bindings in a second process]);
# a worker forks none: the children's results would not reach its caches.
@dataclass
class _CachedDeclarations:
    """One native_functions.yaml's declarations, and what a worker keeps that depends only on them."""

    functions: List[NativeFunction]
    entries: EntryCache
    # (layout, common) -> the files the declarations alone make (_declaration_files).
    files: LRU


class _WorkerCache:
    # The files a worker keeps declarations of (a build has a few libraries, each with its own).
    DECLARATION_FILES = 4
    # Plans, codes and texts: PyTorch's specs make about 11,000 (2,585 declarations, 1,400 nodes),
    # so a few builds' libraries fit.
    ITEMS = 65536

    def __init__(self) -> None:
        self.declarations = LRU(self.DECLARATION_FILES)
        self.plans = ByIdentity(self.ITEMS)
        self.texts = ByIdentity(self.ITEMS)
        self.environments = LRU(8)


_worker: Optional[_WorkerCache] = None


def enable_worker_cache() -> None:
    """Keeps what requests made between runs of this process (the persistent worker)."""
    global _worker
    if _worker is None:
        _worker = _WorkerCache()


def _declarations(path: str, name: str) -> Tuple[List[NativeFunction], Optional[_CachedDeclarations]]:
    """The declarations of native_functions.yaml `path` (shown as `name`), autogen variants added,
    and in a worker what it keeps for them."""
    if _worker is None:
        return add_autogen_variants(parse_native_functions(path, name)), None
    import hashlib

    try:
        with open(path, "rb") as fh:
            key = (name, hashlib.sha256(fh.read()).digest())
    except OSError:
        return add_autogen_variants(parse_native_functions(path, name)), None  # says what is wrong
    found = _worker.declarations.get(key)
    if found is MISSING:
        functions = add_autogen_variants(parse_native_functions(path, name))
        found = _CachedDeclarations(functions, EntryCache(functions), LRU(4))
        _worker.declarations.put(key, found)
    return list(found.functions), found


def _frozen(common: Dict[str, object]) -> tuple:
    """`common` as a hashable key."""
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(common.items()))


class _WorkerDeclarationFiles:
    """The files the declarations alone make, in a worker: kept per declarations, layout and `common`."""

    def __init__(self, cached: _CachedDeclarations, functions, layout: "_ShardLayout", common: dict) -> None:
        self.cached, self.functions, self.layout, self.common = cached, functions, layout, common

    def result(self) -> Dict[str, str]:
        key = (self.layout, _frozen(self.common))
        found = self.cached.files.get(key)
        if found is MISSING:
            found = _declaration_files(self.functions, None, self.layout, self.common)
            self.cached.files.put(key, found)
        return found

    def discard(self) -> None:
        pass


def _formula_environment(
    functions: Sequence[NativeFunction], headers: Sequence[str], names: Sequence[str]
) -> FormulaEnvironment:
    """What formulas may call: the spec's ops (their C++ names and base names), the functions and
    types of `headers`, and `names`."""
    found = set(names)
    for f in functions:
        # The C++ name of the declaration (`add`, `add_`, `add_out`): a variant the spec does
        # not declare (`masked_fill_` of a spec with masked_fill only) is not callable.
        found.add(f.func.cpp_name())
    for path in headers:
        # A directory of headers (a tree artifact, such as another library's shard directory).
        files = (
            [os.path.join(d, n) for d, _, ns in sorted(os.walk(path)) for n in sorted(ns)]
            if os.path.isdir(path)
            else [path]
        )
        for name in files:
            with open(name, encoding="utf-8", errors="replace") as fh:
                found |= header_function_names(fh.read())
    if _worker is None:
        return FormulaEnvironment.of(found)
    # The same object for the same names, so the checks it passed are kept (EntryCache).
    key = frozenset(found)
    env = _worker.environments.get(key)
    if env is MISSING:
        env = FormulaEnvironment.of(found)
        _worker.environments.put(key, env)
    return env


@dataclass(frozen=True)
class _ShardLayout:
    """How the generated code is split: into `count` shards, named Functions[_<k>].cpp etc. in the
    output directory, or (`automatic`) Functions_<k>.cpp etc. in SHARDS_DIR and PYTHON_SHARDS_DIR
    with each shard's node declarations inlined (Note [Automatic shard count])."""

    count: int
    automatic: bool

    def name(self, stem: str, k: int, ext: str = "cpp") -> str:
        """The file of shard k of kind `stem` ("Functions", "VariableType", "python_functions")."""
        if self.automatic:
            return f"{PYTHON_SHARDS_DIR if stem == 'python_functions' else SHARDS_DIR}/{stem}{SHARD_SUFFIX % k}.{ext}"
        return f"{stem}{shard_suffix(k, self.count)}.{ext}"


def _render_gradcheck_test(plan: "TestPlan", common: Dict[str, object]) -> str:
    """gradcheck_test.cpp: the plan's cases (gen_gradcheck_test.py) in the template."""
    from tools.codegen import gen_gradcheck_test

    return _render(
        "gradcheck_test.cpp",
        cases=gen_gradcheck_test.cases_code(plan, "::" + str(common["namespace"])),
        skipped_ops=[(op.op_name, op.skip) for op in plan.ops if op.skip and not op.cases],
        missing=list(plan.missing),
        require_samples=plan.require_samples,
        samples_file=plan.samples_file,
        c_string=gen_gradcheck_test.c_string,
        **common,
    )


def _render_gradcheck_py_test(plan: "TestPlan", module: str, common: Dict[str, object]) -> str:
    """gradcheck_test.py: the plan's cases through the Python bindings of `module`."""
    from tools.codegen import gen_gradcheck_test

    return _render(
        "gradcheck_test.py.tmpl",
        cases=gen_gradcheck_test.py_cases_code(plan, "lib"),
        missing=list(plan.missing),
        require_samples=plan.require_samples,
        samples_file=plan.samples_file,
        python_module=module,
        python_import=gen_gradcheck_test.python_import(module),
        **common,
    )


def _api_headers(functions: Sequence[NativeFunction], common: Dict[str, object]) -> Dict[str, str]:
    """VariableType.h and NativeFunctions.h: the declarations alone make them (gen_variable_type.api_declaration)."""
    declarations = [gen_variable_type.api_declaration(f) for f in functions]
    # Outside namespace gradgen, the headers make the runtime names their declarations use
    # visible, one using-declaration each (never `using namespace` in a header).
    outside = common["namespace"] != "gradgen"
    api_names = gen_variable_type.header_runtime_names(declarations, with_defaults=True) if outside else []
    native_names = gen_variable_type.header_runtime_names(declarations, with_defaults=False) if outside else []
    return {
        "VariableType.h": _render("VariableType.h", declarations=declarations, using_names=api_names, **common),
        "NativeFunctions.h": _render(
            "NativeFunctions.h", declarations=declarations, using_names=native_names, **common
        ),
    }


def _variable_type_includes(prefix: str) -> List[str]:
    return [f"{prefix}/NativeFunctions.h", "csrc/autograd/forward_ad.h", "csrc/autograd/variable_type_utils.h"]


def _preamble(include_groups: Sequence[Sequence[str]], declarations: Optional[str]) -> str:
    """A shard file's #include lines, a blank line between groups, then (automatic shard count)
    its nodes' declarations inlined after a blank line."""
    text = "\n\n".join("\n".join(f'#include "{inc}"' for inc in group) for group in include_groups if group) + "\n"
    return text if declarations is None else f"{text}\n{declarations}"


class _Texts:
    """The nodes' and wrappers' code (gen_autograd_functions, gen_variable_type) and their texts
    in the templates' per-item defs. A file's items are rendered together; in a worker (Note
    [Worker cache]) each item's code and text are made once per info or declaration plan (its
    identity: the same object is the same inputs) and the file's text is theirs joined, which is
    the same text: the defs print each item on its own."""

    def __init__(self, in_worker: bool) -> None:
        self.memo = _worker.texts if in_worker and _worker is not None else None

    def node(self, info: DifferentiabilityInfo) -> gen_autograd_functions.NodeCode:
        if self.memo is None:
            return gen_autograd_functions.node_code(info)
        return self.memo.get((info,), "node", functools.partial(gen_autograd_functions.node_code, info))

    def wrapper(self, d: DeclarationPlan, namespace: str) -> gen_variable_type.WrapperCode:
        if self.memo is None:
            return gen_variable_type.wrapper_code(d, namespace)
        return self.memo.get(
            (d,), ("wrapper", namespace), functools.partial(gen_variable_type.wrapper_code, d, namespace)
        )

    def joined(self, template: str, def_name: str, arg: str, items: Sequence[Tuple[object, object]], extra=None) -> str:
        """Def `def_name` of `template` over the codes of `items` ((key, code) pairs) as `arg`."""
        if self.memo is None:
            return mako_templates.render_def(template, def_name, **{arg: [code for _, code in items]})
        memo, render = self.memo, mako_templates.render_def

        def each() -> str:
            return "".join(
                memo.get((key,), (template, extra), functools.partial(render, template, def_name, **{arg: [code]}))
                for key, code in items
            )

        # A shard whose items are all as before is the same text: one lookup instead of one per item.
        return memo.get(tuple(key for key, _ in items), ("joined", template, extra), each)

    def manifest_line(self, info: DifferentiabilityInfo) -> str:
        """A node's line of manifest.json (json's C encoder writes each line)."""
        import json  # only here: a few ms of imports

        if self.memo is None:
            return json.dumps(gen_autograd_functions.manifest_node(info))
        return self.memo.get((info,), "manifest", lambda: json.dumps(gen_autograd_functions.manifest_node(info)))


class _Shards:
    """The plan's nodes (gen_autograd_functions) split into shards, and what each shard's two
    files begin with; the wrappers are made and split by _variable_type_files. A node's code and
    a shard's preamble are made when first asked for: after the forks, by the process that
    renders the files needing them (Note [Python bindings in a second process])."""

    # Note [Shards]: nodes and wrappers are split by a stable hash of the op's base name, so the
    # node of `add` and the wrappers of add, add_ and add.out share a shard, and an edit to one
    # formula changes only that shard's files (its header, its .cpp files), never the others'.
    def __init__(
        self,
        p: Plan,
        layout: _ShardLayout,
        formula_headers: Sequence[str],
        formula_namespaces: Sequence[str],
        common: Dict[str, object],
        texts: _Texts,
    ) -> None:
        self.plan = p
        self.layout = layout
        self.common = common
        self.texts = texts
        self.formula_headers, self.formula_namespaces = formula_headers, formula_namespaces
        count = layout.count
        # Each shard's nodes' infos (p.nodes are the infos with a node), in the plan's order.
        self.info_shards: List[List[DifferentiabilityInfo]] = [[] for _ in range(count)]
        for info in p.nodes:
            self.info_shards[shard_of(info.func.func.name.name.base, count)].append(info)
        # One header per shard (Functions_<k>.h), except with one shard (Functions.h is its
        # header) and with the automatic count (declarations inlined into the shard's two files).
        self.own_headers = count > 1 and not layout.automatic
        self.headers = [layout.name("Functions", k, "h") if self.own_headers else "Functions.h" for k in range(count)]
        self._codes: Dict[int, gen_autograd_functions.NodeCode] = {}  # by id(info): the plan keeps each info
        self._common_of: Dict[int, Dict[str, object]] = {}

    def _with_code(self, infos: Sequence[DifferentiabilityInfo]) -> List[Tuple[DifferentiabilityInfo, object]]:
        codes = self._codes
        for info in infos:
            if id(info) not in codes:
                codes[id(info)] = self.texts.node(info)
        return [(info, codes[id(info)]) for info in infos]

    @property
    def nodes(self) -> List[Tuple[DifferentiabilityInfo, object]]:
        """Every node's info and code (gen_autograd_functions.NodeCode), in the plan's order."""
        return self._with_code(self.plan.nodes)

    def node_shard(self, k: int) -> List[Tuple[DifferentiabilityInfo, object]]:
        """Shard k's nodes' infos and codes."""
        return self._with_code(self.info_shards[k])

    def common_of(self, k: int) -> Dict[str, object]:
        """What shard k's two files' templates get besides their items: the preambles and namespaces."""
        found = self._common_of.get(k)
        if found is not None:
            return found
        common, prefix = self.common, self.common["include_prefix"]
        declarations = None
        if self.layout.automatic:
            declarations = _render_declarations(self.node_shard(k), [], True, common, self.texts)
        # Both files see the shard's nodes and the formula helpers (forward-mode formulas run
        # in the wrappers and call the same helpers as the nodes' apply()).
        own_header = [f"{prefix}/{self.headers[k]}"] if declarations is None else []
        found = self._common_of[k] = dict(
            functions_preamble=_preamble(
                [own_header, [f"{prefix}/VariableType.h", *self.formula_headers]], declarations
            ),
            variable_type_preamble=_preamble(
                [[f"{prefix}/VariableType.h"], [*own_header, *_variable_type_includes(prefix), *self.formula_headers]],
                declarations,
            ),
            using_namespaces=list(self.formula_namespaces),
            **common,
        )
        return found


def _code_files(shards: _Shards, namespace: str, fork: bool) -> Dict[str, str]:
    """The nodes' and wrappers' files and manifest.json. With `fork`, the wrappers' shards are
    made in two more processes meanwhile (Note [Python bindings in a second process])."""
    count = shards.layout.count
    groups = _wrapper_groups(shards) if fork else [set(range(count))]
    children = [_InSecondProcess(functools.partial(_variable_type_files, shards, namespace, g)) for g in groups if fork]
    try:
        out = _functions_files(shards)
        out["manifest.json"] = _manifest(shards.plan, shards.layout, shards.texts)
        if not fork:
            out.update(_variable_type_files(shards, namespace, groups[0]))
        for child in children:
            out.update(child.result())
    finally:
        for child in children:
            child.discard()
    return out


def _wrapper_groups(shards: _Shards) -> List[set]:
    """The wrappers' shards split in two groups of about as many declarations each (one group
    with a single shard): the largest shard first, each into the group with fewer so far."""
    count = shards.layout.count
    sizes = [0] * count
    for d in shards.plan.declarations:
        sizes[shard_of(d.shard_key, count)] += 1
    groups: List[set] = [set(), set()]
    loads = [0, 0]
    for k in sorted(range(count), key=lambda k: (-sizes[k], k)):
        g = 0 if loads[0] <= loads[1] else 1
        groups[g].add(k)
        loads[g] += sizes[k]
    return [g for g in groups if g]


def _functions_files(shards: _Shards) -> Dict[str, str]:
    """Functions[_<k>].cpp, the shards' headers and Functions.h."""
    layout, common, texts = shards.layout, shards.common, shards.texts
    out: Dict[str, str] = {}
    for k in range(layout.count):
        definitions = texts.joined("Functions.cpp", "definitions", "nodes", shards.node_shard(k))
        out[layout.name("Functions", k)] = _render("Functions.cpp", node_definitions=definitions, **shards.common_of(k))
        if shards.own_headers:
            out[shards.headers[k]] = _render_declarations(shards.node_shard(k), [], False, common, texts)
    # Functions.h declares every node: for one shard it is the shard's header, for several with
    # headers of their own it includes them, for the automatic count it declares every node.
    include_prefix = common["include_prefix"]
    out["Functions.h"] = _render_declarations(
        [] if shards.own_headers else shards.nodes,
        [f"{include_prefix}/Functions_{k}.h" for k in range(layout.count)] if shards.own_headers else [],
        False,
        common,
        texts,
    )
    return out


def _variable_type_files(shards: _Shards, namespace: str, which: set) -> Dict[str, str]:
    """The wrappers (gen_variable_type) of the shards `which`, in their VariableType[_<k>].cpp."""
    layout, texts = shards.layout, shards.texts
    wrapper_shards: Dict[int, List[Tuple[DeclarationPlan, gen_variable_type.WrapperCode]]] = {k: [] for k in which}
    for d in shards.plan.declarations:
        k = shard_of(d.shard_key, layout.count)
        if k in which:
            wrapper_shards[k].append((d, texts.wrapper(d, namespace)))
    out = {}
    for k in sorted(which):
        definitions = texts.joined("VariableType.cpp", "definitions", "wrappers", wrapper_shards[k], namespace)
        out[layout.name("VariableType", k)] = _render(
            "VariableType.cpp", wrapper_definitions=definitions, **shards.common_of(k)
        )
    return out


def _render_declarations(
    nodes: Sequence[Tuple[DifferentiabilityInfo, gen_autograd_functions.NodeCode]],
    includes: Sequence[str],
    inlined: bool,
    common: Dict[str, object],
    texts: _Texts,
) -> str:
    """The Functions.h template: a header declaring `nodes` ((info, code) pairs), or, `inlined`,
    the same declarations as text for a .cpp file. A worker keeps the text by the nodes' infos
    (Note [Worker cache]): the runtime names a header's declarations use take a pass over them."""
    if texts.memo is None:
        return _declarations_text(nodes, includes, inlined, common, texts)
    return texts.memo.get(
        tuple(info for info, _ in nodes),
        ("declarations", tuple(includes), inlined, _frozen(common)),
        functools.partial(_declarations_text, nodes, includes, inlined, common, texts),
    )


def _declarations_text(
    nodes: Sequence[Tuple[DifferentiabilityInfo, gen_autograd_functions.NodeCode]],
    includes: Sequence[str],
    inlined: bool,
    common: Dict[str, object],
    texts: _Texts,
) -> str:
    codes = [code for _, code in nodes]
    return _render(
        "Functions.h",
        node_declarations=texts.joined("Functions.h", "declarations", "nodes", nodes),
        includes=list(includes) + gen_autograd_functions.header_includes(codes),
        inlined=inlined,
        using_names=gen_autograd_functions.header_runtime_names(codes),
        **common,
    )


def _manifest(p: Plan, layout: _ShardLayout, texts: _Texts) -> str:
    """manifest.json: the shard count, then one line per node (json's C encoder writes each line;
    its pure-Python indenting encoder took 0.13 s of the codegen at 2,000 nodes)."""
    import json  # only here: a few ms of imports

    shards = json.dumps({"count": layout.count, "automatic": layout.automatic})
    nodes = [texts.manifest_line(i) for i in p.nodes]
    body = "".join(f"  {n},\n" for n in nodes[:-1]) + (f"  {nodes[-1]}\n" if nodes else "")
    return f'{{\n "shards": {shards},\n "nodes": [\n{body} ]\n}}\n'


def _c_string(text: str) -> str:
    """`text` as a C++ string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _declaration_files(
    functions: Sequence[NativeFunction], bindings: Optional["Bindings"], layout: _ShardLayout, common: dict
) -> Dict[str, str]:
    """The files the declarations alone make: VariableType.h and NativeFunctions.h, the Python
    bindings' python_functions.h and one python_functions[_k].cpp per shard
    (gen_python_functions.py); `bindings`: python.bindings(functions), planned here if None."""
    # Imported here: a run imports them in the process that makes these files (the first forked
    # child), not on the way to the others (about 10 ms).
    from tools.codegen import gen_python_functions, python

    if bindings is None:
        bindings = python.bindings(functions)
    out = _api_headers(functions, common)
    shards = layout.count
    out["python_functions.h"] = _render("python_functions.h", shards=shards, shard_suffix=lambda k: f"_{k}", **common)
    for k, shard in enumerate(gen_python_functions.shards_of(bindings, shards, shard_of)):
        named = {t[0]: t[1] for g in shard.groups for t in (g.named_tuple, g.out_named_tuple) if t}
        out[layout.name("python_functions", k)] = _render(
            "python_functions.cpp",
            groups=shard.groups,
            skipped=shard.skipped,
            named_tuples=sorted(named.items()),
            # Methods need gradgen.Tensor's class object; shard 0 also defines bind_generated().
            binds_methods=any(g.kind is python.Variant.METHOD for g in shard.groups),
            defines_bind_generated=k == 0,
            suffix=f"_{k}",
            shards=shards,
            c_string=_c_string,
            **common,
        )
    return out


def write_outputs(out_dir: str, files: Dict[str, str]) -> None:
    """Writes every file, each through a temporary name, so none is ever half-written. In the
    shards' directories (Note [Automatic shard count]), files of an earlier run that this one
    did not write are removed, so the directory holds exactly this run's shards."""
    tmp_paths = []
    try:
        for name in sorted(files):
            final = os.path.join(out_dir, name)
            os.makedirs(os.path.dirname(final), exist_ok=True)
            tmp = os.path.join(os.path.dirname(final), f".{os.path.basename(name)}.tmp")
            with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(files[name])
            tmp_paths.append((tmp, final))
        for tmp, final in tmp_paths:
            os.replace(tmp, final)
    finally:
        for tmp, _ in tmp_paths:
            if os.path.exists(tmp):
                os.unlink(tmp)
    for directory in sorted({n.split("/", 1)[0] for n in files if "/" in n}):
        written = {n.split("/", 1)[1] for n in files if n.startswith(directory + "/")}
        for stale in sorted(set(os.listdir(os.path.join(out_dir, directory))) - written):
            path = os.path.join(out_dir, directory, stale)
            if os.path.isfile(path) and stale.endswith(".cpp"):
                os.unlink(path)


def _output_entries(files: Dict[str, str]) -> List[str]:
    """The names output_names() lists for `files`: a file in a directory counts as its directory."""
    return sorted({n.split("/", 1)[0] + "/" if "/" in n else n for n in files})


# What a path between the quotes of an #include may hold: no quotes, backslashes or spaces.
_INCLUDE_PATH_CHARS = frozenset(PATH_COMPONENT_CHARS)


def _is_include_path(path: str) -> bool:
    """Returns whether `path` is a relative path of plain names: `csrc/generated`, not `/a`, `a//b`."""
    return all(part and set(part) <= _INCLUDE_PATH_CHARS for part in path.split("/"))


def _namespace_problem(name: str, *, allow_global: bool) -> Optional[str]:
    """Why `name` cannot be a C++ namespace name (`a::b`; `::a::b` too when `allow_global`), or None."""
    parts = name.split("::")
    if allow_global and len(parts) > 1 and parts[0] == "":
        parts = parts[1:]
    for part in parts:
        if not is_cpp_identifier(part):
            what = "a C++ keyword" if part in CPP_KEYWORDS else "not a C++ identifier"
            return f"'{part}' is {what}" if part else "it has an empty component"
    return None


def _flag_problems() -> List[str]:
    """The usage mistakes in the flags' values, each one line."""
    problems = []
    for ns, allow_global, flag in [(FLAGS.namespace, False, "namespace")] + [
        (ns, True, "formula_namespace") for ns in FLAGS.formula_namespace
    ]:
        why = _namespace_problem(ns, allow_global=allow_global)
        if why:
            problems.append(f"--{flag}={ns!r} is not a C++ namespace name such as 'a::b': {why}")
    for path, flag in [(FLAGS.include_prefix, "include_prefix")] + [
        (h, "formula_header") for h in FLAGS.formula_header
    ]:
        if not _is_include_path(path):
            problems.append(
                f"--{flag}={path!r} is not a relative include path such as 'csrc/generated' "
                "(letters, digits, '_', '.', '+', '-' and '/')"
            )
    for name, flag in [
        (FLAGS.native_functions_name or FLAGS.native_functions, "native_functions_name"),
        (FLAGS.derivatives_name or FLAGS.derivatives, "derivatives_name"),
        (FLAGS.samples_name or FLAGS.samples or "", "samples_name"),
    ]:
        # The name goes into a `//` comment of every generated file and into one-line messages.
        if any(ord(c) < 32 or ord(c) == 127 for c in name) or name.endswith("\\"):
            problems.append(
                f"--{flag}={name!r} cannot be the name of a file in messages and generated comments: "
                "it has a control character (a line break, a tab, ...) or ends in a backslash"
            )
    if FLAGS.python_module is not None and not all(
        part.isidentifier() and not keyword.iskeyword(part) for part in FLAGS.python_module.split("/")
    ):
        problems.append(
            f"--python_module={FLAGS.python_module!r} is not a Python module name such as 'my_ops_py' or a path "
            "such as 'pkg/_ops'"
        )
    if os.path.exists(FLAGS.out_dir) and not os.path.isdir(FLAGS.out_dir):
        problems.append(f"--out_dir={FLAGS.out_dir} exists and is not a directory")
    else:
        # The nearest existing ancestor must be a directory, or the directory cannot be made.
        parent = os.path.dirname(os.path.abspath(FLAGS.out_dir))
        while not os.path.exists(parent) and os.path.dirname(parent) != parent:
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            problems.append(f"--out_dir={FLAGS.out_dir} is below {parent}, which is not a directory")
    return problems


def main(argv: List[str]) -> int:
    if FLAGS.report_import_origins:
        import absl
        import mako
        import yaml

        for module in (yaml, mako, absl):
            print(f"{module.__name__} {os.path.realpath(module.__file__)}")
        return 0
    if len(argv) > 1:
        print(f"gen_autograd: unexpected arguments: {' '.join(argv[1:])}", file=sys.stderr)
        return 2
    for required in ("native_functions", "derivatives", "out_dir"):
        if not getattr(FLAGS, required):
            print(f"gen_autograd: --{required} is required", file=sys.stderr)
            return 2
    problems = _flag_problems()
    if problems:
        print(f"gen_autograd: {problems[0]}", file=sys.stderr)
        return 2
    try:
        files = _generate_from_flags()
    except SpecError as e:
        print(str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"gen_autograd: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 1
    if FLAGS.expected_outputs is not None and sorted(FLAGS.expected_outputs) != _output_entries(files):
        extra = sorted(set(_output_entries(files)) - set(FLAGS.expected_outputs))
        missing = sorted(set(FLAGS.expected_outputs) - set(_output_entries(files)))
        print(
            "gen_autograd: the caller's file list disagrees with the files generated "
            f"(generated but not expected: {', '.join(extra) or 'none'}; expected but not generated: "
            f"{', '.join(missing) or 'none'}); bazel/private/codegen.bzl generated_file_names() and "
            "tools/codegen/contract.py output_names() must list the same files",
            file=sys.stderr,
        )
        return 2
    timer = _Timer(FLAGS.timing)
    try:
        write_outputs(FLAGS.out_dir, files)
    except OSError as e:
        print(f"gen_autograd: cannot write {e.filename or FLAGS.out_dir}: {e.strerror}", file=sys.stderr)
        return 1
    timer.lap("write")
    return 0


def _generate_from_flags() -> Dict[str, str]:
    """generate() with the flags' values. Raises SpecError."""
    global _worker
    run = functools.partial(
        generate,
        FLAGS.native_functions,
        FLAGS.derivatives,
        native_functions_name=FLAGS.native_functions_name,
        derivatives_name=FLAGS.derivatives_name,
        include_prefix=FLAGS.include_prefix,
        namespace=FLAGS.namespace,
        formula_headers=FLAGS.formula_header,
        formula_namespaces=FLAGS.formula_namespace,
        missing_derivative=FLAGS.missing_derivative,
        implicit_composite=FLAGS.implicit_composite,
        timing=FLAGS.timing,
        shards=FLAGS.shards,
        environment_headers=FLAGS.formula_environment_header,
        environment_functions=FLAGS.formula_function,
        samples_path=FLAGS.samples,
        samples_name=FLAGS.samples_name,
        require_samples=FLAGS.require_samples,
        python_module=FLAGS.python_module,
    )
    if _worker is None:
        return run(parallel=_PARALLEL)
    try:
        return run()
    except SpecError:
        pass
    # What a worker keeps may hold the lines an entry had when it was first read (it moved since:
    # Note [Worker cache]), and only messages show lines: a failing request runs again as a fresh
    # process would, without the caches, and reports what that run finds.
    kept, _worker = _worker, None
    try:
        return run()
    finally:
        _worker = kept


def _parse_flags(argv: List[str]) -> List[str]:
    """Parses the flags; a bad flag is one line on stderr and exit status 2 (absl prints two)."""
    try:
        return FLAGS(argv)
    except flags.Error as e:
        print(f"gen_autograd: {' '.join(str(e).split())}", file=sys.stderr)
        sys.exit(2)


def _run_request(arguments: List[str]) -> int:
    """One run of the codegen inside a persistent worker (bazel_worker.py): the flags of an earlier
    request are reset first, then the request's own are parsed, as a fresh process would."""
    FLAGS.unparse_flags()
    try:
        argv = _parse_flags([sys.argv[0]] + arguments)
    except SystemExit as e:
        return int(e.code)
    return main(argv)


# The flags absl.app defines (help, debugging, profiling): given any, the run goes through it.
_APP_FLAGS = frozenset(
    ["-?", "-h", "--help", "-help", "--helpshort", "--helpfull", "--helpxml", "--only_check_args", "--pdb",
     "--pdb_post_mortem", "--run_with_pdb", "--run_with_profiling", "--profile_file",
     "--use_cprofile_for_profiling"]
)  # fmt: skip


def _collect_and_freeze() -> None:
    """After a worker's response: frees what the request left in reference cycles (nearly
    nothing: see mako_templates.render), then moves what survives (the imported modules, the
    caches of parsed types, arguments and declarations) out of the collector's sight, so that the
    next collection walks only the next request's objects (5 ms instead of 0.1 s on PyTorch's
    specs)."""
    gc.collect()
    gc.freeze()


# Whether main() renders the Python bindings in a second process: run() (the command line and
# the persistent worker) does; main() called in-process (tests) does not.
_PARALLEL = False


def run() -> None:
    global _PARALLEL
    _PARALLEL = True
    # The codegen is one short-lived process that builds a model and drops it. At 2,000 ops the
    # cyclic garbage collector made 507 passes over the growing heap, freed 2,131 objects (from
    # imports and Mako's template compiles), and took a quarter of the run: 1.6 s -> 1.2 s.
    # (A persistent worker collects once after each response instead.)
    gc.disable()
    if sys.argv[1:] == ["--persistent_worker"]:
        # Bazel's worker protocol (bazel_worker.py). Imported here: a one-shot run does not pay
        # for the protobuf runtime.
        from tools.codegen import bazel_worker

        enable_worker_cache()
        bazel_worker.serve(_run_request, sys.stdin.buffer, sys.stdout.buffer, after=_collect_and_freeze)
        return
    if any(a.split("=", 1)[0] in _APP_FLAGS for a in sys.argv[1:]):
        # --help and absl.app's other flags: absl.app (its import, logging and pdb included, is
        # 20 ms that a build's run does not need).
        from absl import app

        app.run(lambda argv: sys.exit(main(argv)), flags_parser=_parse_flags)
    status = main(_parse_flags(sys.argv))
    # The files are written and closed: leave without the interpreter's teardown, which frees the
    # model object by object (tens of ms on PyTorch's specs) for a process that is ending anyway.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    run()
