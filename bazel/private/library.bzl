"""Implementation of `autograd_library`: codegen + the user's kernels + runtime, one cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load(":codegen.bzl", "autograd_codegen")

def autograd_library(
        name,
        functions,
        derivatives,
        srcs = [],
        hdrs = [],
        deps = [],
        shards = 1,
        out_dir = "generated",
        namespace = "gradgen",
        formula_headers = [],
        formula_namespaces = [],
        missing_derivative = "error",
        runtime = None,
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

    Args:
      name: str: the cc_library's name.
      functions: Label: op declarations (native_functions.yaml language).
      derivatives: Label: derivative formulas (derivatives.yaml language).
      srcs: list[Label]: your kernels and formula helpers (.cc).
      hdrs: list[Label]: your headers, e.g. the one declaring formula helpers.
      deps: list[Label]: other cc_library targets your sources need.
      shards: int: how many .cpp files generated code is split into (see autograd_codegen).
      out_dir: str: directory, relative to the package, for the generated files.
      namespace: str: C++ namespace of the generated API.
      formula_headers: list[str]: your headers (as included, e.g. "ops/formulas.h") declaring
        formula helpers.
      formula_namespaces: list[str]: namespaces of those helpers.
      missing_derivative: str: "error" or "not_implemented" (see autograd_codegen).
      runtime: Label: what the generated code links against; default @gradgen//csrc:autograd
        (the runtime plus gradgen's own ops, which your formulas may call).
      copts: list[str]: extra compiler options for the cc_library.
      visibility: list[Label]: as for any rule; given to both targets.
      testonly: bool: as for any rule; given to every target created.
      tags: list[str]: as for any rule; given to every target created.
      **kwargs: passed to the cc_library (linkopts, defines, ...).
    """
    if type(srcs) != type([]) or type(hdrs) != type([]) or type(deps) != type([]):
        fail("autograd_library %s: srcs, hdrs and deps must be lists of labels" % name)
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
        missing_derivative = missing_derivative,
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
    cc_library(
        name = name,
        srcs = srcs + [":" + name + "_generated_sources"],
        hdrs = hdrs + [":" + name + "_generated_headers"],
        deps = deps + [runtime or Label("//csrc:autograd")],
        copts = copts,
        visibility = visibility,
        testonly = testonly,
        tags = tags,
        **kwargs
    )
