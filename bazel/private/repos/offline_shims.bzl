"""Offline stand-ins for repositories that Bazel 4.2.3 would otherwise download.

Bazel's own `@bazel_tools` refers to `@rules_cc`, `@rules_java` and `@remote_coverage_tools`, and
in WORKSPACE mode Bazel fetches them from the network the first time they are needed. These
machines have no network but package registries, so each is replaced by a tiny repository written
here: the shims re-export the rules that are native in 4.2.3 and carry no third-party source.

gradgen's BUILD and .bzl files load every rule the way newer Bazels require: `cc_*` from
`@rules_cc//cc:defs.bzl`, `py_*` from `@rules_python//python:defs.bzl`, `sh_*` from
`@rules_shell//shell:sh_*.bzl`, `CcInfo` from `@rules_cc//cc/common:cc_info.bzl`. Here those
files re-export the native rules; on a Bazel whose rules live in the real rule sets, the same
BUILD files load the real ones unchanged.

To keep them small, only what `@bazel_tools` and gradgen's own files load is provided, plus the
one-rule-per-file `.bzl` files (`@rules_cc//cc:cc_library.bzl`, ...) that `buildifier
--lint=fix` writes loads from. Java rules are deliberately unsupported (they need
`remote_java_tools`).
"""

_RULES_CC_DEFS = '''\
"""Re-exports Bazel 4.2.3's native C++ rules (gradgen's offline stand-in for rules_cc)."""

cc_binary = native.cc_binary
cc_import = native.cc_import
cc_library = native.cc_library
cc_proto_library = native.cc_proto_library
cc_test = native.cc_test
cc_toolchain = native.cc_toolchain
cc_toolchain_suite = native.cc_toolchain_suite
fdo_prefetch_hints = native.fdo_prefetch_hints
fdo_profile = native.fdo_profile
objc_import = native.objc_import
objc_library = native.objc_library
'''

# `CcInfo = CcInfo` cannot be written in one file (its right side would name the file's own,
# not yet assigned global), so a private file gives the native symbols other names first, as
# rules_cc itself does.
_RULES_CC_NATIVE = '''\
"""Bazel 4.2.3's native C++ symbols under other names (re-exported by //cc/common)."""

NativeCcInfo = CcInfo
native_cc_common = cc_common
'''

_RULES_CC_CC_INFO = '''\
"""Re-exports Bazel 4.2.3's native CcInfo (gradgen's offline stand-in for rules_cc)."""

load("//cc/private:native.bzl", "NativeCcInfo")

CcInfo = NativeCcInfo
'''

_RULES_CC_CC_COMMON = '''\
"""Re-exports Bazel 4.2.3's native cc_common (gradgen's offline stand-in for rules_cc)."""

load("//cc/private:native.bzl", "native_cc_common")

cc_common = native_cc_common
'''

# One rule per file, e.g. cc/cc_library.bzl (what buildifier's native-cc-* fixes load).
_RULES_CC_ONE_RULE = '''\
"""Re-exports Bazel 4.2.3's native {rule} (gradgen's offline stand-in for rules_cc)."""

{rule} = native.{rule}
'''

_RULES_CC_ONE_RULE_NAMES = ["cc_binary", "cc_import", "cc_library", "cc_test"]

_RULES_PYTHON_NATIVE = '''\
"""Bazel 4.2.3's native Python providers under other names (re-exported by //python:defs.bzl)."""

NativePyInfo = PyInfo
NativePyRuntimeInfo = PyRuntimeInfo
'''

_RULES_PYTHON_DEFS = '''\
"""Re-exports Bazel 4.2.3's native Python rules (gradgen's offline stand-in for rules_python)."""

load("@bazel_tools//tools/python:toolchain.bzl", _py_runtime_pair = "py_runtime_pair")
load("//python/private:native.bzl", "NativePyInfo", "NativePyRuntimeInfo")

PyInfo = NativePyInfo
PyRuntimeInfo = NativePyRuntimeInfo
py_binary = native.py_binary
py_library = native.py_library
py_runtime = native.py_runtime
py_runtime_pair = _py_runtime_pair
py_test = native.py_test
'''

# One rule per file, e.g. python/py_library.bzl, as rules_python also has them.
_RULES_PYTHON_ONE_RULE = '''\
"""Re-exports {rule} of //python:defs.bzl (gradgen's offline stand-in for rules_python)."""

load("//python:defs.bzl", _{rule} = "{rule}")

{rule} = _{rule}
'''

_RULES_PYTHON_ONE_RULE_NAMES = ["py_binary", "py_library", "py_runtime", "py_runtime_pair", "py_test"]

_RULES_SHELL_ONE_RULE = '''\
"""Re-exports Bazel 4.2.3's native {rule} (gradgen's offline stand-in for rules_shell)."""

{rule} = native.{rule}
'''

_RULES_SHELL_ONE_RULE_NAMES = ["sh_binary", "sh_library", "sh_test"]

