"""Implementation of `autograd_codegen`: runs gradgen's codegen as one Bazel action.

The YAML specs and the codegen (with its templates, as runfiles of the tool) are the action's
only inputs; every generated file is declared before the build runs (their names depend only on
`shards`), so downstream compile actions are ordinary, cacheable C++ actions.
"""

load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load(
    ":contract.bzl",
    "CPP_KEYWORDS",
    "DECLARATIONS_PER_SHARD",
    "DEFAULT_FORMULA_HEADERS",
    "DEFAULT_FORMULA_NAMESPACES",
    "GRADCHECK_PY_TEST",
    "GRADCHECK_TEST",
    "HEADERS",
    "IDENTIFIER_CHARS",
    "IDENTIFIER_START_CHARS",
    "MANIFEST",
    "MAX_SHARDS",
    "PATH_COMPONENT_CHARS",
    "PYTHON_HEADERS",
    "PYTHON_SHARDS_DIR",
    "PYTHON_SHARD_SOURCE_STEMS",
    "SHARDS_DIR",
    "SHARD_HEADER_STEM",
    "SHARD_SOURCE_STEMS",
    "SHARD_SUFFIX",
)

AutogradCodegenInfo = provider(
    doc = "The files an autograd_codegen target generated, and how code includes them.",
    fields = {
        "headers": "depset[File]: Functions.h (and Functions_<k>.h per shard), VariableType.h, NativeFunctions.h.",
        "sources": "depset[File]: Functions[_<k>].cpp and VariableType[_<k>].cpp, one of each per shard; for `shards` unset, the directory `shards.cc` (a tree artifact) holding them.",
        "manifest": "File: manifest.json, every Backward node with its inputs' index ranges and saved members.",
        "include_prefix": "string: what generated code is included as: `#include \"<include_prefix>/VariableType.h\"`.",
        "namespace": "string: C++ namespace of the generated API.",
        "shards": "int: the `shards` attribute: how many shards the nodes and the API were split into, or 0 when the spec's size chose (manifest.json's `shards` says how many).",
        "python_headers": "depset[File]: python_functions.h, declaring `<namespace>::python::bind_generated(nanobind::module_&)`.",
        "python_sources": "depset[File]: python_functions[_<k>].cpp, the nanobind bindings of every op (one per shard); for `shards` unset, the directory `python_shards.cc` holding them.",
        "gradcheck_test": "File: gradcheck_test.cpp, the library's generated gradient test (docs/samples.md), or None without `samples`.",
        "gradcheck_py_test": "File: gradcheck_test.py, the same samples through the Python bindings of `python_module` (pytest), or None without `samples` and `python_module`.",
    },
)

_YAML_EXTENSIONS = [".yaml", ".yml"]
_HEADER_EXTENSIONS = [".h", ".hh", ".hpp", ".hxx", ".inc"]

def _shard_suffix(k, shards):
    return "" if shards == 1 else SHARD_SUFFIX % k

def generated_file_names(shards, samples = False, python_samples = False):
    """Returns the names of the files generated for `shards`.

    tools/codegen/contract.py output_names() computes the same list from the same constants
    (contract.bzl); the action is handed this one (`--expected_outputs`) and fails, naming the
    difference, if the two ever disagree.

    Args:
      shards: int: how many .cpp files of each kind the generated code is split into; 0 for the
        automatic choice (the directories SHARDS_DIR and PYTHON_SHARDS_DIR).
      samples: bool: whether a samples file is given (then GRADCHECK_TEST is generated too).
      python_samples: bool: with `samples`, whether a Python module is named (then GRADCHECK_PY_TEST too).

    Returns:
      struct: lists of basenames: `headers`, `sources` (the C++ library's), `python_headers`,
      `python_sources` (the Python bindings'), `all` (every output, the manifest included, with
      directories as `<dir>/`) and `directories` (the directories among `sources` and
      `python_sources`).
    """
    headers = list(HEADERS)
    test = [GRADCHECK_TEST] if samples else []
    if samples and python_samples:
        test.append(GRADCHECK_PY_TEST)
    if shards == 0:
        return struct(
            headers = headers,
            sources = [SHARDS_DIR],
            python_headers = PYTHON_HEADERS,
            python_sources = [PYTHON_SHARDS_DIR],
            all = headers + PYTHON_HEADERS + [MANIFEST, SHARDS_DIR + "/", PYTHON_SHARDS_DIR + "/"] + test,
            directories = [SHARDS_DIR, PYTHON_SHARDS_DIR],
        )
    sources = []
    python_sources = []
    for k in range(shards):
        sfx = _shard_suffix(k, shards)
        sources += ["%s%s.cpp" % (stem, sfx) for stem in SHARD_SOURCE_STEMS]
        python_sources += ["%s%s.cpp" % (stem, sfx) for stem in PYTHON_SHARD_SOURCE_STEMS]
        if shards > 1:
            headers.append("%s%s.h" % (SHARD_HEADER_STEM, sfx))
    return struct(
        headers = headers,
        sources = sources,
        python_headers = PYTHON_HEADERS,
        python_sources = python_sources,
        all = headers + sources + PYTHON_HEADERS + python_sources + [MANIFEST] + test,
        directories = [],
    )

