"""The derivatives language: formulas matched to declarations, saved values, node layout, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import TREE

from tools.codegen.contract import output_names
from tools.codegen.errors import SpecError
from tools.codegen.gen_autograd import generate
from tools.codegen.load_derivatives import load_derivatives
from tools.codegen.load_native_functions import parse_native_functions

DECLS = """\
- func: mm(Tensor self, Tensor mat2) -> Tensor
- func: cat(Tensor[] tensors, int dim=0) -> Tensor
- func: lincomb(Tensor[] tensors, Tensor coeffs) -> Tensor
- func: foo(Tensor[] xs, Tensor y) -> Tensor
- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
- func: atan2(Tensor self, Tensor other) -> Tensor
- func: argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
  flags: [DONT_REQUIRE_DERIVATIVE, DONT_RECORD_TRACE]
- func: exp(Tensor self) -> Tensor
  flags: [DONT_PROFILE]
- func: narrow(Tensor self, int dim, int start, int length) -> Tensor
- func: mode(Tensor self) -> (Tensor values, Tensor indices)
"""

DERIVS = """\
- name: mm(Tensor self, Tensor mat2) -> Tensor
  self: mm(grad, t(mat2))
  mat2: mm(t(self), grad)
- name: cat(Tensor[] tensors, int dim=0) -> Tensor
  tensors: cat_tensors_backward(grad, to_args_sizes(tensors), dim)
- name: lincomb(Tensor[] tensors, Tensor coeffs) -> Tensor
  tensors: lincomb_tensors_backward(grad, coeffs, tensors.size())
  coeffs: lincomb_coeffs_backward(grad, tensors)
- name: foo(Tensor[] xs, Tensor y) -> Tensor
  xs: foo_xs_backward(grad, y)
  y: foo_y_backward(grad, xs)
- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  self: value_selecting_reduction_backward(grad, dim, indices, self.sizes(), keepdim)
  output_differentiability: [True, False]
- name: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  self: grad
  other: maybe_multiply(grad, alpha)
- name: atan2(Tensor self, Tensor other) -> Tensor
  self, other: atan2_backward(grad, self, other, grad_input_mask)
- name: exp(Tensor self) -> Tensor
  self: grad * result
  result: auto_element_wise
- name: narrow(Tensor self, int dim, int start, int length) -> Tensor
  self: narrow_backward(grad, self.sizes(), dim, start, length)
- name: mode(Tensor self) -> (Tensor values, Tensor indices)
  self: mode_backward(grad, indices, self.sizes())
