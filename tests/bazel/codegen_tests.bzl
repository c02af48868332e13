"""Analysis tests of gradgen's rules (`autograd_codegen`, `autograd_library`) with skylib.

What they pin down, without running the codegen:
  - the codegen is one action, mnemonic `GradgenCodegen`, whose spec inputs are exactly the two
    YAML files and whose declared outputs are exactly the files gen_autograd writes for `shards`;
  - `AutogradCodegenInfo`, the output groups and DefaultInfo agree on those files;
  - `autograd_library` compiles every generated .cpp with the user's sources into one cc_library;
  - each bad attribute fails analysis with a message saying what to change.

`codegen_test_suite()` (called from BUILD.bazel) declares the targets under test (tagged manual,
so `//...` does not build them on their own) and one test per case.
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//bazel:defs.bzl", "AutogradCodegenInfo", "autograd_codegen", "autograd_library")

_FUNCTIONS = "testdata/native_functions.yaml"
_DERIVATIVES = "testdata/derivatives.yaml"
_NOT_YAML = "testdata/not_yaml.txt"

def _basenames(files):
    return sorted([f.basename for f in files])

# --- The codegen action -------------------------------------------------------------------------

def _codegen_action_test_impl(ctx):
    env = analysistest.begin(ctx)
    actions = analysistest.target_actions(env)
    asserts.equals(env, ["GradgenCodegen"], [a.mnemonic for a in actions], "the target's actions")
    if len(actions) != 1:
        return analysistest.end(env)
    action = actions[0]

    # Inputs: the two specs (and the codegen tool with its runfiles, nothing else from sources).
    specs = sorted([f.short_path for f in action.inputs.to_list() if f.extension in ("yaml", "yml")])
    asserts.equals(env, sorted(ctx.attr.expected_specs), specs, "YAML inputs of GradgenCodegen")
    tool = [f for f in action.inputs.to_list() if f.basename == "gen_autograd"]
    asserts.true(env, len(tool) >= 1, "the gen_autograd launcher is an input of the action")

    # Declared outputs: exactly what gen_autograd.output_names(shards) lists, in one directory.
    asserts.equals(env, sorted(ctx.attr.expected_outputs), _basenames(action.outputs.to_list()), "declared outputs")
    out_dirs = sorted({f.dirname: True for f in action.outputs.to_list()}.keys())
    asserts.equals(env, 1, len(out_dirs), "the outputs share one directory: %s" % out_dirs)
    if out_dirs:
        suffix = "/" + ctx.attr.expected_include_prefix
        asserts.true(env, out_dirs[0].endswith(suffix), "outputs are in %s, expected .../%s" % (out_dirs[0], ctx.attr.expected_include_prefix))

    # The command line carries the attributes.
    argv = action.argv
    for flag, value in [
        ("--shards", str(ctx.attr.expected_shards)),
        ("--include_prefix", ctx.attr.expected_include_prefix),
        ("--namespace", ctx.attr.expected_namespace),
        ("--native_functions_name", ctx.attr.expected_specs[1]),
        ("--derivatives_name", ctx.attr.expected_specs[0]),
    ]:
        asserts.true(env, flag in argv, "%s in the command line %s" % (flag, argv))
        if flag in argv:
            asserts.equals(env, value, argv[argv.index(flag) + 1], "value of " + flag)
    headers = [argv[i + 1] for i in range(len(argv) - 1) if argv[i] == "--formula_header"]
    asserts.equals(env, ctx.attr.expected_formula_headers, headers, "--formula_header values, gradgen's first")
    return analysistest.end(env)

codegen_action_test = analysistest.make(
    _codegen_action_test_impl,
    attrs = {
        "expected_specs": attr.string_list(doc = "list[str]: short paths of derivatives then functions."),
        "expected_outputs": attr.string_list(doc = "list[str]: basenames of the declared outputs."),
        "expected_include_prefix": attr.string(doc = "str: <package>/<out_dir>."),
        "expected_namespace": attr.string(doc = "str: the --namespace value."),
        "expected_shards": attr.int(doc = "int: the --shards value."),
        "expected_formula_headers": attr.string_list(doc = "list[str]: --formula_header values in order."),
    },
)

# --- Provider, output groups, default outputs ---------------------------------------------------

def _provider_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[AutogradCodegenInfo]
    asserts.equals(env, sorted(ctx.attr.expected_headers), _basenames(info.headers.to_list()), "AutogradCodegenInfo.headers")
    asserts.equals(env, sorted(ctx.attr.expected_sources), _basenames(info.sources.to_list()), "AutogradCodegenInfo.sources")
    asserts.equals(env, "manifest.json", info.manifest.basename, "AutogradCodegenInfo.manifest")
    asserts.equals(env, ctx.attr.expected_include_prefix, info.include_prefix, "AutogradCodegenInfo.include_prefix")
    asserts.equals(env, ctx.attr.expected_namespace, info.namespace, "AutogradCodegenInfo.namespace")
    asserts.equals(env, ctx.attr.expected_shards, info.shards, "AutogradCodegenInfo.shards")

    asserts.equals(env, ["python_functions.h"], _basenames(info.python_headers.to_list()), "AutogradCodegenInfo.python_headers")
    asserts.equals(env, sorted(ctx.attr.expected_python_sources), _basenames(info.python_sources.to_list()), "AutogradCodegenInfo.python_sources")

    # Generated files are included as "<include_prefix>/X.h": their short paths say so.
    python = info.python_headers.to_list() + info.python_sources.to_list()
    for f in info.headers.to_list() + info.sources.to_list() + python + [info.manifest]:
        asserts.equals(env, ctx.attr.expected_include_prefix + "/" + f.basename, f.short_path, "short path of " + f.basename)

    groups = target[OutputGroupInfo]
    asserts.equals(env, info.headers.to_list(), groups.headers.to_list(), "output group headers")
    asserts.equals(env, info.sources.to_list(), groups.sources.to_list(), "output group sources")
    asserts.equals(env, [info.manifest], groups.manifest.to_list(), "output group manifest")
    asserts.equals(env, info.python_headers.to_list(), groups.python_headers.to_list(), "output group python_headers")
    asserts.equals(env, info.python_sources.to_list(), groups.python_sources.to_list(), "output group python_sources")
    everything = info.headers.to_list() + info.sources.to_list() + python + [info.manifest]
    asserts.equals(env, _basenames(everything), _basenames(target[DefaultInfo].files.to_list()), "DefaultInfo.files")
    return analysistest.end(env)

provider_test = analysistest.make(
    _provider_test_impl,
    attrs = {
        "expected_headers": attr.string_list(doc = "list[str]: basenames of AutogradCodegenInfo.headers."),
        "expected_python_sources": attr.string_list(doc = "list[str]: basenames of AutogradCodegenInfo.python_sources."),
        "expected_sources": attr.string_list(doc = "list[str]: basenames of AutogradCodegenInfo.sources."),
        "expected_include_prefix": attr.string(doc = "str: AutogradCodegenInfo.include_prefix."),
        "expected_namespace": attr.string(doc = "str: AutogradCodegenInfo.namespace."),
        "expected_shards": attr.int(doc = "int: AutogradCodegenInfo.shards."),
    },
)

# --- autograd_library ---------------------------------------------------------------------------

def _library_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    compiled = []
    for action in analysistest.target_actions(env):
        if action.mnemonic == "CppCompile":
            inputs = action.inputs.to_list()
            compiled += [f.basename for f in inputs if f.extension in ("cc", "cpp")]
            names = [f.basename for f in inputs]
            for h in ctx.attr.absent_inputs:
                asserts.false(env, h in names, "%s is an input of the compile of %s" % (h, [f.basename for f in action.outputs.to_list()]))
    asserts.equals(env, sorted(ctx.attr.expected_compiled), sorted(compiled), "sources compiled by the cc_library")
    headers = _basenames(target[CcInfo].compilation_context.headers.to_list())
    for h in ctx.attr.expected_headers:
        asserts.true(env, h in headers, "%s among the library's headers" % h)
    return analysistest.end(env)

library_test = analysistest.make(
    _library_test_impl,
    attrs = {
        "expected_compiled": attr.string_list(doc = "list[str]: basenames of the .cc/.cpp files CppCompile actions compile."),
        "expected_headers": attr.string_list(doc = "list[str]: basenames that must be in CcInfo's headers."),
        "absent_inputs": attr.string_list(doc = "list[str]: basenames no CppCompile action may have as an input."),
    },
)

# --- Analysis-time failures ---------------------------------------------------------------------

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.expected_message)
    return analysistest.end(env)

failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {
        "expected_message": attr.string(doc = "str: a substring of the analysis error."),
    },
)

# name suffix -> (attributes of autograd_codegen besides name, expected message part)
_FAILURES = {
    "functions_not_yaml": (
        {"functions": _NOT_YAML},
        "functions = //tests/bazel:testdata/not_yaml.txt: expected a YAML spec (a file ending in .yaml or .yml), got not_yaml.txt",
    ),
    "derivatives_not_yaml": (
        {"derivatives": _NOT_YAML},
        "derivatives = //tests/bazel:testdata/not_yaml.txt: expected a YAML spec",
    ),
    "same_file_twice": (
        {"derivatives": _FUNCTIONS},
        "functions and derivatives are the same file (tests/bazel/testdata/native_functions.yaml)",
    ),
    "shards_negative": ({"shards": -1}, "shards = -1: give a number from 1 to 256 (one Functions_<k>.cpp and one VariableType_<k>.cpp per shard), or leave it unset"),
    "shards_too_many": ({"shards": 257}, "shards = 257: give a number from 1 to 256"),
    "namespace_dash": ({"namespace": "my-ops"}, "namespace = \"my-ops\": give a C++ namespace such as"),
    "namespace_global_prefix": ({"namespace": "::gradgen"}, "namespace = \"::gradgen\": give a C++ namespace"),
    "namespace_keyword": ({"namespace": "ops::class"}, "namespace = \"ops::class\": give a C++ namespace"),
    # A C++20 keyword the old hand-written list lacked: the rule now has the codegen's list (contract.bzl).
    "namespace_cxx20_keyword": ({"namespace": "ops::constexpr"}, "namespace = \"ops::constexpr\": give a C++ namespace"),
    "namespace_empty_part": ({"namespace": "a::::b"}, "namespace = \"a::::b\": give a C++ namespace"),
    "namespace_digit": ({"namespace": "2ops"}, "namespace = \"2ops\": give a C++ namespace"),
    "out_dir_absolute": ({"out_dir": "/tmp/gen"}, "out_dir = \"/tmp/gen\": give a relative directory inside the package"),
    "out_dir_parent": ({"out_dir": "../gen"}, "out_dir = \"../gen\": give a relative directory inside the package"),
    "out_dir_trailing_slash": ({"out_dir": "gen/"}, "out_dir = \"gen/\": give a relative directory"),
    "out_dir_empty": ({"out_dir": ""}, "out_dir = \"\": give a relative directory"),
    "out_dir_space": ({"out_dir": "my gen"}, "out_dir = \"my gen\": give a relative directory"),
    "formula_header_angle_brackets": (
        {"formula_headers": ["ops/formulas.h", "<ops/more.h>"]},
        "formula_headers[1] = \"<ops/more.h>\": give a header as it is #included, without quotes or angle brackets",
    ),
    "formula_header_quoted": ({"formula_headers": ["\"ops/formulas.h\""]}, "formula_headers[0] = \"\\\"ops/formulas.h\\\"\": give a header"),
    "formula_header_not_header": ({"formula_headers": ["ops/formulas.cc"]}, "formula_headers[0] = \"ops/formulas.cc\": give a header as it is #included"),
    "formula_header_absolute": ({"formula_headers": ["/usr/include/formulas.h"]}, "formula_headers[0] = \"/usr/include/formulas.h\": give a header"),
    "formula_namespace_bad": ({"formula_namespaces": ["my-formulas"]}, "formula_namespaces[0] = \"my-formulas\": give a C++ namespace"),
}

def codegen_test_suite(name):
    """Declares the targets under test and the tests; `name` is the test_suite of them all.

    Args:
      name: str: the test_suite's name.
    """
    tests = []

    # shards = 1: the unsharded layout.
    autograd_codegen(
        name = "one_shard",
        functions = _FUNCTIONS,
        derivatives = _DERIVATIVES,
        shards = 1,
        tags = ["manual"],
    )
    codegen_action_test(
        name = "one_shard_action_test",
        target_under_test = ":one_shard",
        expected_specs = ["tests/bazel/" + _DERIVATIVES, "tests/bazel/" + _FUNCTIONS],
        expected_outputs = [
            "Functions.cpp",
            "Functions.h",
            "NativeFunctions.h",
            "VariableType.cpp",
            "VariableType.h",
            "manifest.json",
            "python_functions.cpp",
            "python_functions.h",
        ],
        expected_include_prefix = "tests/bazel/generated",
        expected_namespace = "gradgen",
        expected_shards = 1,
        expected_formula_headers = ["csrc/autograd/formulas.h"],
    )
    tests.append("one_shard_action_test")

    # With samples: the generated gradient test is one more declared output, the samples file
    # one more input, and the command line names it.
    autograd_codegen(
        name = "one_shard_samples",
        functions = _FUNCTIONS,
        derivatives = _DERIVATIVES,
        samples = "testdata/samples.yaml",
        shards = 1,
        out_dir = "gen/samples",
        tags = ["manual"],
    )
    codegen_action_test(
        name = "one_shard_samples_action_test",
        target_under_test = ":one_shard_samples",
        expected_specs = ["tests/bazel/" + _DERIVATIVES, "tests/bazel/" + _FUNCTIONS, "tests/bazel/testdata/samples.yaml"],
        expected_outputs = [
            "Functions.cpp",
            "Functions.h",
            "NativeFunctions.h",
            "VariableType.cpp",
            "VariableType.h",
            "gradcheck_test.cpp",
            "manifest.json",
            "python_functions.cpp",
            "python_functions.h",
        ],
        expected_include_prefix = "tests/bazel/gen/samples",
        expected_namespace = "gradgen",
        expected_shards = 1,
        expected_formula_headers = ["csrc/autograd/formulas.h"],
    )
    tests.append("one_shard_samples_action_test")

    # shards = 3, and every other attribute away from its default.
    autograd_codegen(
        name = "three_shards",
        functions = _FUNCTIONS,
        derivatives = _DERIVATIVES,
        shards = 3,
        out_dir = "gen/three",
        namespace = "demo::ops",
        formula_headers = ["tests/bazel/testdata/formulas.h"],
        formula_namespaces = ["::demo::formulas"],
        missing_derivative = "not_implemented",
        tags = ["manual"],
    )
    three_headers = ["Functions.h", "Functions_0.h", "Functions_1.h", "Functions_2.h", "NativeFunctions.h", "VariableType.h"]
    three_sources = ["Functions_0.cpp", "Functions_1.cpp", "Functions_2.cpp", "VariableType_0.cpp", "VariableType_1.cpp", "VariableType_2.cpp"]
    three_python = ["python_functions.h", "python_functions_0.cpp", "python_functions_1.cpp", "python_functions_2.cpp"]
    codegen_action_test(
        name = "three_shards_action_test",
        target_under_test = ":three_shards",
        expected_specs = ["tests/bazel/" + _DERIVATIVES, "tests/bazel/" + _FUNCTIONS],
        expected_outputs = three_headers + three_sources + three_python + ["manifest.json"],
        expected_include_prefix = "tests/bazel/gen/three",
        expected_namespace = "demo::ops",
        expected_shards = 3,
        expected_formula_headers = ["csrc/autograd/formulas.h", "tests/bazel/testdata/formulas.h"],
    )
    provider_test(
        name = "three_shards_provider_test",
        target_under_test = ":three_shards",
        expected_headers = three_headers,
        expected_sources = three_sources,
        expected_python_sources = three_python[1:],
        expected_include_prefix = "tests/bazel/gen/three",
        expected_namespace = "demo::ops",
        expected_shards = 3,
    )
    provider_test(
        name = "one_shard_provider_test",
        target_under_test = ":one_shard",
        expected_headers = ["Functions.h", "NativeFunctions.h", "VariableType.h"],
        expected_sources = ["Functions.cpp", "VariableType.cpp"],
        expected_python_sources = ["python_functions.cpp"],
        expected_include_prefix = "tests/bazel/generated",
        expected_namespace = "gradgen",
        expected_shards = 1,
    )
    tests += ["three_shards_action_test", "three_shards_provider_test", "one_shard_provider_test"]

    # shards unset (--shards 0): the codegen chooses how many, and the shards' files are two
    # directories (tree artifacts).
    autograd_codegen(
        name = "auto_shards",
        functions = _FUNCTIONS,
        derivatives = _DERIVATIVES,
        out_dir = "gen/auto",
        tags = ["manual"],
    )
    auto_headers = ["Functions.h", "NativeFunctions.h", "VariableType.h"]
    auto_sources = ["shards.cc"]
    auto_python = ["python_functions.h", "python_shards.cc"]
    codegen_action_test(
        name = "auto_shards_action_test",
        target_under_test = ":auto_shards",
        expected_specs = ["tests/bazel/" + _DERIVATIVES, "tests/bazel/" + _FUNCTIONS],
        expected_outputs = auto_headers + auto_sources + auto_python + ["manifest.json"],
        expected_include_prefix = "tests/bazel/gen/auto",
        expected_namespace = "gradgen",
        expected_shards = 0,
        expected_formula_headers = ["csrc/autograd/formulas.h"],
    )
    provider_test(
        name = "auto_shards_provider_test",
        target_under_test = ":auto_shards",
        expected_headers = auto_headers,
        expected_sources = auto_sources,
        expected_python_sources = auto_python[1:],
        expected_include_prefix = "tests/bazel/gen/auto",
        expected_namespace = "gradgen",
        expected_shards = 0,
    )
    tests += ["auto_shards_action_test", "auto_shards_provider_test"]

    # autograd_library: generated sources + the user's, one cc_library.
    autograd_library(
        name = "two_shard_lib",
        functions = _FUNCTIONS,
        derivatives = _DERIVATIVES,
        srcs = ["testdata/kernels.cc"],
        hdrs = ["testdata/formulas.h"],
        shards = 2,
        out_dir = "gen/lib",
        formula_headers = ["tests/bazel/testdata/formulas.h"],
        tags = ["manual"],
    )

    # Note [Per-shard libraries]: each shard's compiles declare only their own shard's header,
    # the kernels none, and the library users depend on exports every header.
    library_test(
        name = "two_shard_lib_test",
        target_under_test = ":two_shard_lib",
        expected_compiled = [],
        expected_headers = ["Functions.h", "Functions_0.h", "Functions_1.h", "NativeFunctions.h", "VariableType.h", "formulas.h"],
    )
    for k in range(2):
        library_test(
            name = "two_shard_lib_shard_%d_test" % k,
            target_under_test = ":two_shard_lib_shard_%d" % k,
            expected_compiled = ["Functions_%d.cpp" % k, "VariableType_%d.cpp" % k],
            expected_headers = ["Functions_%d.h" % k, "NativeFunctions.h", "VariableType.h", "formulas.h"],
            absent_inputs = ["Functions.h", "Functions_%d.h" % (1 - k)],
        )
    library_test(
        name = "two_shard_lib_kernels_test",
        target_under_test = ":two_shard_lib_kernels",
        expected_compiled = ["kernels.cc"],
        expected_headers = ["NativeFunctions.h", "VariableType.h", "formulas.h"],
        absent_inputs = ["Functions.h", "Functions_0.h", "Functions_1.h"],
    )
    tests += ["two_shard_lib_test", "two_shard_lib_shard_0_test", "two_shard_lib_shard_1_test", "two_shard_lib_kernels_test"]

    for case, (attrs, message) in _FAILURES.items():
        kwargs = {"functions": _FUNCTIONS, "derivatives": _DERIVATIVES}
        kwargs.update(attrs)
        autograd_codegen(name = "bad_" + case, tags = ["manual"], **kwargs)
        failure_test(
            name = "bad_%s_test" % case,
            target_under_test = ":bad_" + case,
            expected_message = message,
        )
        tests.append("bad_%s_test" % case)

    native.test_suite(name = name, tests = [":" + t for t in tests])