def _is_identifier(s):
    """True if `s` is a C++ identifier and no keyword (contract.py's is_cpp_identifier)."""
    return bool(s) and s[0] in IDENTIFIER_START_CHARS and all([c in IDENTIFIER_CHARS for c in s.elems()]) and s not in CPP_KEYWORDS

def _is_namespace(ns, allow_global_prefix):
    """True if `ns` is `a::b::c` (or `::a::b` when allow_global_prefix)."""
    if allow_global_prefix and ns.startswith("::"):
        ns = ns[2:]
    return bool(ns) and all([_is_identifier(part) for part in ns.split("::")])

def _is_relative_path(path):
    """True if `path` is a normalized relative path: no leading `/`, no `.`/`..`/empty parts."""
    if not path or path.startswith("/") or path.endswith("/"):
        return False
    for part in path.split("/"):
        if part in ("", ".", ".."):
            return False
    return all([c in PATH_COMPONENT_CHARS for c in path.replace("/", "").elems()])

def _has_extension(path, extensions):
    return any([path.endswith(ext) for ext in extensions])

def _check_attrs(ctx):
    """Fails, saying what to change, when an attribute cannot work. Returns nothing."""
    for attr_name in ("functions", "derivatives"):
        f = getattr(ctx.file, attr_name)
        if not _has_extension(f.basename, _YAML_EXTENSIONS):
            fail("%s = %s: expected a YAML spec (a file ending in .yaml or .yml), got %s; give the %s" % (
                attr_name,
                getattr(ctx.attr, attr_name).label,
                f.basename,
                "op declarations (native_functions.yaml language)" if attr_name == "functions" else "derivative formulas (derivatives.yaml language)",
            ))
    if ctx.file.functions == ctx.file.derivatives:
        fail("functions and derivatives are the same file (%s): give the op declarations and the derivative formulas as two files" % ctx.file.functions.short_path)
    out_dir = ctx.attr.out_dir
    if not _is_relative_path(out_dir):
        fail("out_dir = %r: give a relative directory inside the package, such as \"generated\" (letters, digits, _ - . +, separated by /; no leading or trailing /, no . or .. parts)" % out_dir)
    if ctx.attr.shards < 0 or ctx.attr.shards > MAX_SHARDS:
        fail("shards = %d: give a number from 1 to %d (one Functions_<k>.cpp and one VariableType_<k>.cpp per shard), or leave it unset to let the spec's size choose" % (ctx.attr.shards, MAX_SHARDS))
    ns = ctx.attr.namespace
    if not _is_namespace(ns, allow_global_prefix = False):
        fail("namespace = %r: give a C++ namespace such as \"gradgen\" or \"myproject::ops\" (identifiers separated by ::, no leading ::, no keywords)" % ns)
    for i, header in enumerate(ctx.attr.formula_headers):
        if not _is_relative_path(header) or not _has_extension(header, _HEADER_EXTENSIONS):
            fail("formula_headers[%d] = %r: give a header as it is #included, without quotes or angle brackets: a relative path ending in %s, such as \"ops/formulas.h\"" % (
                i,
                header,
                " ".join(_HEADER_EXTENSIONS),
            ))
    for i, ns in enumerate(ctx.attr.formula_namespaces):
        if not _is_namespace(ns, allow_global_prefix = True):
            fail("formula_namespaces[%d] = %r: give a C++ namespace such as \"myproject::formulas\" or \"::myproject::formulas\"" % (i, ns))

