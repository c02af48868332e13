"""Implementation of `autograd_library`: codegen + the user's kernels + runtime, one cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")
load("@rules_python//python:defs.bzl", "py_library")
load(":codegen.bzl", "autograd_codegen")
load(":contract.bzl", "MAX_SHARDS")
load(":pytest.bzl", "py_pytest")
load(":python.bzl", "BINDINGS_COPTS", "gradgen_py_extension")

def autograd_library(
        name,
        functions,
        derivatives,
        srcs = [],
        hdrs = [],
        deps = [],
        shards = None,
        out_dir = "generated",
        namespace = "gradgen",
        formula_headers = [],
        formula_namespaces = [],
        formula_functions = [],
        missing_derivative = "error",
        runtime = None,
        python_module = None,
        test_samples = None,
        require_samples = True,
        copts = [],
        visibility = None,
        testonly = None,
        tags = None,
        **kwargs):
    """A cc_library of generated autograd code for your ops, your kernels and the gradgen runtime.

    Your `srcs` implement the kernels of the generated `<package>/<out_dir>/NativeFunctions.h`; code
    using the library includes `"<package>/<out_dir>/VariableType.h"`. The targets (why these:
    docs/architecture.md): `<name>_codegen`, `<name>_api` (`VariableType.h`, `NativeFunctions.h`,
    your `hdrs`), `<name>_shard_<k>` per shard (or `<name>_shards`), `<name>_kernels` (your `srcs`,
    which see the API's headers, not the nodes') and `<name>` (`Functions.h` over all: depend on it).

    Args:
      name: str: the cc_library's name.
      functions: Label: op declarations (native_functions.yaml language).
      derivatives: Label: derivative formulas (derivatives.yaml language).
      srcs: list[Label]: your kernels and formula helpers (.cc).
      hdrs: list[Label]: your headers, e.g. the one declaring formula helpers.
      deps: list[Label]: other cc_library targets your sources need.
      shards: int: as autograd_codegen's, one `<name>_shard_<k>` each; None: the spec's size chooses.
      out_dir: str: as autograd_codegen's.
      namespace: str: as autograd_codegen's.
      formula_headers: list[str]: as autograd_codegen's: your headers declaring formula helpers.
      formula_namespaces: list[str]: as autograd_codegen's: namespaces of those helpers.
      formula_functions: list[str]: names formulas call that no header of srcs, hdrs, deps, runtime declares.
      missing_derivative: str: as autograd_codegen's: "error" or "not_implemented".
      runtime: Label: what the generated code links against; default @gradgen//csrc:autograd.
      python_module: str: also this extension module ("my_ops_py", "pkg/_ops") and `<name>_py` (docs/python-api.md).
      test_samples: Label: a samples file: also the cc_test `<name>_gradcheck_test` (docs/samples.md),
        and with `python_module` the pytest `<name>_py_gradcheck_test` (the same samples through the bindings).
      require_samples: bool: as autograd_codegen's, for `<name>_gradcheck_test`.
      copts: list[str]: extra compiler options for every part.
      visibility: list[Label]: given to `<name>`, `<name>_codegen`, the parts and the module.
      testonly: bool: given to every target created.
      tags: list[str]: given to every target created.
      **kwargs: passed to the cc_library (linkopts, defines, ...).
    """
    shards, runtime = _checked_args(name, srcs, hdrs, deps, shards, runtime)
    common = {"testonly": testonly, "tags": tags}
    autograd_codegen(
        name = name + "_codegen",
        functions = functions,
        derivatives = derivatives,
        shards = shards,
        out_dir = out_dir,
        namespace = namespace,
        formula_headers = formula_headers,
        formula_namespaces = formula_namespaces,
        formula_functions = formula_functions,
        environment_hdrs = srcs + hdrs,
        environment_deps = deps + [runtime],
        missing_derivative = missing_derivative,
        samples = test_samples,
        require_samples = require_samples,
        python_module = python_module or "",
        visibility = visibility,
        **common
    )
    _python_module(name, python_module, namespace, visibility, testonly, tags)
    _gradcheck_tests(name, test_samples, python_module, copts, visibility, tags)
    _compiled_parts(name, srcs, hdrs, deps + [runtime], shards, copts, visibility, common, kwargs)

def _checked_args(name, srcs, hdrs, deps, shards, runtime):
    """Fails on arguments of the wrong type; returns `shards` as autograd_codegen takes it, and the runtime."""
    if type(srcs) != type([]) or type(hdrs) != type([]) or type(deps) != type([]):
        fail("autograd_library %s: srcs, hdrs and deps must be lists of labels" % name)
    runtime = runtime or Label("//csrc:autograd")
    if shards == None:
        return 0, runtime
    if type(shards) != type(0) or shards < 1:
        fail("autograd_library %s: shards = %r: give a number from 1 to %d, or leave it unset to let the spec's size choose" % (name, shards, MAX_SHARDS))
    return shards, runtime

def _file_group(name, library, group, common):
    """The filegroup `name` of output group `group` of `<library>_codegen`; returns its label."""
    native.filegroup(name = name, srcs = [":%s_codegen" % library], output_group = group, **common)
    return ":" + name

def _generated_file_groups(name, shards, common):
    """A filegroup per output group of `<name>_codegen` that the parts compile (and tests read).

    They are `<name>_generated_<group>`, and per shard `<name>_shard_<k>_headers` and `_sources`.
    """
    for group in ("headers", "sources", "python_headers", "python_sources", "api_headers", "root_header"):
        _file_group("%s_generated_%s" % (name, group), name, group, common)
    for k in range(shards):
        for kind in ("headers", "sources"):
            _file_group("%s_shard_%d_%s" % (name, k, kind), name, "shard_%d_%s" % (k, kind), common)

def _gradcheck_tests(name, samples, module, copts, visibility, tags):
    """The tests generated from autograd_library `name`'s `samples`, if any.

    They are the cc_test `<name>_gradcheck_test`, and with `module` the pytest
    `<name>_py_gradcheck_test` (the same samples through the bindings).
    """
    if samples == None:
        return
    test_common = {"testonly": True, "tags": tags}
    cc_test(
        name = name + "_gradcheck_test",
        size = "small",
        srcs = [_file_group(name + "_generated_gradcheck_test", name, "gradcheck_test", test_common)],
        deps = [":" + name, Label("//csrc:testing")],
        copts = copts,
        visibility = visibility,
        tags = tags,
    )
    if module == None:
        return
    py_pytest(
        name = name + "_py_gradcheck_test",
        size = "small",
        srcs = [_file_group(name + "_generated_py_gradcheck_test", name, "gradcheck_py_test", test_common)],
        deps = [":" + name + "_py"],
        visibility = visibility,
        tags = tags,
    )

# Note [Per-shard libraries]: a compile action's inputs are every header of its cc_library and of
# that library's deps, and a remote cache keys the action on all of them (only a local build
# prunes them to what the .d file lists). So the generated code is split into libraries whose
# compiles declare only what they include:
#   <name>_api       VariableType.h, NativeFunctions.h and your hdrs (over deps + runtime);
#                    they change only when declarations change
#   <name>_shard_<k> Functions_<k>.cpp and VariableType_<k>.cpp, with Functions_<k>.h (what
#                    shard k's nodes save) as its only other generated header
#                    (with `shards` unset: <name>_shards, every shard's files, each with
#                    its nodes' declarations inlined, one compile action per file)
#   <name>_kernels   your srcs, over <name>_api
#   <name>           Functions.h (every shard's header) over all of them: what users depend on
# An edit that changes what one node saves then changes the inputs of that shard's two
# compiles and of code including Functions.h, nothing else. Shards are `alwayslink`: your
# kernels and formula helpers call the generated API and the API calls your kernels, a cycle
# that static archives resolve only with the shards' objects linked whole.
def _compiled_parts(name, srcs, hdrs, deps, shards, copts, visibility, common, kwargs):
    """The file groups and cc_library targets of autograd_library `name`.

    Note [Per-shard libraries] says which; `deps` includes the runtime, `common` holds testonly and
    tags, `kwargs` is the macro's own.
    """
    _generated_file_groups(name, shards, common)
    api = ":" + name + "_api"
    cc_library(
        name = name + "_api",
        hdrs = hdrs + [":" + name + "_generated_api_headers"],
        deps = deps,
        copts = copts,
        visibility = visibility,
        **_merged(common, {k: v for k, v in kwargs.items() if k not in _LINK_KWARGS})
    )

    # What every compiling part below <name> gets.
    part = _merged(common, {k: v for k, v in kwargs.items() if k in _COMPILE_ONLY_KWARGS})
    part.update(deps = [api], copts = copts, visibility = visibility)
    parts = []
    if shards == 0:
        # Note [Automatic shard count] (tools/codegen/gen_autograd.py): the shards' files are one
        # directory, and each of them is compiled in an action of its own whose inputs are that
        # file and the API's headers (each shard's node declarations are in its own files).
        # linkstatic: a shared library of a directory's objects comes out empty (Bazel links it
        # with the gold linker, bazelbuild/bazel#14843), so the shards' objects are linked, whole,
        # into what links this library instead.
        cc_library(
            name = name + "_shards",
            srcs = [":" + name + "_generated_sources"],
            alwayslink = True,
            linkstatic = True,
            **part
        )
        parts.append(":" + name + "_shards")
    for k in range(shards):
        shard = "%s_shard_%d" % (name, k)
        cc_library(
            name = shard,
            srcs = [":%s_sources" % shard],
            hdrs = [":%s_headers" % shard],
            alwayslink = True,
            **part
        )
        parts.append(":" + shard)
    if srcs:
        cc_library(name = name + "_kernels", srcs = srcs, **part)
        parts.append(":" + name + "_kernels")
    cc_library(
        name = name,
        # With one shard Functions.h is that shard's header (in <name>_shard_0).
        hdrs = [":" + name + "_generated_root_header"] if shards != 1 else [],
        deps = parts + [api],
        copts = copts,
        visibility = visibility,
        **_merged(common, {k: v for k, v in kwargs.items() if k in _LINK_KWARGS or k in _COMPILE_ONLY_KWARGS})
    )

def _merged(a, b):
    """A new dict of `a`'s entries and then `b`'s."""
    out = dict(a)
    out.update(b)
    return out

# cc_library attributes that only matter where a library links (given to <name>), and those that
# only matter to its own compiles (given to every compiling part); the rest go to <name>_api,
# whose headers (your hdrs) and defines reach every part.
_LINK_KWARGS = ["linkopts", "linkstatic", "linkstamp", "alwayslink", "additional_linker_inputs", "win_def_file"]
_COMPILE_ONLY_KWARGS = ["local_defines", "features", "target_compatible_with", "exec_compatible_with", "compatible_with", "restricted_to"]

def _python_module(name, module, namespace, visibility, testonly, tags):
    """The extension module `module` of autograd_library `name`, and its py_library; None: none."""
    if module == None:
        return
    if type(module) != type("") or not module or module.startswith("/") or module.endswith(".so"):
        fail("autograd_library %s: python_module = %r: give a module name such as \"%s_py\" or a path such as \"mypkg/_ops\" (no .so)" % (name, module, name))
    for part in module.split("/"):
        if not part or not (part[0].isalpha() or part[0] == "_") or not part.replace("_", "a").isalnum():
            fail("autograd_library %s: python_module = %r: %r is not a Python identifier" % (name, module, part))

    # nanobind's API keeps per-module state, so the generated bindings link into the module
    # itself (linkstatic); the library and the runtime stay shared (see gradgen_py_extension).
    cc_library(
        name = name + "_python_bindings",
        srcs = [":" + name + "_generated_python_sources"],
        hdrs = [":" + name + "_generated_python_headers"],
        copts = BINDINGS_COPTS,
        linkstatic = True,
        # The API's headers only (not every shard's), so an edit of what a node saves leaves
        # the bindings' compiles alone; the module links the library itself.
        deps = [":" + name + "_api", Label("//csrc/python:bind")],
        visibility = ["//visibility:private"],
        testonly = testonly,
        tags = tags,
    )
    gradgen_py_extension(
        name = module + ".so",
        deps = [":" + name + "_python_bindings", ":" + name],
        bind_function = namespace + "::python::bind_generated",
        visibility = visibility,
        testonly = testonly,
        tags = tags,
    )
    py_library(
        name = name + "_py",
        data = [":" + module + ".so"],
        imports = ["."],
        deps = [Label("//python:gradgen")],
        visibility = visibility,
        testonly = testonly,
        tags = tags,
    )
