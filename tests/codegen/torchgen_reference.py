"""Writes testdata/torchgen_nodes.json: every Backward node PyTorch's own codegen makes from
PyTorch's spec files, as read off the C++ it generates. //tests/codegen:pytorch_specs_test compares
gradgen's manifest with it node by node.

Run by hand (not under Bazel) with a torchgen on the path, e.g. PyTorch 2.14.1's, unzipped from
its wheel (`pip download torch==2.14.1 --no-deps`, then `unzip torch-*.whl 'torchgen/*'`; the
codegen benchmark leaves one in /tmp/gradgen_codegen_bench_torchgen-2.14.1), and PyYAML:

    python3 tests/codegen/torchgen_reference.py --torchgen_root /tmp/gradgen_codegen_bench_torchgen-2.14.1 \\
        --torch_version 2.14.1 [--pytorch_specs ../shared/pytorch]

It runs torchgen's load_derivatives, match_differentiability_info (which derives the _foreach_
nodes) and gen_autograd_functions_lib, exactly as torchgen's gen_autograd does, then reads from
Functions.h each `struct TORCH_API <Name> : public Node` and its members (without the
bookkeeping `*_released_` flags and `retain_variables`), and from Functions.cpp each apply()'s
`auto <input>_ix = gen.range(<length>);`. The file records the torchgen version and how it was
made.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "testdata", "torchgen_nodes.json")

_STRUCT = re.compile(r"^struct TORCH_API (\w+) : public \w+ \{(.*?)^\};", re.M | re.S)
_MEMBER = re.compile(r"^  (?!using |void |std::string name|variable_list |#)[\w:<>, ]+? (\w+)(?: = [^;]+)?;$")
_APPLY = re.compile(r"^variable_list (\w+)::apply\(variable_list&& grads\) \{(.*?)^\}", re.M | re.S)
_RANGE = re.compile(r"auto (\w+)_ix = gen\.range\((.*?)\);")


def _sha256(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def read_nodes(functions_h: str, functions_cpp: str) -> dict:
    """{name: {"saved": [...], "inputs": [[name, range], ...]}} from torchgen's generated files."""
    nodes = {}
    for m in _STRUCT.finditer(functions_h):
        saved = []
        for line in m.group(2).splitlines():
            mm = _MEMBER.match(line)
            if mm and not mm.group(1).endswith("_released_") and mm.group(1) != "retain_variables":
                saved.append(mm.group(1))
        nodes[m.group(1)] = {"saved": sorted(saved), "inputs": []}
    for m in _APPLY.finditer(functions_cpp):
        if m.group(1) in nodes:
            nodes[m.group(1)]["inputs"] = [[n, r] for n, r in _RANGE.findall(m.group(2))]
    return dict(sorted(nodes.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--torchgen_root", help="directory holding torchgen/ (default: torchgen importable as is)")
    parser.add_argument("--pytorch_specs", default=os.path.join(HERE, "..", "..", "..", "shared", "pytorch"))
    parser.add_argument(
        "--torch_version", help="the torch release torchgen comes from (read off torch-*.dist-info if absent)"
    )
    args = parser.parse_args()
    if args.torchgen_root:
        sys.path.insert(0, args.torchgen_root)
    try:
        import typing_extensions  # noqa: F401
    except ImportError:  # torchgen uses only what Python 3.11's typing has
        import typing

        sys.modules["typing_extensions"] = typing
    import torchgen
    from torchgen.api import cpp
    from torchgen.api.autograd import match_differentiability_info
    from torchgen.gen import parse_native_yaml
    from torchgen.packaged.autograd.gen_autograd_functions import gen_autograd_functions_lib
    from torchgen.packaged.autograd.load_derivatives import load_derivatives
    from torchgen.selective_build.selector import SelectiveBuilder

    root = os.path.dirname(os.path.dirname(os.path.abspath(torchgen.__file__)))
    version = args.torch_version or "unknown"
    for entry in [] if args.torch_version else os.listdir(root):
        m = re.match(r"torch-([\w.+]+)\.dist-info$", entry)
        if m:
            version = m.group(1)
    pkg = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    nf = os.path.join(args.pytorch_specs, "native_functions.yaml")
    deriv = os.path.join(args.pytorch_specs, "derivatives.yaml")
    tags = os.path.join(pkg, "ATen", "native", "tags.yaml")
    with tempfile.TemporaryDirectory() as out:
        functions = parse_native_yaml(nf, tags).native_functions
        infos, _ = load_derivatives(deriv, nf, tags)
        selector = SelectiveBuilder.get_nop_selector()
        selected = sorted(
            filter(selector.is_native_function_selected_for_training, functions), key=lambda f: cpp.name(f.func)
        )
        match_differentiability_info(selected, infos)  # adds the derived _foreach_ infos
        gen_autograd_functions_lib(out, infos, os.path.join(pkg, "autograd", "templates"))
        with open(os.path.join(out, "Functions.h")) as fh:
            h = fh.read()
        with open(os.path.join(out, "Functions.cpp")) as fh:
            c = fh.read()
    nodes = read_nodes(h, c)
    reference = {
        "about": "Backward nodes of PyTorch's own codegen (torchgen) on PyTorch's native_functions.yaml and "
        "derivatives.yaml, read off its Functions.h / Functions.cpp; written by tests/codegen/torchgen_reference.py",
        "torch_version": version,
        "native_functions_sha256": _sha256(nf),
        "derivatives_sha256": _sha256(deriv),
        "count": len(nodes),
        "nodes": nodes,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    # One line per node, so that a change of torchgen shows as a readable diff.
    head = {k: v for k, v in reference.items() if k != "nodes"}
    lines = [json.dumps(head, indent=1)[:-2] + ',\n "nodes": {']
    lines.append(",\n".join(f"  {json.dumps(name)}: {json.dumps(node)}" for name, node in nodes.items()))
    lines.append(" }\n}\n")
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(lines))
    assert json.load(open(OUT, encoding="utf-8")) == reference
    print(f"{OUT}: {len(nodes)} nodes from torchgen {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