"""


@pytest.fixture
def specs(tmp_path):
    def write(decls: str = DECLS, derivs: str = DERIVS):
        nf = tmp_path / "native_functions.yaml"
        d = tmp_path / "derivatives.yaml"
        nf.write_text(decls)
        d.write_text(derivs)
        return str(nf), str(d)

    return write


def _gen(specs, decls=DECLS, derivs=DERIVS, **kwargs):
    nf, d = specs(decls, derivs)
    return generate(nf, d, native_functions_name="native_functions.yaml", derivatives_name="derivatives.yaml", **kwargs)


def _error(specs, decls=DECLS, derivs=DERIVS, **kwargs) -> str:
    with pytest.raises(SpecError) as e:
        _gen(specs, decls, derivs, **kwargs)
    return str(e.value)


def _nodes(files):
    return {n["name"]: n for n in json.loads(files["manifest.json"])["nodes"]}


def test_node_names_ranges_and_saved_members_follow_pytorch(specs):
    nodes = _nodes(_gen(specs))
    assert nodes["CatBackward0"] == {
        "name": "CatBackward0",
        "op": "cat",
        "inputs": [{"name": "tensors", "range": "tensors_size_"}],
        "saved": ["dim", "tensors_args_sizes", "tensors_size_"],
    }
    assert nodes["MmBackward0"]["saved"] == ["mat2_", "self_"]
    # A Tensor after a Tensor[]: its slot comes after however many the list had.
    assert nodes["FooBackward0"]["inputs"] == [{"name": "xs", "range": "xs_size_"}, {"name": "y", "range": "1"}]
    assert nodes["FooBackward0"]["saved"] == ["xs_", "xs_size_", "y_"]
    # Named tuple return used by the formula: saved as an output; self.sizes() saves the sizes only.
    assert nodes["MaxBackward0"]["saved"] == ["dim", "indices_", "keepdim", "self_sizes"]
    assert nodes["AddBackward0"]["saved"] == ["alpha"]
    assert nodes["ExpBackward0"]["saved"] == ["result_"]
    assert nodes["NarrowBackward0"]["saved"] == ["dim", "length", "self_sizes", "start"]
    # DONT_REQUIRE_DERIVATIVE: no node.
    assert "ArgmaxBackward0" not in nodes


def test_apply_computes_index_ranges_at_run_time(specs):
    cpp = _gen(specs)["Functions.cpp"]
    body = cpp[cpp.index("variable_list FooBackward0::apply") :]
    body = body[: body.index("\n}\n")]
    assert "auto xs_ix = gen.range(xs_size_);" in body
    assert "auto y_ix = gen.range(1);" in body
    assert "if (should_compute_output({ y_ix })) {" in body
    assert "copy_range(grad_inputs, xs_ix, grad_result);" in body
    # No hard-coded slot anywhere.
    assert "grad_inputs[" not in cpp


def test_multi_input_formula_gets_grad_input_mask(specs):
    cpp = _gen(specs)["Functions.cpp"]
    body = cpp[cpp.index("variable_list Atan2Backward0::apply") :]
    body = body[: body.index("\n}\n")]
    assert "if (should_compute_output({ self_ix, other_ix })) {" in body
    assert "auto grad_input_mask = std::array<bool, 2>{" in body
    assert "copy_range(grad_inputs, other_ix, std::get<1>(grad_result));" in body


def test_forward_wrappers_honour_flags_and_variants(specs):
    vt = _gen(specs)["VariableType.cpp"]

    def body(signature):
        start = vt.index(signature)
        return vt[start : vt.index("\n}\n", start)]

    argmax = body("Tensor argmax(")
    assert "grad_fn" not in argmax and "tracer::TracedOp" not in argmax
    assert 'tracer::UntracedOp trace_op("argmax");' in argmax and "trace_op.output(result_);" in argmax
    assert 'profiler::RecordFunction profile_scope("argmax", self, dim, keepdim);' in argmax
    exp = body("Tensor exp(")
    assert "profiler::" not in exp and "tracer::UntracedOp" not in exp
    assert (
        'tracer::TracedOp trace_op("exp", tracer::replay(static_cast<Tensor (*)(const Tensor&)>(&exp)), '
        '{"self"}, self);' in exp
    )
    assert "trace_op.output(result);\n  return result;" in exp
    assert "grad_fn->result_ = SavedVariable(result, true);" in exp
    mx = body("std::tuple<Tensor, Tensor> max(")
    assert "std::tie(values, indices) = native::max(self, dim, keepdim);" in mx
    assert "set_history(values, grad_fn);" in mx and "set_history(indices" not in mx
    assert "grad_fn->indices_ = SavedVariable(indices, true);" in mx
    # No output_differentiability and a formula using `grad`: only the first output is
    # differentiable (PyTorch's rule), so `indices` gets no history.
    mode = body("std::tuple<Tensor, Tensor> mode(")
    assert "set_history(values, grad_fn);" in mode and "set_history(indices" not in mode
    # In-place variant: out-of-place formula, history rebased onto self.
    inplace = body("Tensor& add_(")
    assert "GradFn<AddBackward0> grad_fn;" in inplace and "rebase_history(self, grad_fn);" in inplace
    # out= variant: not differentiable, refuses inputs that require grad.
    out = body("Tensor& add_out(")
    assert 'check_out_no_requires_grad("add.out", { {"self", self}, {"other", other} });' in out
    assert "grad_fn" not in out
    # Lists save their length for the ranges of apply().
    assert "grad_fn->xs_size_ = xs.size();" in body("Tensor foo(")


def test_declarations_keep_defaults_only_on_a_trailing_run(specs):
    vt_h = _gen(specs)["VariableType.h"]
    assert "Tensor cat(TensorList tensors, int64_t dim = 0);" in vt_h
    assert "Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);" in vt_h
    assert "Tensor& add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);" in vt_h


def test_shards_split_nodes_and_wrappers_and_keep_ops_together(specs):
    files = _gen(specs, shards=4)
    assert sorted(files) == sorted(output_names(4))
    for name in ("add", "mm", "cat"):
        holders = [f for f, text in files.items() if f.startswith("VariableType_") and f" {name}(" in text]
        node = name.title() + "Backward0"
        node_files = [
            f
            for f, text in files.items()
            if f.startswith("Functions_") and f.endswith(".h") and f"struct {node} " in text
        ]
        assert len(node_files) == 1
        assert all(h.replace("VariableType", "Functions").replace(".cpp", ".h") == node_files[0] for h in holders)


def test_automatic_shard_count_writes_self_contained_shards_into_directories(specs, tmp_path):
    # Note [Automatic shard count]: --shards=0 chooses one shard per 64 declarations (here 1),
    # the shards' files go into shards.cc/ and python_shards.cc/, and each of them declares its
    # nodes itself: no per-shard header, and Functions.h declares every node for users.
    files = _gen(specs, shards=0)
    assert json.loads(files["manifest.json"])["shards"] == {"count": 1, "automatic": True}
    assert sorted(files) == sorted(
        ["Functions.h", "VariableType.h", "NativeFunctions.h", "python_functions.h", "manifest.json"]
        + ["shards.cc/Functions_0.cpp", "shards.cc/VariableType_0.cpp", "python_shards.cc/python_functions_0.cpp"]
    )
    assert output_names(0) == [
        "Functions.h", "VariableType.h", "NativeFunctions.h", "python_functions.h", "manifest.json",
        "shards.cc/", "python_shards.cc/",
    ]  # fmt: skip
    for name in ("shards.cc/Functions_0.cpp", "shards.cc/VariableType_0.cpp"):
        assert "struct AddBackward0 : public Node {" in files[name], name
        assert "/Functions" not in "".join(line for line in files[name].splitlines() if line.startswith("#include"))
    assert "struct AddBackward0 : public Node {" in files["Functions.h"]

    # Past 64 declarations, more shards; every op's node and wrappers still share one.
    many = "".join(f"- func: u{i:03d}(Tensor self) -> Tensor\n" for i in range(300))
    many_d = "".join(f"- name: u{i:03d}(Tensor self) -> Tensor\n  self: grad\n" for i in range(300))
    files = _gen(specs, many, many_d, shards=0)
    assert json.loads(files["manifest.json"])["shards"]["count"] == 5
    for i in (0, 7, 299):
        node = f"U{i:03d}Backward0"
        holders = [f for f, text in files.items() if f"struct {node} : public Node {{" in text and f != "Functions.h"]
        assert len(holders) == 2 and holders[0].rsplit("_", 1)[1] == holders[1].rsplit("_", 1)[1], holders

    # Run again into the same directory with fewer shards: no stale shard file stays behind.
    out = tmp_path / "out"
    for decls in (300, 10):
        nf_path = tmp_path / f"nf{decls}.yaml"
        d_path = tmp_path / f"d{decls}.yaml"
        nf_path.write_text("".join(many.splitlines(keepends=True)[:decls]))
        d_path.write_text("".join(many_d.splitlines(keepends=True)[: 2 * decls]))
        argv = [sys.executable, str(TREE / "tools/codegen/gen_autograd.py"), f"--native_functions={nf_path}"]
        subprocess.run(argv + [f"--derivatives={d_path}", f"--out_dir={out}", "--shards=0"], check=True)
    assert sorted(os.listdir(out / "shards.cc")) == ["Functions_0.cpp", "VariableType_0.cpp"]


def test_output_is_independent_of_hash_seed(specs, tmp_path):
    nf, d = specs()
    outs = []
    for seed in ("0", "1", "12345"):
        out_dir = tmp_path / f"out{seed}"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run(
            [
                sys.executable,
                str(TREE / "tools/codegen/gen_autograd.py"),
                "--native_functions",
                nf,
                "--derivatives",
                d,
                "--native_functions_name",
                "native_functions.yaml",
                "--derivatives_name",
                "derivatives.yaml",
                "--out_dir",
                str(out_dir),
                "--shards",
                "3",
            ],
            check=True,
            env=env,
        )
        outs.append({p.name: p.read_bytes() for p in out_dir.iterdir()})
    assert outs[0] == outs[1] == outs[2]
    assert not any(str(tmp_path).encode() in text for text in outs[0].values())


# Each spec mistake: (declarations, derivatives, the exact one-line message).
ERRORS = [
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self: [unclosed\n",
        "derivatives.yaml:3:1: did not find expected ',' or ']' (while parsing a flow sequence at line 2)",
        id="malformed-yaml",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensr mat2) -> Tensor\n  self: grad\n",
        "derivatives.yaml:1:25: unknown type 'Tensr'",
        id="unparseable-schema",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor other) -> Tensor\n  self: grad\n",
        "derivatives.yaml:1:9: no declaration matches 'mm(Tensor self, Tensor other) -> Tensor'; "
        "closest declared: mm(Tensor self, Tensor mat2) -> Tensor",
        id="no-declaration",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self: grad\n  mat3: grad\n",
        "derivatives.yaml:3:3: 'mat3' is not an argument of mm(Tensor self, Tensor mat2) -> Tensor; "
        "arguments are: self, mat2",
        id="key-not-an-argument",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self: grad\n  mat2: grad\n  self: grad * 2\n",
        "derivatives.yaml:4:3: duplicate key 'self' (first written at line 2)",
        id="twice",
    ),
    pytest.param(
        DECLS,
        "- name: atan2(Tensor self, Tensor other) -> Tensor\n  self: non_differentiable\n  self, other: f(grad)\n",
        "derivatives.yaml:3:3: 'self' is marked non_differentiable and also given a formula in the entry for atan2",
        id="formula-and-non-differentiable",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self, mat2: f(grad)\n  mat2: g(grad)\n",
        "derivatives.yaml:3:3: 'mat2' is given a formula twice in the entry for mm",
        id="twice-in-multi-key",
    ),
    pytest.param(
        DECLS,
        "- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)\n"
        "  self: f(grad, grads[1])\n",
        "derivatives.yaml:2:9: the entry for max mixes 'grad' and 'grads[i]'; use 'grads[0]' instead of 'grad'",
        id="mixed-grad-styles",
    ),
    pytest.param(
        DECLS,
        "- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)\n"
        "  self: f(grads[0], grads[2])\n",
        "derivatives.yaml:2:9: formula uses grads[2] but max.dim returns 2 outputs",
        id="grads-out-of-range",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self: grad\n"
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  mat2: grad\n",
        "derivatives.yaml:3:9: duplicate derivative entry for 'mm(Tensor self, Tensor mat2) -> Tensor' "
        "(first given at derivatives.yaml:1:9)",
        id="duplicate-entry",
    ),
    pytest.param(
        DECLS,
        "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self-x: grad\n",
        "derivatives.yaml:2:3: formula key 'self-x' is not a valid C++ identifier",
        id="bad-identifier",
    ),
    pytest.param(
        "- func: mm(Tensor self, Tensor class) -> Tensor\n",
        "[]\n",
        "native_functions.yaml:1:32: 'class' is not a valid C++ identifier",
        id="bad-identifier-in-schema",
    ),
    pytest.param(
        DECLS + "- func: sin(Tensor self) -> Tensor\n",
        DERIVS,
        "native_functions.yaml:16:3: 'sin' returns a Tensor but has no derivative entry; add one to the "
        "derivatives file, or flag it DONT_REQUIRE_DERIVATIVE if its outputs carry no gradient",
        id="missing-derivative",
    ),
    pytest.param(
        DECLS,
        DERIVS + "- name: argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor\n  self: grad\n",
        "native_functions.yaml:10:3: 'argmax' is flagged DONT_REQUIRE_DERIVATIVE but has derivative formulas; "
        "drop one of the two",
        id="flagged-and-given-formulas",
    ),
    pytest.param(
        DECLS,
        "- name: atan2(Tensor self, Tensor other) -> Tensor\n"
        "  self, other: f(grad, wrap_opt_if(self, grad_input_mask[2]), grad_input_mask)\n",
        "derivatives.yaml:2:16: wrap_opt_if reads grad_input_mask[2], but this formula is for 2 inputs (self, other)",
        id="wrap-opt-if-mask-out-of-range",
    ),
    pytest.param(
        DECLS,
        DERIVS + "- mm\n",
        "derivatives.yaml:27:3: each derivative entry must be a mapping with a 'name:' key",
        id="entry-not-a-mapping",
    ),
    pytest.param(
        DECLS,
        "- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)\n"
        "  self: grad\n  output_differentiability: [True]\n",
        "derivatives.yaml:3:29: output_differentiability has 1 entries but max returns 2 outputs",
        id="output-differentiability-count",
    ),
]


@pytest.mark.parametrize("decls, derivs, message", ERRORS)
def test_spec_errors_name_file_line_and_column(specs, decls, derivs, message):
    assert _error(specs, decls, derivs) == message


def test_error_is_one_line_exit_1_and_writes_nothing(specs, tmp_path):
    nf, d = specs(DECLS, "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  mat3: grad\n")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    (out_dir / "Functions.cpp").write_text("// from an earlier run\n")
    proc = subprocess.run(
        [
            sys.executable,
            str(TREE / "tools/codegen/gen_autograd.py"),
            "--native_functions",
            nf,
            "--derivatives",
            d,
            "--native_functions_name",
            "specs/native_functions.yaml",
            "--derivatives_name",
            "specs/derivatives.yaml",
            "--out_dir",
            str(out_dir),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "specs/derivatives.yaml:2:3: 'mat3' is not an argument of mm(Tensor self, Tensor mat2) -> Tensor; "
        "arguments are: self, mat2"
    ]
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in out_dir.iterdir()) == ["Functions.cpp"]
    assert (out_dir / "Functions.cpp").read_text() == "// from an earlier run\n"


def test_inplace_variant_without_entry_uses_out_of_place_formula(specs):
    nf, d = specs()
    infos = load_derivatives(d, parse_native_functions(nf))
    assert [str(s.name) for s in infos] == [
        "mm",
        "cat",
        "lincomb",
        "foo",
        "max.dim",
        "add.Tensor",
        "atan2",
        "exp",
        "narrow",
        "mode",
    ]


def test_forward_derivatives_are_parsed_and_checked(specs):
    nf, d = specs()
    infos = load_derivatives(d, parse_native_functions(nf))
    exp = next(v["Default"] for k, v in infos.items() if str(k.name) == "exp")
    (fw,) = exp.forward_derivatives
    assert fw.var_names == ("result",)
    assert fw.formula == "self_t * result"
    assert fw.required_inputs_fw_grad == ("self",)
    bad = DERIVS.replace("result: auto_element_wise", "result: self * self_t")
    assert _error(specs, DECLS, bad) == (
        "derivatives.yaml:22:11: the forward formula for exp uses the bare name 'self', which is ambiguous: "
        "write self_p for its value or self_t for its tangent"
    )


LANG_DECLS = """\
- func: chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]
- func: trilinear(Tensor i1, Tensor i2, Tensor i3) -> Tensor
- func: rnn(Tensor input, Tensor[] params, bool train) -> (Tensor, Tensor)
- func: scatter_list(Tensor[] xs) -> Tensor
- func: where_like(Tensor cond, Tensor self, Tensor? other=None) -> Tensor
"""

LANG_DERIVS = """\
- name: chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]
  dispatch:
    Default:
      self: chunk_backward(grads, self.sizes(), chunks, dim)
    AutogradNestedTensor:
      self: chunk_backward_nested(grads, self, chunks, dim)
