"""Implementation of `autograd_codegen`: runs gradgen's codegen as one Bazel action.

The YAML specs and the codegen (with its templates, as runfiles of the tool) are the action's
only inputs; every generated file is declared before the build runs (their names depend only on
`shards`), so downstream compile actions are ordinary, cacheable C++ actions.
"""

AutogradCodegenInfo = provider(
    doc = "The files an autograd_codegen target generated.",
    fields = {
        "headers": "depset[File]: Functions.h (and Functions_<k>.h per shard), VariableType.h, NativeFunctions.h.",
        "sources": "depset[File]: Functions[_<k>].cpp and VariableType[_<k>].cpp, one of each per shard.",
        "manifest": "File: manifest.json, every Backward node with its inputs' index ranges and saved members.",
        "include_prefix": "string: what generated code is included as: `#include \"<include_prefix>/VariableType.h\"`.",
        "namespace": "string: C++ namespace of the generated API.",
    },
)

_GRADGEN_FORMULA_HEADERS = ["csrc/autograd/formulas.h"]
_GRADGEN_FORMULA_NAMESPACES = ["::gradgen::autograd::generated::details"]

def _shard_suffix(k, shards):
    return "" if shards == 1 else "_%d" % k

def generated_file_names(shards):
    """Returns (headers, sources) generated for `shards`; mirrors gen_autograd.output_names()."""
    headers = ["Functions.h", "VariableType.h", "NativeFunctions.h"]
    sources = []
    for k in range(shards):
        sfx = _shard_suffix(k, shards)
        sources += ["Functions%s.cpp" % sfx, "VariableType%s.cpp" % sfx]
        if shards > 1:
            headers.append("Functions%s.h" % sfx)
    return headers, sources

def _check_attrs(ctx):
    out_dir = ctx.attr.out_dir
    if not out_dir or out_dir.startswith("/") or ".." in out_dir.split("/") or out_dir.endswith("/"):
        fail("out_dir = %r: give a relative directory inside the package, such as \"generated\"" % out_dir)
    if ctx.attr.shards < 1 or ctx.attr.shards > 256:
        fail("shards = %d: give a number from 1 to 256 (one .cpp per shard for nodes, one for the API)" % ctx.attr.shards)
    ns = ctx.attr.namespace
    if not ns or not all([part and (part[0].isalpha() or part[0] == "_") and part.replace("_", "a").isalnum() for part in ns.split("::")]):
        fail("namespace = %r: give a C++ namespace such as \"gradgen\" or \"myproject::ops\"" % ns)

def _autograd_codegen_impl(ctx):
    _check_attrs(ctx)
    header_names, source_names = generated_file_names(ctx.attr.shards)
    prefix = ctx.attr.out_dir + "/"
    headers = [ctx.actions.declare_file(prefix + n) for n in header_names]
    sources = [ctx.actions.declare_file(prefix + n) for n in source_names]
    manifest = ctx.actions.declare_file(prefix + "manifest.json")

    # Generated files include each other as "<package>/<out_dir>/X.h": the package path, relative
    # to its repository's root, which Bazel puts on the include path for bin-dir files too.
    package = ctx.label.package
    include_prefix = (package + "/" + ctx.attr.out_dir) if package else ctx.attr.out_dir

    args = ctx.actions.args()
    args.add("--native_functions", ctx.file.functions)
    args.add("--native_functions_name", ctx.file.functions.short_path)
    args.add("--derivatives", ctx.file.derivatives)
    args.add("--derivatives_name", ctx.file.derivatives.short_path)
    args.add("--out_dir", manifest.dirname)
    args.add("--include_prefix", include_prefix)
    args.add("--namespace", ctx.attr.namespace)
    args.add("--shards", str(ctx.attr.shards))
    # gradgen's own helpers (csrc/autograd/formulas.h) always, then the user's.
    args.add_all(_GRADGEN_FORMULA_HEADERS + ctx.attr.formula_headers, before_each = "--formula_header")
    args.add_all(_GRADGEN_FORMULA_NAMESPACES + ctx.attr.formula_namespaces, before_each = "--formula_namespace")
    if ctx.attr.missing_derivative != "error":
        args.add("--missing_derivative", ctx.attr.missing_derivative)

    ctx.actions.run(
        executable = ctx.executable._codegen,
        arguments = [args],
        inputs = [ctx.file.functions, ctx.file.derivatives],
        outputs = headers + sources + [manifest],
        mnemonic = "GradgenCodegen",
        progress_message = "Generating autograd code from %s" % ctx.file.derivatives.short_path,
        env = {
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
        },
    )
    return [
        DefaultInfo(files = depset(headers + sources + [manifest])),
        AutogradCodegenInfo(
            headers = depset(headers),
            sources = depset(sources),
            manifest = manifest,
            include_prefix = include_prefix,
            namespace = ctx.attr.namespace,
        ),
        OutputGroupInfo(
            headers = depset(headers),
            sources = depset(sources),
            manifest = depset([manifest]),
        ),
    ]

autograd_codegen = rule(
    implementation = _autograd_codegen_impl,
    doc = """Generates C++ autograd code from op declarations and derivative formulas.

Outputs, under `<package>/<out_dir>/`: Functions.h, Functions[_<k>].h/.cpp (Backward nodes),
VariableType.h, VariableType[_<k>].cpp (the differentiable API), NativeFunctions.h (kernel
declarations you implement) and manifest.json. Output groups: `headers`, `sources`, `manifest`.
""",
    attrs = {
        "functions": attr.label(
            doc = "Label: the op declarations, PyTorch's native_functions.yaml language.",
            allow_single_file = [".yaml", ".yml"],
            mandatory = True,
        ),
        "derivatives": attr.label(
            doc = "Label: the derivative formulas, PyTorch's derivatives.yaml language.",
            allow_single_file = [".yaml", ".yml"],
            mandatory = True,
        ),
        "out_dir": attr.string(
            doc = "string: directory, relative to the package, that receives the generated files. Two targets in one package need different ones.",
            default = "generated",
        ),
        "shards": attr.int(
            doc = "int: how many .cpp files nodes and API are each split into; an edit to one formula recompiles one shard's files.",
            default = 1,
        ),
        "namespace": attr.string(
            doc = "string: C++ namespace of the generated API and nodes (`<namespace>::autograd::generated`).",
            default = "gradgen",
        ),
        "formula_headers": attr.string_list(
            doc = "list[string]: headers (as included) that declare the helpers your formulas call; gradgen's own helpers are always included.",
            default = [],
        ),
        "formula_namespaces": attr.string_list(
            doc = "list[string]: namespaces of your formula helpers, made visible in the generated Functions*.cpp.",
            default = [],
        ),
        "missing_derivative": attr.string(
            doc = "string: what a Tensor-returning op without formulas (and not flagged DONT_REQUIRE_DERIVATIVE) gets: \"error\" (a build error) or \"not_implemented\" (raises when its gradient is needed).",
            default = "error",
            values = ["error", "not_implemented"],
        ),
        "_codegen": attr.label(
            default = Label("//tools/codegen:gen_autograd"),
            executable = True,
            cfg = "exec",
        ),
    },
)
