"""The contract between gradgen's Bazel rules and its codegen, written once: here.

A Bazel rule declares its outputs before any file is read, so the rule (bazel/private/codegen.bzl)
and the codegen (gen_autograd.py) must agree on every generated file's name, on the range of
`shards`, and on which names and paths the codegen accepts (the rule checks them at analysis, so a
mistake is reported at the BUILD file, not in the action). This module holds those facts;
bazel/private/contract.bzl is generated from it, and the rules load the constants from there:

    python3 tools/codegen/contract.py           # (re)writes bazel/private/contract.bzl
    python3 tools/codegen/contract.py --check   # exit 1, saying so, if it differs

//tests/bazel:contract_bzl_test fails when the checked-in file is not what this module writes.
Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import os
import re
import string
import sys
from typing import List, Sequence, Tuple

# --- Shards ------------------------------------------------------------------------------------

# Upper bound of `shards`: past a few dozen files the compile actions cost more in start-up and
# repeated headers than they save; 256 leaves room without letting a typo (shards = 4000) through.
MAX_SHARDS = 256
# With `shards` unset (0), one shard per this many declarations (Note [Automatic shard count] in
# gen_autograd.py says why 64).
DECLARATIONS_PER_SHARD = 64
# `shards` unset: the shards' files go into these two directories, which the rule declares as
# tree artifacts (Note [Automatic shard count]). A directory's compiles get the C++ options
# (--cxxopt) only when its name ends in a C++ extension, hence `.cc`.
SHARDS_DIR = "shards.cc"
PYTHON_SHARDS_DIR = "python_shards.cc"
# Shard k's files are `<stem><suffix>.<ext>`, the suffix `SHARD_SUFFIX % k`; with one shard, none.
SHARD_SUFFIX = "_%d"

# --- Output files ------------------------------------------------------------------------------

# The headers every run writes: the umbrella of the nodes, the differentiable API, the kernels'
# declarations; and the Python bindings' header.
HEADERS = ("Functions.h", "VariableType.h", "NativeFunctions.h")
PYTHON_HEADERS = ("python_functions.h",)
# Per shard: these stems' .cpp files (nodes and API; the bindings), and with more than one shard
# the stem's header (what that shard's nodes save).
SHARD_SOURCE_STEMS = ("Functions", "VariableType")
PYTHON_SHARD_SOURCE_STEMS = ("python_functions",)
SHARD_HEADER_STEM = "Functions"
MANIFEST = "manifest.json"
# With a samples file: the generated gradient test (docs/samples.md).
GRADCHECK_TEST = "gradcheck_test.cpp"
# With a samples file and a Python module: the same samples through the Python bindings (pytest).
GRADCHECK_PY_TEST = "gradcheck_test.py"

# gradgen's own formula helpers, always included and made visible in Functions.cpp: the defaults
# of gen_autograd's flags and of generate(), and what the rule passes before the user's.
DEFAULT_FORMULA_HEADERS = ("csrc/autograd/formulas.h",)
DEFAULT_FORMULA_NAMESPACES = ("::gradgen::autograd::generated::details",)

# --- Names and paths ---------------------------------------------------------------------------

# C++20 keywords and alternative tokens: none of them may name an argument, a return or a
# namespace component, because generated C++ declares a variable, parameter or namespace of it.
CPP_KEYWORDS = frozenset(
    """
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
    co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
    extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
    nullptr operator or or_eq private protected public register reinterpret_cast requires return
    short signed sizeof static static_assert static_cast struct switch template this thread_local
    throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
    xor xor_eq
    """.split()
)
# A C++ identifier (ASCII only): one of these, then any of IDENTIFIER_CHARS.
IDENTIFIER_START_CHARS = string.ascii_letters + "_"
IDENTIFIER_CHARS = IDENTIFIER_START_CHARS + string.digits
# What one component of a relative path (an include path, out_dir) may hold: no quotes,
# backslashes or spaces, so it goes between the quotes of an #include as it is.
PATH_COMPONENT_CHARS = string.ascii_letters + string.digits + "_.+-"

_IDENTIFIER_RE = re.compile(f"[{re.escape(IDENTIFIER_START_CHARS)}][{re.escape(IDENTIFIER_CHARS)}]*")


def is_cpp_identifier(name: str) -> bool:
    """Returns whether `name` can name a C++ variable: an identifier that is not a keyword."""
    return _IDENTIFIER_RE.fullmatch(name) is not None and name not in CPP_KEYWORDS


def shard_suffix(k: int, shards: int) -> str:
    """File name suffix of shard k: none when there is a single shard, else `_<k>`."""
    return "" if shards == 1 else SHARD_SUFFIX % k


def output_names(shards: int, samples: bool = False, python_samples: bool = False) -> List[str]:
    """Every file a run writes, known before it runs (the Bazel rule declares exactly these); for
    shards = 0, the two directories (`shards.cc/`, `python_shards.cc/`) in place of the shards' files;
    with `samples`, the gradient test GRADCHECK_TEST too, and with `python_samples` (samples and a
    Python module) GRADCHECK_PY_TEST."""
    names = [*HEADERS, *PYTHON_HEADERS, MANIFEST]
    if samples:
        names.append(GRADCHECK_TEST)
    if samples and python_samples:
        names.append(GRADCHECK_PY_TEST)
    if shards == 0:
        return names + [SHARDS_DIR + "/", PYTHON_SHARDS_DIR + "/"]
    for k in range(shards):
        sfx = shard_suffix(k, shards)
        names += [f"{stem}{sfx}.cpp" for stem in SHARD_SOURCE_STEMS + PYTHON_SHARD_SOURCE_STEMS]
        if shards > 1:
            names.append(f"{SHARD_HEADER_STEM}{sfx}.h")
    return names


# --- bazel/private/contract.bzl ----------------------------------------------------------------

OUTPUT = "bazel/private/contract.bzl"
REGENERATE = "python3 tools/codegen/contract.py"

# What contract.bzl defines, in order: (name, value, comment). Starlark has no frozenset, and
# buildifier formats lists, so every collection becomes a list (CPP_KEYWORDS sorted).
_EXPORTS: Tuple[Tuple[str, object, str], ...] = (
    ("MAX_SHARDS", MAX_SHARDS, "The largest `shards` (0, unset, lets the spec's size choose)."),
    ("DECLARATIONS_PER_SHARD", DECLARATIONS_PER_SHARD, "`shards` unset: one shard per this many declarations."),
    ("SHARDS_DIR", SHARDS_DIR, "`shards` unset: the directory (a tree artifact) of the shards' .cpp files."),
    ("PYTHON_SHARDS_DIR", PYTHON_SHARDS_DIR, "`shards` unset: the directory of the bindings' .cpp files."),
    ("SHARD_SUFFIX", SHARD_SUFFIX, "Shard k's files are `<stem>` + SHARD_SUFFIX % k; with one shard, `<stem>`."),
    ("HEADERS", list(HEADERS), "The headers every run writes."),
    ("PYTHON_HEADERS", list(PYTHON_HEADERS), "The Python bindings' header."),
    ("SHARD_SOURCE_STEMS", list(SHARD_SOURCE_STEMS), "Per shard, `<stem><suffix>.cpp` of each."),
    ("PYTHON_SHARD_SOURCE_STEMS", list(PYTHON_SHARD_SOURCE_STEMS), "Per shard, the bindings' .cpp."),
    ("SHARD_HEADER_STEM", SHARD_HEADER_STEM, "With more than one shard, `<stem><suffix>.h` per shard."),
    ("MANIFEST", MANIFEST, "Every node, its inputs' index ranges and saved members."),
    ("GRADCHECK_TEST", GRADCHECK_TEST, "With a samples file: the generated gradient test."),
    ("GRADCHECK_PY_TEST", GRADCHECK_PY_TEST, "With a samples file and a Python module: the Python gradient test."),
    ("DEFAULT_FORMULA_HEADERS", list(DEFAULT_FORMULA_HEADERS), "gradgen's formula helpers, always passed first."),
    ("DEFAULT_FORMULA_NAMESPACES", list(DEFAULT_FORMULA_NAMESPACES), "Their namespaces."),
    ("CPP_KEYWORDS", sorted(CPP_KEYWORDS), "C++20 keywords: no identifier or namespace component."),
    ("IDENTIFIER_START_CHARS", IDENTIFIER_START_CHARS, "A C++ identifier's first character."),
    ("IDENTIFIER_CHARS", IDENTIFIER_CHARS, "A C++ identifier's other characters."),
    ("PATH_COMPONENT_CHARS", PATH_COMPONENT_CHARS, "What one component of a relative path may hold."),
)


def _starlark_value(value: object) -> str:
    """`value` as Starlark source in buildifier's format: a list has one element per line."""
    if isinstance(value, list):
        return "[\n" + "".join(f"    {_starlark_value(v)},\n" for v in value) + "]"
    if isinstance(value, str):
        # Every string here is printable ASCII without quotes or backslashes.
        assert value.isprintable() and '"' not in value and "\\" not in value, value
        return f'"{value}"'
    assert isinstance(value, int) and not isinstance(value, bool), value
    return str(value)


def render_bzl() -> str:
    """The text of bazel/private/contract.bzl."""
    lines = [
        '"""The contract between gradgen\'s rules and its codegen. GENERATED: do not edit.',
        "",
        f"Written by `{REGENERATE}` from tools/codegen/contract.py, where each value is",
        "explained; //tests/bazel:contract_bzl_test fails when this file differs from what it writes.",
        '"""',
    ]
    for name, value, comment in _EXPORTS:
        lines += ["", f"# {comment}", f"{name} = {_starlark_value(value)}"]
    return "\n".join(lines) + "\n"


def _root() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=f"Writes {OUTPUT} from this module's constants.")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {OUTPUT} differs instead of writing it")
    args = parser.parse_args(argv)
    path = os.path.join(_root(), OUTPUT)
    text = render_bzl()
    if args.check:
        with open(path, encoding="utf-8") as fh:
            if fh.read() != text:
                print(f"contract: {OUTPUT} is out of date: run `{REGENERATE}`", file=sys.stderr)
                return 1
        return 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