_RULES_JAVA_DEFS = '''\
"""Re-exports Bazel 4.2.3's native Java rules (gradgen's offline stand-in for rules_java).

Only loading has to work: building Java needs remote_java_tools, which is not available offline.
"""

java_binary = native.java_binary
java_import = native.java_import
java_library = native.java_library
java_lite_proto_library = native.java_lite_proto_library
java_package_configuration = native.java_package_configuration
java_plugin = native.java_plugin
java_proto_library = native.java_proto_library
java_runtime = native.java_runtime
java_test = native.java_test
java_toolchain = native.java_toolchain
'''

_COVERAGE_STUB = '''\
#!/bin/sh
echo "$0: coverage is not available offline (gradgen replaces @remote_coverage_tools with a stub)" >&2
exit 1
'''

_COVERAGE_BUILD = '''\
# gradgen's offline stand-in for @remote_coverage_tools: `bazel test` names these targets as
# implicit dependencies; only `bazel coverage` would run them, and then they fail loudly.
package(default_visibility = ["//visibility:public"])

sh_binary(
    name = "coverage_report_generator",
    srcs = ["coverage_unavailable.sh"],
)

sh_binary(
    name = "lcov_merger",
    srcs = ["coverage_unavailable.sh"],
)

filegroup(
    name = "coverage_output_generator",
    srcs = ["coverage_unavailable.sh"],
)
'''

def _write_files(repository_ctx, files):
    """Writes `files` (dict[str, str]: path in the repository -> content) plus a WORKSPACE file."""
    repository_ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % repository_ctx.name)
    for path, content in files.items():
        repository_ctx.file(path, content, executable = path.endswith(".sh"))

def _one_rule_files(package, template, rules):
    """Returns {"<package>/<rule>.bzl": the template for that rule} for each of `rules`."""
    return {"%s/%s.bzl" % (package, rule): template.format(rule = rule) for rule in rules}

_EXPORT_BZL = 'exports_files(glob(["*.bzl"]))\n'

def _rules_cc_shim_impl(repository_ctx):
    files = {
        "BUILD.bazel": "",
        "cc/BUILD.bazel": _EXPORT_BZL,
        "cc/common/BUILD.bazel": _EXPORT_BZL,
        "cc/common/cc_common.bzl": _RULES_CC_CC_COMMON,
        "cc/common/cc_info.bzl": _RULES_CC_CC_INFO,
        "cc/defs.bzl": _RULES_CC_DEFS,
        "cc/private/BUILD.bazel": "",
        "cc/private/native.bzl": _RULES_CC_NATIVE,
    }
    files.update(_one_rule_files("cc", _RULES_CC_ONE_RULE, _RULES_CC_ONE_RULE_NAMES))
    _write_files(repository_ctx, files)

rules_cc_shim = repository_rule(
    implementation = _rules_cc_shim_impl,
    doc = "`@rules_cc` whose `//cc:defs.bzl` re-exports the native C++ rules (no download).",
)

def _rules_python_shim_impl(repository_ctx):
    files = {
        "BUILD.bazel": "",
        "python/BUILD.bazel": _EXPORT_BZL,
        "python/defs.bzl": _RULES_PYTHON_DEFS,
        "python/private/BUILD.bazel": "",
        "python/private/native.bzl": _RULES_PYTHON_NATIVE,
    }
    files.update(_one_rule_files("python", _RULES_PYTHON_ONE_RULE, _RULES_PYTHON_ONE_RULE_NAMES))
    _write_files(repository_ctx, files)

rules_python_shim = repository_rule(
    implementation = _rules_python_shim_impl,
    doc = "`@rules_python` whose `//python:defs.bzl` re-exports the native Python rules (no download).",
)

def _rules_shell_shim_impl(repository_ctx):
    files = {
        "BUILD.bazel": "",
        "shell/BUILD.bazel": _EXPORT_BZL,
    }
    files.update(_one_rule_files("shell", _RULES_SHELL_ONE_RULE, _RULES_SHELL_ONE_RULE_NAMES))
    _write_files(repository_ctx, files)

rules_shell_shim = repository_rule(
    implementation = _rules_shell_shim_impl,
    doc = "`@rules_shell` whose `//shell:sh_*.bzl` re-export the native shell rules (no download).",
)

def _rules_java_shim_impl(repository_ctx):
    _write_files(repository_ctx, {
        "BUILD.bazel": "",
        "java/BUILD.bazel": 'exports_files(["defs.bzl"])\n',
        "java/defs.bzl": _RULES_JAVA_DEFS,
    })

rules_java_shim = repository_rule(
    implementation = _rules_java_shim_impl,
    doc = "`@rules_java` whose `//java:defs.bzl` re-exports the native Java rules (no download).",
)

def _remote_coverage_tools_shim_impl(repository_ctx):
    _write_files(repository_ctx, {
        "BUILD.bazel": _COVERAGE_BUILD,
        "coverage_unavailable.sh": _COVERAGE_STUB,
    })

remote_coverage_tools_shim = repository_rule(
    implementation = _remote_coverage_tools_shim_impl,
    doc = "`@remote_coverage_tools` whose targets fail with \"coverage is not available offline\".",
)
