"""The contract between gradgen's rules and its codegen. GENERATED: do not edit.

Written by `python3 tools/codegen/contract.py` from tools/codegen/contract.py, where each value is
explained; //tests/bazel:contract_bzl_test fails when this file differs from what it writes.
"""

# The largest `shards` (0, unset, lets the spec's size choose).
MAX_SHARDS = 256

# `shards` unset: one shard per this many declarations.
DECLARATIONS_PER_SHARD = 64

# `shards` unset: the directory (a tree artifact) of the shards' .cpp files.
SHARDS_DIR = "shards.cc"

# `shards` unset: the directory of the bindings' .cpp files.
PYTHON_SHARDS_DIR = "python_shards.cc"

# Shard k's files are `<stem>` + SHARD_SUFFIX % k; with one shard, `<stem>`.
SHARD_SUFFIX = "_%d"

# The headers every run writes.
HEADERS = [
    "Functions.h",
    "VariableType.h",
    "NativeFunctions.h",
]

# The Python bindings' header.
PYTHON_HEADERS = [
    "python_functions.h",
]

# Per shard, `<stem><suffix>.cpp` of each.
SHARD_SOURCE_STEMS = [
    "Functions",
    "VariableType",
]

# Per shard, the bindings' .cpp.
PYTHON_SHARD_SOURCE_STEMS = [
    "python_functions",
]

# With more than one shard, `<stem><suffix>.h` per shard.
SHARD_HEADER_STEM = "Functions"

# Every node, its inputs' index ranges and saved members.
MANIFEST = "manifest.json"

# With a samples file: the generated gradient test.
GRADCHECK_TEST = "gradcheck_test.cpp"

# With a samples file and a Python module: the Python gradient test.
GRADCHECK_PY_TEST = "gradcheck_test.py"

# gradgen's formula helpers, always passed first.
DEFAULT_FORMULA_HEADERS = [
    "csrc/autograd/formulas.h",
]

# Their namespaces.
DEFAULT_FORMULA_NAMESPACES = [
    "::gradgen::autograd::generated::details",
]

# C++20 keywords: no identifier or namespace component.
CPP_KEYWORDS = [
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
]

# A C++ identifier's first character.
IDENTIFIER_START_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"

# A C++ identifier's other characters.
IDENTIFIER_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"

# What one component of a relative path may hold.
PATH_COMPONENT_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-"
