"""`py_exec_launcher`: a py_binary's program started by a shell script instead of its launcher.

A py_binary's own launcher is a Python script: every run starts one interpreter (with the host's
site directories and its .pth files) to work out the import path, then starts a second one for the
program. For the codegen, which runs once per build action, that first interpreter was about a
tenth of each run on PyTorch's specs. This rule writes a `/bin/sh` script that does the launcher's
work (find the runfiles tree, put the binary's import paths on PYTHONPATH) and `exec`s the
toolchain's interpreter on the program once, with `-S`: no site directories, so a package the
machine has installed can never stand in for a pinned one, and no .pth files run.
"""

_TOOLCHAIN = "@bazel_tools//tools/python:toolchain_type"

_SCRIPT = """#!/bin/sh
# Written by py_exec_launcher (tools/codegen/launcher.bzl): runs {main} with {interpreter} and the
# import paths of {binary}. The runfiles tree: this script's own (`<script>.runfiles`, as in a
# build action or `bazel run`), the tree it lies in (another binary's runfiles), or $RUNFILES_DIR.
case "$0" in
  /*) self="$0" ;;
  *) self="$PWD/$0" ;;
esac
if [ -d "$self.runfiles" ]; then
  runfiles="$self.runfiles"
else
  case "$self" in
    *.runfiles/*) runfiles="${{self%.runfiles/*}}.runfiles" ;;
    *)
      if [ -z "$RUNFILES_DIR" ]; then
        echo "$0: cannot find the runfiles tree (no $self.runfiles, no RUNFILES_DIR)" >&2
        exit 2
      fi
      runfiles="$RUNFILES_DIR"
      ;;
  esac
fi
PYTHONPATH="{pythonpath}${{PYTHONPATH:+:$PYTHONPATH}}" exec {interpreter} -S "$runfiles/{main}" "$@"
"""

def _py_exec_launcher_impl(ctx):
    runtime = ctx.toolchains[_TOOLCHAIN].py3_runtime
    if runtime == None or not runtime.interpreter_path:
        fail("py_exec_launcher needs a Python toolchain with an interpreter_path (a system interpreter)")
    binary = ctx.attr.binary
    main = ctx.file.main
    main_path = ctx.workspace_name + "/" + main.short_path

    # The binary's import paths, as its own launcher puts them on the path (the `imports` of its
    # libraries, relative to the runfiles root), then the runfiles root.
    imports = binary[PyInfo].imports.to_list()
    pythonpath = ":".join(["$runfiles/" + p for p in imports] + ["$runfiles"])
    script = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.write(
        output = script,
        content = _SCRIPT.format(
            main = main_path,
            interpreter = runtime.interpreter_path,
            binary = str(binary.label),
            pythonpath = pythonpath,
        ),
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [main]).merge(binary[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

py_exec_launcher = rule(
    implementation = _py_exec_launcher_impl,
    doc = "Runs a py_binary's main module through a shell script: one interpreter start, no site directories.",
    attrs = {
        "binary": attr.label(
            doc = "Label: the py_binary whose runfiles and import paths are used.",
            mandatory = True,
            providers = [PyInfo],
        ),
        "main": attr.label(
            doc = "Label: the binary's main .py file.",
            mandatory = True,
            allow_single_file = [".py"],
        ),
    },
    executable = True,
    toolchains = [_TOOLCHAIN],
)
