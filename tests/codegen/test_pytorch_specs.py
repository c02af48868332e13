"""PyTorch 2.14.1's own specs, end to end: every entry accepted, every node PyTorch's codegen makes.

PyTorch's torchgen, run on these two files, generates 712 Backward nodes: 613 from the 688
entries (some of which have several dispatch keys or no differentiable input), 37 `_copy` twins
of view ops, and 62 `_foreach_*` nodes derived from the op each foreach op applies per element
(torchgen's gen_foreach_derivativeinfo; with the 10 foreach entries of the file, 72 `Foreach*`
nodes). testdata/torchgen_nodes.json holds them as torchgen generated them (made by
torchgen_reference.py); test_nodes_are_torchgens_node_by_node compares every one. The spot checks
below are PyTorch's own generated members, read off its Functions.h.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

import pytest

from tools.codegen.gen_autograd import generate


@pytest.fixture(scope="module")
def pytorch_output(request):
    from conftest import pytorch_specs_dir

    path = pytorch_specs_dir()
    if not (path / "derivatives.yaml").is_file():
        pytest.skip(
            f"PyTorch's spec files are not at {path} (they sit beside every developer checkout and CI's); "
            "set GRADGEN_PYTORCH_SPECS to run this test"
        )
    return generate(
        str(path / "native_functions.yaml"),
        str(path / "derivatives.yaml"),
        native_functions_name="native_functions.yaml",
        derivatives_name="derivatives.yaml",
        missing_derivative="not_implemented",
        implicit_composite=True,
        shards=4,
    )


@pytest.fixture(scope="module")
def nodes(pytorch_output):
    return {n["name"]: n for n in json.loads(pytorch_output["manifest.json"])["nodes"]}


REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "torchgen_nodes.json")
REGENERATE = "python3 tests/codegen/torchgen_reference.py --torchgen_root DIR --torch_version VERSION"


def _sha256(path) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def test_nodes_are_torchgens_node_by_node(nodes):
    """testdata/torchgen_nodes.json is what torchgen itself generated from these very files
    (tests/codegen/torchgen_reference.py, run with PyTorch 2.14.1's torchgen): the same node
    names, each apply()'s input ranges, and each node's saved members."""
    from conftest import pytorch_specs_dir

    with open(REFERENCE, encoding="utf-8") as fh:
        reference = json.load(fh)
    specs = pytorch_specs_dir()
    for name in ("native_functions", "derivatives"):
        assert _sha256(specs / f"{name}.yaml") == reference[f"{name}_sha256"], (
            f"{specs / name}.yaml is not the file the reference was made from; regenerate it: {REGENERATE}"
        )
    theirs = reference["nodes"]
    assert reference["count"] == len(theirs)
    assert sorted(set(theirs) - set(nodes)) == [], "nodes torchgen makes and gradgen does not"
    assert sorted(set(nodes) - set(theirs)) == [], "nodes gradgen makes and torchgen does not"
    saved = {
        n: (sorted(nodes[n]["saved"]), theirs[n]["saved"])
        for n in theirs
        if sorted(nodes[n]["saved"]) != theirs[n]["saved"]
    }
    assert saved == {}, "saved members differ: {name: (gradgen, torchgen)}"
    ranges = {
        n: ([[i["name"], i["range"]] for i in nodes[n]["inputs"]], theirs[n]["inputs"])
        for n in theirs
        if [[i["name"], i["range"]] for i in nodes[n]["inputs"]] != theirs[n]["inputs"]
    }
    assert ranges == {}, "apply() input ranges differ: {name: (gradgen, torchgen)}"


def test_every_entry_becomes_pytorchs_nodes(nodes):
    # The breakdown of the reference's nodes (see the module docstring).
    assert len(nodes) == 712
    assert sum(1 for n in nodes if n.endswith("_copy")) == 37
    assert sum(1 for n in nodes if n.startswith("Foreach")) == 72


@pytest.mark.parametrize(
    "name, inputs, saved",
    [
        (
            "CatBackward0",
            [("tensors", "tensors_size_")],
            ["dim", "tensors_args_scalartypes", "tensors_args_sizes_symint", "tensors_size_"],
        ),
        (
            "MmBackward0",
            [("self", "1"), ("mat2", "1")],
            [
                "mat2_",
                "mat2_layout",
                "mat2_sym_sizes",
                "mat2_sym_strides",
                "self_",
                "self_layout",
                "self_sym_sizes",
                "self_sym_strides",
            ],
        ),
        ("MaxBackward0", [("self", "1")], ["dim", "indices_", "keepdim", "self_sym_sizes"]),
        ("AddBackward0", [("self", "1"), ("other", "1")], ["alpha", "other_scalar_type", "self_scalar_type"]),
        ("StackBackward0", [("tensors", "tensors_size_")], ["dim", "tensors_args_scalartypes", "tensors_size_"]),
        (
            "LstmMpsBackward0",
            [("input", "1"), ("hx", "hx_size_"), ("params", "params_size_")],
            [
                "batch_first",
                "bidirectional",
                "dropout",
                "has_biases",
                "hx_",
                "hx_size_",
                "input_",
                "num_layers",
                "params_",
                "params_size_",
                "result3_",
                "result4_",
                "result5_",
                "train",
            ],
        ),
        ("PowBackward2", [("exponent", "1")], ["exponent_", "result_", "self"]),
        ("NestedTensorFromTensorListBackward0", [("list", "list_size_")], ["list_", "list_size_"]),
        ("TransposeBackward0_copy", [("self", "1")], ["dim0", "dim1"]),
        # Derived foreach nodes: the reference's formulas per element, every input saved whole.
        (
            "ForeachAddBackward0List",
            [("self", "self_size_"), ("other", "other_size_")],
            ["alpha", "other_", "other_size_", "self_", "self_size_"],
        ),
        ("ForeachMulBackward0Tensor", [("self", "self_size_"), ("other", "1")], ["other_", "self_", "self_size_"]),
        (
            "ForeachLerpBackward0Scalar",
            [("self", "self_size_"), ("tensors1", "tensors1_size_")],
            ["self_size_", "tensors1_size_", "weight"],
        ),
        ("ForeachMaxBackward1", [("self", "self_size_")], ["result_", "self_", "self_size_"]),
        # A foreach entry of the file.
        ("ForeachNormBackward0", [("self", "self_size_")], ["ord", "result_", "self_", "self_size_"]),
    ],
)
def test_nodes_match_pytorchs(nodes, name, inputs, saved):
    node = nodes[name]
    assert [(i["name"], i["range"]) for i in node["inputs"]] == inputs
    assert node["saved"] == saved


def test_manifest_contract_holds_for_every_node(nodes):
    for node in nodes.values():
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]*Backward(Autograd[A-Za-z]*)?\d+(_copy|[A-Za-z]*)", node["name"]), node[
            "name"
        ]
        assert node["saved"] == sorted(set(node["saved"]))
        for inp in node["inputs"]:
            assert inp["range"] in ("1", inp["name"] + "_size_")
            if inp["range"] != "1":
                assert inp["range"] in node["saved"]


def test_generated_cpp_is_complete(pytorch_output, nodes):
    functions = "".join(v for k, v in pytorch_output.items() if k.startswith("Functions_") and k.endswith(".cpp"))
    headers = "".join(v for k, v in pytorch_output.items() if k.startswith("Functions_") and k.endswith(".h"))
    for name in nodes:
        assert f"variable_list {name}::apply(variable_list&& grads) {{" in functions
        assert f"struct {name} : public Node {{" in headers
    api = pytorch_output["VariableType.h"]
    assert api.count(";\n") >= 2585
    assert "Tensor mm(const Tensor& self, const Tensor& mat2);" in api


def test_foreach_nodes_run_the_reference_formula_per_element(pytorch_output):
    functions = "".join(v for k, v in pytorch_output.items() if k.startswith("Functions_") and k.endswith(".cpp"))
    body = functions[functions.index("variable_list ForeachAddBackward0List::apply") :]
    body = body[: body.index("\n}\n")]
    assert "for (size_t i = 0; i < grads.size(); ++i) {" in body
    assert (
        "grad_result.emplace_back(grads[i].defined() ? (handle_r_to_c(self[i].scalar_type(), grads[i])) : Tensor());"
    ) in body
    assert "any_grad_defined" not in body


def _node_names(directory) -> dict:
    """(schema, dispatch key) -> the Backward node's name, for every derivative entry of a spec."""
    from tools.codegen.autogen import add_autogen_variants
    from tools.codegen.load_derivatives import load_derivatives
    from tools.codegen.load_native_functions import parse_native_functions

    functions = add_autogen_variants(parse_native_functions(str(directory / "native_functions.yaml")))
    infos = load_derivatives(str(directory / "derivatives.yaml"), functions)
    return {
        (str(schema), key): info.op for schema, per_key in infos.items() for key, info in per_key.items() if info.op
    }


def test_gradgens_own_nodes_have_pytorchs_names(pytorch_output):
    """A node's name counts the entries of its base name before it (MulBackward0, MulBackward1):
    gradgen's specs/derivatives.yaml lists the overloads PyTorch has in PyTorch's order (and the
    earlier overloads), so that `(x * 2).grad_fn` reads as in PyTorch for every shared entry."""
    from conftest import TREE, pytorch_specs_dir

    ours = _node_names(TREE / "specs")
    theirs = _node_names(pytorch_specs_dir())
    shared = [k for k in ours if k in theirs]
    assert len(shared) > 300, len(shared)
    wrong = ["%s: %s, PyTorch's %s" % (k[0], ours[k], theirs[k]) for k in shared if ours[k] != theirs[k]]
    assert not wrong, "specs/derivatives.yaml names these nodes otherwise than PyTorch:\n" + "\n".join(wrong)