- name: trilinear(Tensor i1, Tensor i2, Tensor i3) -> Tensor
  i1, i2, i3: trilinear_backward(grad, wrap_opt_if(i1, grad_input_mask[1] || grad_input_mask[2]), wrap_opt_if(i2, grad_input_mask[0]), i3, grad_input_mask)
- name: rnn(Tensor input, Tensor[] params, bool train) -> (Tensor, Tensor)
  output_differentiability: [True, False]
  input, params: rnn_backward(input, params, grad, retain_variables, grad_input_mask)
- name: scatter_list(Tensor[] xs) -> Tensor
  xs: not_implemented("scatter_list backward")
- name: where_like(Tensor cond, Tensor self, Tensor? other=None) -> Tensor
  cond: non_differentiable
  self: where(cond, grad, 0)
  other: where(cond, 0, grad)
  output_differentiability: ["self.requires_grad() || (other.has_value() && other->requires_grad())"]
"""  # noqa: E501 (a formula of PyTorch's derivatives.yaml, on one line as there)


def test_dispatch_sections_make_one_node_per_key(specs):
    files = _gen(specs, LANG_DECLS, LANG_DERIVS)
    nodes = _nodes(files)
    assert nodes["ChunkBackward0"]["saved"] == ["chunks", "dim", "self_sizes"]
    assert nodes["ChunkBackwardAutogradNestedTensor0"]["saved"] == ["chunks", "dim", "self_"]
    assert "const auto& grads" not in files["Functions.cpp"]  # `grads` is apply()'s parameter


def test_wrap_opt_if_saves_only_when_the_condition_holds(specs):
    vt = _gen(specs, LANG_DECLS, LANG_DERIVS)["VariableType.cpp"]
    assert (
        "  if (grad_fn->should_compute_output(1) || grad_fn->should_compute_output(2)) "
        "grad_fn->i1_ = SavedVariable(i1, false);"
    ) in vt
    assert "  if (grad_fn->should_compute_output(0)) grad_fn->i2_ = SavedVariable(i2, false);" in vt
    assert "  grad_fn->i3_ = SavedVariable(i3, false);" in vt


def test_retain_variables_and_list_inputs(specs):
    files = _gen(specs, LANG_DECLS, LANG_DERIVS)
    assert "bool retain_variables = true;" in files["Functions.h"]
    node = _nodes(files)["RnnBackward0"]
    assert node["inputs"] == [{"name": "input", "range": "1"}, {"name": "params", "range": "params_size_"}]
    assert node["saved"] == ["input_", "params_", "params_size_"]
    vt = files["VariableType.cpp"]
    rnn = vt[vt.index("std::tuple<Tensor, Tensor> rnn(") :]
    rnn = rnn[: rnn.index("\n}\n")]
    assert "set_history(result0, grad_fn);" in rnn and "set_history(result1" not in rnn


def test_not_implemented_for_a_list_input_returns_a_list(specs):
    cpp = _gen(specs, LANG_DECLS, LANG_DERIVS)["Functions.cpp"]
    assert 'not_implemented_list("scatter_list backward")' in cpp


def test_output_differentiability_condition_and_non_differentiable_inputs(specs):
    files = _gen(specs, LANG_DECLS, LANG_DERIVS)
    node = _nodes(files)["WhereLikeBackward0"]
    assert [i["name"] for i in node["inputs"]] == ["self", "other"]
    assert node["saved"] == ["cond_"]
    vt = files["VariableType.cpp"]
    assert "if (grad_fn && (self.requires_grad() || (other.has_value() && other->requires_grad()))) {" in vt


def test_invalid_dispatch_key(specs):
    bad = LANG_DERIVS.replace("AutogradNestedTensor:", "AutogradTPU:")
    assert _error(specs, LANG_DECLS, bad) == (
        "derivatives.yaml:5:5: invalid dispatch key 'AutogradTPU'; expected one of Default, AutogradNestedTensor, "
        "Autograd, AutogradCPU, AutogradCUDA, AutogradMeta, AutogradMPS, AutogradXLA, AutogradLazy, AutogradIPU, "
        "AutogradXPU, AutogradPrivateUse1"
    )


@pytest.mark.parametrize("namespace, shards", [("gradgen", 1), ("myproject::ops", 1), ("myproject::ops", 3)])
def test_headers_use_using_declarations_not_using_namespace(specs, namespace, shards):
    files = _gen(specs, namespace=namespace, shards=shards)
    for name, text in files.items():
        if name.endswith(".h"):
            assert "using namespace" not in text, name
    # Functions.h (or each shard's header) names exactly the runtime types its nodes use.
    node_headers = [n for n in files if n.startswith("Functions") and n.endswith(".h") and (shards == 1 or "_" in n)]
    decls = "".join(files[n] for n in node_headers)
    assert "using ::gradgen::autograd::Node;" in decls
    assert "using ::gradgen::autograd::SavedVariable;" in decls
    assert "using ::gradgen::Tensor;" not in decls  # no member is a bare Tensor
    api = files["VariableType.h"]
    if namespace == "gradgen":
        assert "using ::gradgen" not in api  # the runtime's own namespace
    else:
        assert "using ::gradgen::Scalar;\nusing ::gradgen::Tensor;\nusing ::gradgen::TensorList;\n" in api
        assert "using ::gradgen::Scalar;" in files["NativeFunctions.h"]


FOREACH_DECLS = """\
- func: mul.Scalar(Tensor self, Scalar other) -> Tensor
- func: mul.Tensor(Tensor self, Tensor other) -> Tensor
- func: _foreach_mul.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]
- func: _foreach_mul.List(Tensor[] self, Tensor[] other) -> Tensor[]
- func: _foreach_mul_.List(Tensor(a!)[] self, Tensor[] other) -> ()
"""
FOREACH_DERIVS = """\
- name: mul.Tensor(Tensor self, Tensor other) -> Tensor
  self: mul_tensor_backward(grad, other, self.scalar_type())
  other: mul_tensor_backward(grad, self, other.scalar_type())
