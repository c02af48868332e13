"""gradgen.autograd.to_dot (DOT text, checked structurally; parsed by Graphviz when installed)
and anomaly mode from Python (detect_anomaly: node, slot, forward op and the Python stack)."""

import re
import shutil
import subprocess
import threading

import pytest

import gradgen
from gradgen import autograd


def edges(dot):
    return re.findall(r"^  (\w+) -> (\w+)(?: \[label=\" ([0-9:]*)\"\])?;$", dot, re.M)


def labels(dot):
    return dict(re.findall(r'^  (\w+) \[label="([^"]*)"', dot, re.M))


def small_graph():
    w = gradgen.randn(3, 2, seed=0, requires_grad=True)
    b = gradgen.randn(2, seed=1, requires_grad=True)
    x = gradgen.randn(4, 3, seed=2)
    loss = (gradgen.tanh(x @ w + b) ** 2).sum()
    return loss, {"w": w, "b": b, "x": x}


def test_to_dot_names_nodes_leaves_and_slots():
    loss, params = small_graph()
    dot = autograd.to_dot(loss, params)
    assert dot.startswith("digraph autograd {\n") and dot.endswith("}\n")
    names = labels(dot)
    assert names["t0"] == "output\\n[]"
    assert names["n0"] == "SumBackward0\\n[]"
    node_names = sorted(v.split("\\n")[0] for k, v in names.items() if k.startswith("n"))
    assert node_names == sorted(
        ["SumBackward0", "PowBackward0", "TanhBackward0", "AddBackward0", "MmBackward0", "w", "b"]
    )
    leaf = {v.split("\\n")[0]: k for k, v in names.items()}
    assert names[leaf["w"]] == "w\\n[3, 2]" and names[leaf["b"]] == "b\\n[2]"
    # add's slot 0 comes from mm, slot 1 is b; mm's slot 0 (x) needs no gradient: only slot 1.
    by_source = {}
    for src, dst, label in edges(dot):
        by_source.setdefault(src, []).append((label, names[dst].split("\\n")[0]))
    add = leaf["AddBackward0"]
    mm = leaf["MmBackward0"]
    assert sorted(by_source[add]) == [("0", "MmBackward0"), ("1", "b")]
    assert by_source[mm] == [("1", "w")]
    assert "x" not in leaf
    assert dot == autograd.to_dot(loss, params)  # deterministic


def test_to_dot_tensor_list_slots():
    a = gradgen.randn(2, seed=0, requires_grad=True)
    b = gradgen.randn(3, seed=1, requires_grad=True)
    y = gradgen.cat([a, gradgen.randn(1, seed=2), b], 0)
    dot = autograd.to_dot([y], {"a": a, "b": b})
    names = labels(dot)
    assert [(s, d, label) for s, d, label in edges(dot) if s == "n0"] == [("n0", "n1", "0"), ("n0", "n2", "2")]
    assert names["n1"] == "a\\n[2]" and names["n2"] == "b\\n[3]"


def test_to_dot_rejects_non_tensor_params():
    loss, _ = small_graph()
    with pytest.raises(TypeError, match=r"params\['w'\] is a int"):
        autograd.to_dot(loss, {"w": 3})


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's `dot` is not installed: DOT syntax not checked")
def test_to_dot_parses_with_graphviz(tmp_path):
    loss, params = small_graph()
    out = subprocess.run(
        ["dot", "-Tsvg"], input=autograd.to_dot(loss, params), capture_output=True, text=True, check=True
    )
    assert "<svg" in out.stdout and "MmBackward0" in out.stdout


def test_detect_anomaly_names_node_slot_forward_op_and_python_stack():
    assert not autograd.is_anomaly_enabled()
    a = gradgen.ones(2)
    b = gradgen.zeros(2, requires_grad=True)
    with autograd.detect_anomaly():
        assert autograd.is_anomaly_enabled()
        y = a / b  # the line the stack must show
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
    assert not autograd.is_anomaly_enabled()
    message = str(info.value)
    assert "Function 'DivBackward0' returned inf values in its output 1, the gradient for input slot 1" in message
    assert "of forward op 'div.Tensor'" in message
    assert "y = a / b  # the line the stack must show" in message
    assert "test_graph_anomaly.py" in message


def test_anomaly_metadata_only_while_on_and_per_thread():
    x = gradgen.randn(3, seed=0, requires_grad=True)
    assert autograd.forward_call_site(gradgen.sqrt(x * x).grad_fn) is None
    seen = []
    with autograd.detect_anomaly():
        op, user_op, stack = autograd.forward_call_site(gradgen.sqrt(x).grad_fn)
        thread = threading.Thread(target=lambda: seen.append(autograd.is_anomaly_enabled()))
        thread.start()
        thread.join()
    assert (op, user_op) == ("sqrt", "sqrt")
    assert "test_anomaly_metadata_only_while_on_and_per_thread" in stack
    assert seen == [False]


def test_without_anomaly_mode_inf_passes_silently():
    b = gradgen.zeros(2, requires_grad=True)
    (gradgen.ones(2) / b).sum().backward()
    assert b.grad.tolist() == [float("-inf")] * 2


def test_detect_anomaly_as_decorator_and_set_detect_anomaly():
    @autograd.detect_anomaly()
    def inside():
        with autograd.set_detect_anomaly(False):
            off = autograd.is_anomaly_enabled()
        return autograd.is_anomaly_enabled(), off

    assert inside() == (True, False)
    assert not autograd.is_anomaly_enabled()