def _declare(ctx, names, basenames):
    """Declares `basenames` (of generated_file_names() `names`) under out_dir: files or directories."""
    prefix = ctx.attr.out_dir + "/"
    return [
        ctx.actions.declare_directory(prefix + n) if n in names.directories else ctx.actions.declare_file(prefix + n)
        for n in basenames
    ]

def _declare_outputs(ctx):
    """Declares every generated file; returns them as a struct of lists (and the gradient test)."""
    samples = ctx.file.samples != None
    python_samples = samples and bool(ctx.attr.python_module)
    names = generated_file_names(ctx.attr.shards, samples = samples, python_samples = python_samples)
    prefix = ctx.attr.out_dir + "/"
    return struct(
        names = names,
        headers = _declare(ctx, names, names.headers),
        sources = _declare(ctx, names, names.sources),
        python_headers = _declare(ctx, names, names.python_headers),
        python_sources = _declare(ctx, names, names.python_sources),
        manifest = ctx.actions.declare_file(prefix + MANIFEST),
        gradcheck_test = ctx.actions.declare_file(prefix + GRADCHECK_TEST) if samples else None,
        gradcheck_py_test = ctx.actions.declare_file(prefix + GRADCHECK_PY_TEST) if python_samples else None,
    )

def _all_outputs(out):
    files = out.headers + out.sources + out.python_headers + out.python_sources + [out.manifest]
    return files + [f for f in (out.gradcheck_test, out.gradcheck_py_test) if f]

def _codegen_args(ctx, out, include_prefix, environment):
    """The codegen's command line, in a params file."""
    args = ctx.actions.args()
    args.add("--native_functions", ctx.file.functions)
    args.add("--native_functions_name", ctx.file.functions.short_path)
    args.add("--derivatives", ctx.file.derivatives)
    args.add("--derivatives_name", ctx.file.derivatives.short_path)
    args.add("--out_dir", out.manifest.dirname)
    args.add("--include_prefix", include_prefix)
    args.add("--namespace", ctx.attr.namespace)
    args.add("--shards", str(ctx.attr.shards))

    # gradgen's own helpers (csrc/autograd/formulas.h) always, then the user's.
    args.add_all(DEFAULT_FORMULA_HEADERS + ctx.attr.formula_headers, before_each = "--formula_header")
    args.add_all(DEFAULT_FORMULA_NAMESPACES + ctx.attr.formula_namespaces, before_each = "--formula_namespace")
    args.add_all(environment, before_each = "--formula_environment_header")
    args.add_all(ctx.attr.formula_functions, before_each = "--formula_function")
    if ctx.attr.missing_derivative != "error":
        args.add("--missing_derivative", ctx.attr.missing_derivative)
    if ctx.file.samples != None:
        args.add("--samples", ctx.file.samples)
        args.add("--samples_name", ctx.file.samples.short_path)
        args.add("--require_samples=%s" % ("true" if ctx.attr.require_samples else "false"))
        if ctx.attr.python_module:
            args.add("--python_module", ctx.attr.python_module)
    args.add("--expected_outputs", ",".join(out.names.all))

    # The arguments go into a params file (one per line, read with absl's --flagfile), which lets
    # Bazel run the action in the codegen's persistent worker (tools/codegen/bazel_worker.py):
    # one Python process for every codegen action of a build session instead of one each. With
    # --strategy=GradgenCodegen=sandboxed (or remote execution) it is an ordinary process.
    args.use_param_file("--flagfile=%s", use_always = True)
    args.set_param_file_format("multiline")
    return args