- name: mul.Scalar(Tensor self, Scalar other) -> Tensor
  self: mul_tensor_backward(grad, other, self.scalar_type())
"""


def test_foreach_ops_without_entries_take_their_reference_formulas_per_element(specs):
    files = _gen(specs, FOREACH_DECLS, FOREACH_DERIVS)
    nodes = _nodes(files)
    # The reference is the op with the foreach op's argument types (element types for lists);
    # arguments are renamed by position (mul.Scalar's `other` is `scalar`) and saved whole.
    assert nodes["ForeachMulBackward0List"] == {
        "name": "ForeachMulBackward0List",
        "op": "_foreach_mul.List",
        "inputs": [{"name": "self", "range": "self_size_"}, {"name": "other", "range": "other_size_"}],
        "saved": ["other_", "other_size_", "self_", "self_size_"],
    }
    assert nodes["ForeachMulBackward1Scalar"]["saved"] == ["scalar", "self_", "self_size_"]
    cpp = files["Functions.cpp"]
    assert "// other: mul_tensor_backward(grads[i], self[i], other[i].scalar_type())" in cpp
    assert "// self: mul_tensor_backward(grads[i], scalar, self[i].scalar_type())" in cpp
    # An in-place foreach op records no node from the out-of-place one's per-element formulas.
    vt = files["VariableType.cpp"]
    inplace = vt[vt.index("void _foreach_mul_(") :]
    assert "grad_fn" not in inplace[: inplace.index("\n}\n")]
