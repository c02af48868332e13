"""`gradgen_py_wheel`: an installable, reproducible wheel of a Python package and its extension."""

# What a wheel ships is built optimized whatever the build's own mode (tests build fastbuild).
def _opt_transition_impl(_settings, _attr):
    return {"//command_line_option:compilation_mode": "opt"}

_opt_transition = transition(
    implementation = _opt_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:compilation_mode"],
)

def _archive_name(f, strip_prefix):
    path = f.short_path
    if not path.startswith(strip_prefix):
        fail("gradgen_py_wheel: %s is not under strip_prefix '%s'" % (path, strip_prefix))
    return path[len(strip_prefix):]

def _gradgen_py_wheel_impl(ctx):
    tag = "%s-%s-%s" % (ctx.attr.python_tag, ctx.attr.abi_tag, ctx.attr.platform_tag)
    out = ctx.actions.declare_file("%s-%s-%s.whl" % (ctx.attr.distribution, ctx.attr.version, tag))
    args = ctx.actions.args()
    args.add("--out", out)
    args.add("--name", ctx.attr.distribution)
    args.add("--version", ctx.attr.version)
    args.add("--tag", tag)
    args.add("--summary", ctx.attr.summary)
    args.add("--requires_python", ctx.attr.requires_python)
    inputs = []
    for f in ctx.files.srcs:
        args.add("--file", "%s=%s" % (_archive_name(f, ctx.attr.strip_prefix), f.path))
        inputs.append(f)
    for target, archive_name in ctx.attr.extensions.items():
        files = target.files.to_list()
        if len(files) != 1:
            fail("gradgen_py_wheel: %s must be one file (a .so)" % target.label)
        args.add("--file", "%s=%s" % (archive_name, files[0].path))
        inputs.append(files[0])
    ctx.actions.run(
        executable = ctx.executable._builder,
        arguments = [args],
        inputs = inputs,
        outputs = [out],
        mnemonic = "GradgenWheel",
        progress_message = "Writing wheel %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

gradgen_py_wheel = rule(
    implementation = _gradgen_py_wheel_impl,
    attrs = {
        "abi_tag": attr.string(mandatory = True, doc = "str: PEP 425 ABI tag (cp311)."),
        "distribution": attr.string(mandatory = True, doc = "str: the distribution's name."),
        "extensions": attr.label_keyed_string_dict(
            allow_files = [".so"],
            cfg = _opt_transition,
            doc = "dict[Label, str]: extension modules and their path in the wheel (built with " +
                  "-c opt).",
        ),
        "platform_tag": attr.string(mandatory = True, doc = "str: PEP 425 platform tag."),
        "python_tag": attr.string(mandatory = True, doc = "str: PEP 425 Python tag (cp311)."),
        "requires_python": attr.string(mandatory = True, doc = "str: e.g. '==3.11.*'."),
        "srcs": attr.label_list(allow_files = [".py"], doc = "list[Label]: the package's files."),
        "strip_prefix": attr.string(doc = "str: removed from srcs' paths to give their path in the wheel."),
        "summary": attr.string(doc = "str: one line for METADATA."),
        "version": attr.string(mandatory = True, doc = "str: the distribution's version."),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
        "_builder": attr.label(
            default = Label("//python:build_wheel"),
            executable = True,
            cfg = "exec",
        ),
    },
    doc = "A wheel of `srcs` and `extensions`, byte-identical for the same inputs.",
)