def _output_groups(ctx, out):
    """The output groups autograd_library's parts take their files from."""

    # Per shard, its header and its two sources (Note [Per-shard libraries] in library.bzl):
    # Functions_<k>.h / Functions_<k>.cpp / VariableType_<k>.cpp, or for one shard Functions.h
    # and the two unsuffixed sources. `api_headers` are the headers every shard includes.
    by_name = {f.basename: f for f in out.headers + out.sources}
    shard_groups = {}
    for k in range(ctx.attr.shards):
        sfx = _shard_suffix(k, ctx.attr.shards)
        shard_groups["shard_%d_headers" % k] = depset([by_name["%s%s.h" % (SHARD_HEADER_STEM, sfx)]])
        shard_groups["shard_%d_sources" % k] = depset([by_name["%s%s.cpp" % (stem, sfx)] for stem in SHARD_SOURCE_STEMS])
    return OutputGroupInfo(
        api_headers = depset([by_name[n] for n in HEADERS if n != SHARD_HEADER_STEM + ".h"]),
        root_header = depset([by_name[SHARD_HEADER_STEM + ".h"]]),
        headers = depset(out.headers),
        sources = depset(out.sources),
        python_headers = depset(out.python_headers),
        python_sources = depset(out.python_sources),
        manifest = depset([out.manifest]),
        gradcheck_test = depset([out.gradcheck_test] if out.gradcheck_test else []),
        gradcheck_py_test = depset([out.gradcheck_py_test] if out.gradcheck_py_test else []),
        **shard_groups
    )

def _autograd_codegen_impl(ctx):
    _check_attrs(ctx)
    out = _declare_outputs(ctx)

    # Generated files include each other as "<package>/<out_dir>/X.h": the package path, relative
    # to its repository's root, which Bazel puts on the include path for bin-dir files too.
    package = ctx.label.package
    include_prefix = (package + "/" + ctx.attr.out_dir) if package else ctx.attr.out_dir

    # The formula environment (tools/codegen/formula_env.py): the headers the generated code can
    # include (the library's own, its deps' and its runtime's, transitively) declare what formulas
    # may call besides the spec's ops; a formula calling anything else is a spec error at its line.
    environment = depset(
        [f for f in ctx.files.environment_hdrs if _has_extension(f.basename, _HEADER_EXTENSIONS)],
        transitive = [d[CcInfo].compilation_context.headers for d in ctx.attr.environment_deps],
    )
    spec_inputs = [ctx.file.functions, ctx.file.derivatives] + ([ctx.file.samples] if ctx.file.samples != None else [])
    outputs = _all_outputs(out)
    ctx.actions.run(
        executable = ctx.executable._codegen,
        arguments = [_codegen_args(ctx, out, include_prefix, environment)],
        inputs = depset(spec_inputs, transitive = [environment]),
        outputs = outputs,
        mnemonic = "GradgenCodegen",
        execution_requirements = {"supports-workers": "1"},
        progress_message = "Generating autograd code from %s" % ctx.file.derivatives.short_path,
        env = {
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
        },
    )
    return [
        DefaultInfo(files = depset(outputs)),
        AutogradCodegenInfo(
            headers = depset(out.headers),
            sources = depset(out.sources),
            manifest = out.manifest,
            include_prefix = include_prefix,
            namespace = ctx.attr.namespace,
            shards = ctx.attr.shards,
            python_headers = depset(out.python_headers),
            python_sources = depset(out.python_sources),
            gradcheck_test = out.gradcheck_test,
            gradcheck_py_test = out.gradcheck_py_test,
        ),
        _output_groups(ctx, out),
    ]

