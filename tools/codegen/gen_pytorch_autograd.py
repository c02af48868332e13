"""Runs gradgen's codegen on PyTorch's own specs, with PyTorch's semantics.

  ./bazelw run //tools/codegen:gen_pytorch_autograd -- --out_dir=/tmp/pytorch_autograd

reads native_functions.yaml and derivatives.yaml from --pytorch_dir (default: `../shared/pytorch`
beside the workspace) and writes Functions*, VariableType*, NativeFunctions.h and manifest.json.
PyTorch's semantics: a declaration without `dispatch:` is CompositeImplicitAutograd (it needs no
formula), and a Tensor-returning op without formulas gets a wrapper that raises when its gradient
is needed instead of a spec error. The C++ uses ATen's vocabulary and is not meant to compile.
"""

from __future__ import annotations

import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from absl import app, flags  # noqa: E402

from tools.codegen.errors import SpecError  # noqa: E402
from tools.codegen.gen_autograd import generate, write_outputs  # noqa: E402

FLAGS = flags.FLAGS
flags.DEFINE_string(
    "pytorch_dir",
    None,
    "Directory holding PyTorch's native_functions.yaml and derivatives.yaml "
    "(default: ../shared/pytorch beside the workspace).",
)
# --out_dir (relative paths are taken from the workspace) and --shards are gen_autograd's flags.


def main(argv):
    del argv
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY", os.getcwd())
    pytorch_dir = FLAGS.pytorch_dir or os.path.join(workspace, "..", "shared", "pytorch")
    if not FLAGS.out_dir:
        print("gen_pytorch_autograd: --out_dir is required", file=sys.stderr)
        return 2
    out_dir = os.path.join(workspace, FLAGS.out_dir)
    nf = os.path.join(pytorch_dir, "native_functions.yaml")
    d = os.path.join(pytorch_dir, "derivatives.yaml")
    for path in (nf, d):
        if not os.path.isfile(path):
            print(f"gen_pytorch_autograd: {path} not found; pass --pytorch_dir", file=sys.stderr)
            return 2
    try:
        files = generate(
            nf,
            d,
            native_functions_name="native_functions.yaml",
            derivatives_name="derivatives.yaml",
            missing_derivative="not_implemented",
            implicit_composite=True,
            shards=FLAGS.shards,
            include_prefix="pytorch_autograd",
        )
    except SpecError as e:
        print(str(e), file=sys.stderr)
        return 1
    write_outputs(out_dir, files)
    import json

    nodes = json.loads(files["manifest.json"])["nodes"]
    print(f"gen_pytorch_autograd: {len(files)} files, {len(nodes)} Backward nodes -> {out_dir}")
    return 0


if __name__ == "__main__":
    app.run(lambda argv: sys.exit(main(argv)))
