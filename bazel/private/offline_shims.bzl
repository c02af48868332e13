"""Offline stand-ins for repositories that Bazel 4.2.3 would otherwise download.

Bazel's own `@bazel_tools` refers to `@rules_cc`, `@rules_java` and `@remote_coverage_tools`, and
in WORKSPACE mode Bazel fetches them from the network the first time they are needed. These
machines have no network but package registries, so each is replaced by a tiny repository written
here: the shims re-export the rules that are native in 4.2.3 and carry no third-party source.

To keep them small, only what `@bazel_tools` actually loads during analysis of C++, Python and
shell targets is provided; Java rules are deliberately unsupported (they need `remote_java_tools`).
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

def _rules_cc_shim_impl(repository_ctx):
    _write_files(repository_ctx, {
        "BUILD.bazel": "",
        "cc/BUILD.bazel": 'exports_files(["defs.bzl"])\n',
        "cc/defs.bzl": _RULES_CC_DEFS,
    })

rules_cc_shim = repository_rule(
    implementation = _rules_cc_shim_impl,
    doc = "`@rules_cc` whose `//cc:defs.bzl` re-exports the native C++ rules (no download).",
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