autograd_codegen = rule(
    implementation = _autograd_codegen_impl,
    doc = """Generates C++ autograd code from op declarations and derivative formulas.

Outputs, under `<package>/<out_dir>/`: Functions.h, Functions[_<k>].h/.cpp (Backward nodes),
VariableType.h, VariableType[_<k>].cpp (the differentiable API), NativeFunctions.h (kernel
declarations you implement), python_functions.h and python_functions[_<k>].cpp (nanobind bindings of
every op, compiled only when autograd_library is given a `python_module`) and manifest.json.
One action, mnemonic `GradgenCodegen`, run by default in the codegen's persistent worker
(`--strategy=GradgenCodegen=sandboxed` or remote execution run it as a process of its own; the
files are the same). The action is handed the list of files the rule declared and fails, naming
the difference, if the codegen would write any other; bad attributes fail at analysis with a
message saying what to change. Output groups: `headers`,
`sources`, `python_headers`, `python_sources`, `manifest`, and for autograd_library's per-shard
libraries `api_headers` (VariableType.h, NativeFunctions.h), `root_header` (Functions.h) and
`shard_<k>_headers` / `shard_<k>_sources` (shard k's header and its two .cpp files).
""",
    attrs = {
        "functions": attr.label(
            doc = "Label: the op declarations, PyTorch's native_functions.yaml language; one file ending in .yaml or .yml.",
            allow_single_file = True,
            mandatory = True,
        ),
        "derivatives": attr.label(
            doc = "Label: the derivative formulas, PyTorch's derivatives.yaml language; one file ending in .yaml or .yml.",
            allow_single_file = True,
            mandatory = True,
        ),
        "out_dir": attr.string(
            doc = "string: directory, relative to the package, that receives the generated files (no leading or trailing /, no . or .. parts). Two targets in one package need different ones.",
            default = "generated",
        ),
        "shards": attr.int(
            doc = "int: from 1 to %d; how many .cpp files nodes and API are each split into (by a hash of the op's name); an edit to one formula recompiles one shard's files. Unset (0): chosen from the spec's size, one shard per %d declarations, the files in the directories `%s/` and `%s/` of out_dir." % (MAX_SHARDS, DECLARATIONS_PER_SHARD, SHARDS_DIR, PYTHON_SHARDS_DIR),
            default = 0,
        ),
        "namespace": attr.string(
            doc = "string: C++ namespace of the generated API (`<namespace>::<op>`), kernels (`<namespace>::native::<op>`) and nodes (`<namespace>::autograd::generated`), such as \"myproject::ops\" (no leading ::).",
            default = "gradgen",
        ),
        "formula_headers": attr.string_list(
            doc = "list[string]: headers, as they are #included (a relative path ending in .h, .hh, .hpp, .hxx or .inc, such as \"ops/formulas.h\"), that declare the helpers your formulas call; gradgen's own helpers (csrc/autograd/formulas.h) are always included.",
            default = [],
        ),
        "formula_namespaces": attr.string_list(
            doc = "list[string]: namespaces of your formula helpers (such as \"::myproject::formulas\"), made visible in the generated Functions*.cpp with `using namespace`.",
            default = [],
        ),
        "environment_hdrs": attr.label_list(
            doc = "list[Label]: headers (others are ignored) whose functions formulas may call: autograd_library passes its srcs and hdrs.",
            allow_files = True,
            default = [],
        ),
        "environment_deps": attr.label_list(
            doc = "list[Label]: C++ libraries whose headers (transitively) declare functions formulas may call: autograd_library passes its deps and runtime. With neither attribute set, formulas' calls are not checked.",
            providers = [CcInfo],
            default = [],
        ),
        "formula_functions": attr.string_list(
            doc = "list[string]: names formulas may call that no header of environment_hdrs / environment_deps declares (a macro, say).",
            default = [],
        ),
        "missing_derivative": attr.string(
            doc = "string: what a Tensor-returning op without formulas (and not flagged DONT_REQUIRE_DERIVATIVE) gets: \"error\" (a build error) or \"not_implemented\" (raises when its gradient is needed).",
            default = "error",
            values = ["error", "not_implemented"],
        ),
        "samples": attr.label(
            doc = "Label: the samples file (docs/samples.md), a .yaml or .yml file: also generate gradcheck_test.cpp, the library's gradient test (output group `gradcheck_test`). None: no test.",
            allow_single_file = _YAML_EXTENSIONS,
            default = None,
        ),
        "python_module": attr.string(
            doc = "string: with `samples`, the library's Python extension module (`my_ops_py`, `pkg/_ops`, as autograd_library's): also generate gradcheck_test.py, the samples run through its bindings (output group `gradcheck_py_test`). Empty: no Python test.",
            default = "",
        ),
        "require_samples": attr.bool(
            doc = "bool: with `samples`, the generated test fails naming every declaration with formulas that has no samples (False: it lists them as notes).",
            default = True,
        ),
        "_codegen": attr.label(
            doc = "Label: the codegen (tools/codegen/gen_autograd.py), built for the exec platform.",
            default = Label("//tools/codegen:gen_autograd"),
            executable = True,
            cfg = "exec",
        ),
    },
)
