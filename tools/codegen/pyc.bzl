"""`py_bytecode`: .pyc files for a package's Python modules, placed where Python looks for them.

The codegen runs as a fresh process in every build action, with bytecode writing off, so without
this it compiles all of its own modules on every run. The .pyc files land in the package's
`__pycache__/` (in the output tree, which shares the runfiles tree with the sources), use
unchecked-hash invalidation (no timestamps) and record the workspace-relative source path, so
they are the same bytes in every checkout.
"""

def py_bytecode(name, srcs, **kwargs):
    """Declares a genrule `name` whose outputs are `__pycache__/<module>.cpython-311.pyc`.

    Args:
      name: str: the target's name; add it to the py_library's `data`.
      srcs: list[str]: the package's `.py` files (plain file names).
      **kwargs: passed to the genrule.
    """
    pkg = native.package_name()
    outs = ["__pycache__/%s.cpython-311.pyc" % s[:-len(".py")] for s in srcs]
    cmds = []
    for src, out in zip(srcs, outs):
        cmds.append(
            "PYTHONHASHSEED=0 /usr/bin/python3 -c 'import py_compile, sys; " +
            "py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True, " +
            "invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)' " +
            "$(location %s) $(location %s) %s" % (src, out, (pkg + "/" + src) if pkg else src),
        )
    native.genrule(
        name = name,
        srcs = srcs,
        outs = outs,
        cmd = " && ".join(cmds),
        message = "Compiling Python bytecode of //%s" % pkg,
        **kwargs
    )
