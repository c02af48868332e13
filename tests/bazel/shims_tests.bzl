"""Unit tests of the offline shims (bazel/private/repos/offline_shims.bzl) with skylib.

Every .bzl file the shims write is loaded here, so a missing file or symbol fails the loading of
//tests/bazel, and each re-exported symbol must be the very native rule or provider it stands
for: a shim that exported, say, cc_binary as cc_library would fail here, not in some BUILD file.
"""

load("@bazel_skylib//lib:unittest.bzl", "asserts", "unittest")
load("@bazel_tools//tools/python:toolchain.bzl", native_py_runtime_pair = "py_runtime_pair")
load("@rules_cc//cc:cc_binary.bzl", one_cc_binary = "cc_binary")
load("@rules_cc//cc:cc_import.bzl", one_cc_import = "cc_import")
load("@rules_cc//cc:cc_library.bzl", one_cc_library = "cc_library")
load("@rules_cc//cc:cc_test.bzl", one_cc_test = "cc_test")
load(
    "@rules_cc//cc:defs.bzl",
    defs_cc_binary = "cc_binary",
    defs_cc_import = "cc_import",
    defs_cc_library = "cc_library",
    defs_cc_test = "cc_test",
)
load("@rules_cc//cc/common:cc_common.bzl", shim_cc_common = "cc_common")  # buildifier: disable=native-cc-common
load("@rules_cc//cc/common:cc_info.bzl", shim_cc_info = "CcInfo")  # buildifier: disable=native-cc-info
load(
    "@rules_python//python:defs.bzl",
    "py_binary",
    "py_library",
    "py_runtime",
    "py_runtime_pair",
    "py_test",
    shim_py_info = "PyInfo",
    shim_py_runtime_info = "PyRuntimeInfo",
)
load("@rules_python//python:py_binary.bzl", one_py_binary = "py_binary")
load("@rules_python//python:py_library.bzl", one_py_library = "py_library")
load("@rules_python//python:py_runtime.bzl", one_py_runtime = "py_runtime")
load("@rules_python//python:py_runtime_pair.bzl", one_py_runtime_pair = "py_runtime_pair")
load("@rules_python//python:py_test.bzl", one_py_test = "py_test")
load("@rules_shell//shell:sh_binary.bzl", "sh_binary")
load("@rules_shell//shell:sh_library.bzl", "sh_library")
load("@rules_shell//shell:sh_test.bzl", "sh_test")

# What each shim must re-export, compared while this file loads: `native` exists only then.
# (description, shim symbol == the native one). The builtin providers are named bare on purpose,
# hence the buildifier disables.
_RULES_CC_CHECKS = [
    ("@rules_cc//cc:defs.bzl cc_binary", defs_cc_binary == native.cc_binary),
    ("@rules_cc//cc:defs.bzl cc_import", defs_cc_import == native.cc_import),
    ("@rules_cc//cc:defs.bzl cc_library", defs_cc_library == native.cc_library),
    ("@rules_cc//cc:defs.bzl cc_test", defs_cc_test == native.cc_test),
    ("@rules_cc//cc:cc_binary.bzl cc_binary", one_cc_binary == native.cc_binary),
    ("@rules_cc//cc:cc_import.bzl cc_import", one_cc_import == native.cc_import),
    ("@rules_cc//cc:cc_library.bzl cc_library", one_cc_library == native.cc_library),
    ("@rules_cc//cc:cc_test.bzl cc_test", one_cc_test == native.cc_test),
    ("@rules_cc//cc/common:cc_info.bzl CcInfo", shim_cc_info == CcInfo),  # buildifier: disable=native-cc-info
    ("@rules_cc//cc/common:cc_common.bzl cc_common", shim_cc_common == cc_common),  # buildifier: disable=native-cc-common
]

_RULES_PYTHON_CHECKS = [
    ("@rules_python//python:defs.bzl py_binary", py_binary == native.py_binary),
    ("@rules_python//python:defs.bzl py_library", py_library == native.py_library),
    ("@rules_python//python:defs.bzl py_runtime", py_runtime == native.py_runtime),
    ("@rules_python//python:defs.bzl py_runtime_pair", py_runtime_pair == native_py_runtime_pair),
    ("@rules_python//python:defs.bzl py_test", py_test == native.py_test),
    ("@rules_python//python:defs.bzl PyInfo", shim_py_info == PyInfo),  # buildifier: disable=native-py
    ("@rules_python//python:defs.bzl PyRuntimeInfo", shim_py_runtime_info == PyRuntimeInfo),  # buildifier: disable=native-py
    ("@rules_python//python:py_binary.bzl py_binary", one_py_binary == native.py_binary),
    ("@rules_python//python:py_library.bzl py_library", one_py_library == native.py_library),
    ("@rules_python//python:py_runtime.bzl py_runtime", one_py_runtime == native.py_runtime),
    ("@rules_python//python:py_runtime_pair.bzl py_runtime_pair", one_py_runtime_pair == native_py_runtime_pair),
    ("@rules_python//python:py_test.bzl py_test", one_py_test == native.py_test),
]

_RULES_SHELL_CHECKS = [
    ("@rules_shell//shell:sh_binary.bzl sh_binary", sh_binary == native.sh_binary),
    ("@rules_shell//shell:sh_library.bzl sh_library", sh_library == native.sh_library),
    ("@rules_shell//shell:sh_test.bzl sh_test", sh_test == native.sh_test),
]

# A sanity check of the comparison itself: two different rules must not compare equal.
_DIFFERENT_RULES_EQUAL = native.cc_library == native.cc_binary

def _check_all(ctx, checks):
    env = unittest.begin(ctx)
    asserts.false(env, _DIFFERENT_RULES_EQUAL, "native.cc_library == native.cc_binary: the checks prove nothing")
    for what, ok in checks:
        asserts.true(env, ok, "%s is not the native symbol it stands for" % what)
    return unittest.end(env)

def _rules_cc_impl(ctx):
    return _check_all(ctx, _RULES_CC_CHECKS)

rules_cc_test = unittest.make(_rules_cc_impl)

def _rules_python_impl(ctx):
    return _check_all(ctx, _RULES_PYTHON_CHECKS)

rules_python_test = unittest.make(_rules_python_impl)

def _rules_shell_impl(ctx):
    return _check_all(ctx, _RULES_SHELL_CHECKS)

rules_shell_test = unittest.make(_rules_shell_impl)

def shims_test_suite(name):
    """Declares the shims' unit tests and a test_suite `name` of them.

    Args:
      name: str: the test_suite's name.
    """
    unittest.suite(
        name,
        rules_cc_test,
        rules_python_test,
        rules_shell_test,
    )
