"""Implementation of `autograd_library`: codegen + the user's kernels + runtime, one cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")
load("@rules_python//python:defs.bzl", "py_library")
load(":codegen.bzl", "autograd_codegen")
load(":contract.bzl", "MAX_SHARDS")
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

    Creates `<name>_codegen` (an autograd_codegen target) and the cc_library `<name>`. Your `srcs`
    implement the kernels declared in the generated `<package>/<out_dir>/NativeFunctions.h`
    (`<namespace>::native::<op>`); your formulas may call helpers declared in your `hdrs` (list
    those headers in `formula_headers`). Code using the library includes
    `"<package>/<out_dir>/VariableType.h"` and calls `<namespace>::<op>(...)`.

    The generated code is compiled in parts, so that a compile declares only the headers it
    includes (a remote cache keys an action on every declared input): `<name>_api`
    (`VariableType.h`, `NativeFunctions.h`, your `hdrs`, over `deps` and the runtime), one
    `<name>_shard_<k>` per shard (its `Functions_<k>.cpp`, `VariableType_<k>.cpp` and
    `Functions_<k>.h`, `alwayslink`) or, with `shards` unset, the one `<name>_shards`,
    `<name>_kernels` (your `srcs`, over `<name>_api`) and `<name>` (the umbrella `Functions.h`
    over all of them: what you depend on). Your `srcs` therefore see `VariableType.h`,
    `NativeFunctions.h` and your `hdrs`, not the nodes' headers. With `python_module`, also the
    extension module and the py_library `<name>_py`.

    Args:
      name: str: the cc_library's name.
      functions: Label: op declarations (native_functions.yaml language).
      derivatives: Label: derivative formulas (derivatives.yaml language).
      srcs: list[Label]: your kernels and formula helpers (.cc).
      hdrs: list[Label]: your headers, e.g. the one declaring formula helpers.
      deps: list[Label]: other cc_library targets your sources need.
      shards: int: how many .cpp files generated code is split into (see autograd_codegen); each
        shard is a cc_library `<name>_shard_<k>` whose compiles declare only its own header.
        None: chosen from the spec's size (one shard per 64 declarations), compiled by the one
        cc_library `<name>_shards`, one compile action per file.
      out_dir: str: directory, relative to the package, for the generated files.
      namespace: str: C++ namespace of the generated API.
      formula_headers: list[str]: your headers (as included, e.g. "ops/formulas.h") declaring
        formula helpers.
      formula_namespaces: list[str]: namespaces of those helpers.
      formula_functions: list[str]: names your formulas call that no header of srcs, hdrs, deps
        or the runtime declares (every other name a formula calls is checked: a misspelt helper
        is a build error at its line of derivatives.yaml).
      missing_derivative: str: "error" or "not_implemented" (see autograd_codegen).
      runtime: Label: what the generated code links against; default @gradgen//csrc:autograd
        (the runtime plus gradgen's own ops, which your formulas may call).
      python_module: str: also build a Python extension module of this name (a Python module
        name such as "polyval_ops_py", or a path "mypkg/_ops" for `import mypkg._ops`) binding
        every op as `module.<op>(...)` and the method variants on gradgen.Tensor, plus the
        py_library `<name>_py` (put it in a py_test's deps; it brings @gradgen//python:gradgen).
        None: no Python module.
      test_samples: Label: a samples file (docs/samples.md): also define the cc_test
        `<name>_gradcheck_test`, generated from it, which runs gradcheck, gradgradcheck,
        fwgradcheck, the Tensor[] slots, in-place and out= checks on every sample.
      require_samples: bool: with test_samples, `<name>_gradcheck_test` fails naming every
        declaration with formulas and no samples (False: it only lists them).
      copts: list[str]: extra compiler options for the cc_library.
      visibility: list[Label]: as for any rule; given to `<name>`, `<name>_codegen`, the parts
        above and the Python module.
      testonly: bool: as for any rule; given to every target created.
      tags: list[str]: as for any rule; given to every target created.
      **kwargs: passed to the cc_library (linkopts, defines, ...).
    """
    if type(srcs) != type([]) or type(hdrs) != type([]) or type(deps) != type([]):
        fail("autograd_library %s: srcs, hdrs and deps must be lists of labels" % name)
    if shards == None:
        shards = 0
    elif type(shards) != type(0) or shards < 1:
        fail("autograd_library %s: shards = %r: give a number from 1 to %d, or leave it unset to let the spec's size choose" % (name, shards, MAX_SHARDS))
    codegen = name + "_codegen"
    autograd_codegen(
        name = codegen,
        functions = functions,
        derivatives = derivatives,
        shards = shards,
        out_dir = out_dir,
        namespace = namespace,
        formula_headers = formula_headers,
        formula_namespaces = formula_namespaces,
        formula_functions = formula_functions,
        environment_hdrs = srcs + hdrs,
        environment_deps = deps + [runtime if runtime != None else Label("//csrc:autograd")],
        missing_derivative = missing_derivative,
        samples = test_samples,
        require_samples = require_samples,
        visibility = visibility,
        testonly = testonly,
        tags = tags,
    )
    native.filegroup(
        name = name + "_generated_headers",
        srcs = [":" + codegen],
        output_group = "headers",
        testonly = testonly,
        tags = tags,
    )
    native.filegroup(
        name = name + "_generated_sources",
        srcs = [":" + codegen],
        output_group = "sources",
        testonly = testonly,
        tags = tags,
    )
    for group in ("python_headers", "python_sources"):
        native.filegroup(
            name = name + "_generated_" + group,
            srcs = [":" + codegen],
            output_group = group,
            testonly = testonly,
            tags = tags,
        )
    if python_module != None:
        _python_module(name, python_module, namespace, visibility, testonly, tags)
    if test_samples != None:
        native.filegroup(
            name = name + "_generated_gradcheck_test",
            srcs = [":" + codegen],
            output_group = "gradcheck_test",
            testonly = True,
            tags = tags,
        )
        cc_test(
            name = name + "_gradcheck_test",
            size = "small",
            srcs = [":" + name + "_generated_gradcheck_test"],
            deps = [":" + name, Label("//csrc:testing")],
            copts = copts,
            visibility = visibility,
            tags = tags,
        )

    # Note [Per-shard libraries]: a compile action's inputs are every header of its cc_library
    # and of that library's deps, and a remote cache keys the action on all of them (only a local
    # build prunes them to what the .d file lists). So the generated code is split into
    # libraries whose compiles declare only what they include:
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
    compile_kwargs = {k: v for k, v in kwargs.items() if k in _COMPILE_ONLY_KWARGS}
    api_kwargs = {k: v for k, v in kwargs.items() if k not in _LINK_KWARGS}
    link_kwargs = {k: v for k, v in kwargs.items() if k in _LINK_KWARGS or k in _COMPILE_ONLY_KWARGS}
    native.filegroup(
        name = name + "_generated_api_headers",
        srcs = [":" + codegen],
        output_group = "api_headers",
        testonly = testonly,
        tags = tags,
    )
    cc_library(
        name = name + "_api",
        hdrs = hdrs + [":" + name + "_generated_api_headers"],
        deps = deps + [runtime or Label("//csrc:autograd")],
        copts = copts,
        visibility = visibility,
        testonly = testonly,
        tags = tags,
        **api_kwargs
    )
    shard_libs = []
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
            deps = [":" + name + "_api"],
            copts = copts,
            alwayslink = True,
            linkstatic = True,
            visibility = visibility,
            testonly = testonly,
            tags = tags,
            **compile_kwargs
        )
        shard_libs.append(":" + name + "_shards")
    for k in range(shards):
        for kind in ("headers", "sources"):
            native.filegroup(
                name = "%s_shard_%d_%s" % (name, k, kind),
                srcs = [":" + codegen],
                output_group = "shard_%d_%s" % (k, kind),
                testonly = testonly,
                tags = tags,
            )
        cc_library(
            name = "%s_shard_%d" % (name, k),
            srcs = [":%s_shard_%d_sources" % (name, k)],
            hdrs = [":%s_shard_%d_headers" % (name, k)],
            deps = [":" + name + "_api"],
            copts = copts,
            alwayslink = True,
            visibility = visibility,
            testonly = testonly,
            tags = tags,
            **compile_kwargs
        )
        shard_libs.append(":%s_shard_%d" % (name, k))
    kernels = []
    if srcs:
        cc_library(
            name = name + "_kernels",
            srcs = srcs,
            deps = [":" + name + "_api"],
            copts = copts,
            visibility = visibility,
            testonly = testonly,
            tags = tags,
            **compile_kwargs
        )
        kernels = [":" + name + "_kernels"]
    native.filegroup(
        name = name + "_generated_root_header",
        srcs = [":" + codegen],
        output_group = "root_header",
        testonly = testonly,
        tags = tags,
    )
    cc_library(
        name = name,
        # With one shard Functions.h is that shard's header (in <name>_shard_0).
        hdrs = [":" + name + "_generated_root_header"] if shards != 1 else [],
        deps = shard_libs + kernels + [":" + name + "_api"],
        copts = copts,
        visibility = visibility,
        testonly = testonly,
        tags = tags,
        **link_kwargs
    )

# cc_library attributes that only matter where a library links (given to <name>), and those that
# only matter to its own compiles (given to every compiling part); the rest go to <name>_api,
# whose headers (your hdrs) and defines reach every part.
_LINK_KWARGS = ["linkopts", "linkstatic", "linkstamp", "alwayslink", "additional_linker_inputs", "win_def_file"]
_COMPILE_ONLY_KWARGS = ["local_defines", "features", "target_compatible_with", "exec_compatible_with", "compatible_with", "restricted_to"]

def _python_module(name, module, namespace, visibility, testonly, tags):
    """The extension module `module` of autograd_library `name`, and its py_library."""
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
