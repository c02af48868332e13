"""gradgen.profiler (Chrome trace JSON parsed, forward ops linked to their Backward nodes by
sequence number, key_averages().table()) and gradgen.jit.trace (SSA text, JSON, replay)."""

import json
import warnings

import pytest

import gradgen


def mlp_loss(x, w1, b1, w2):
    return (gradgen.tanh(x @ w1 + b1) @ w2).sum()


def params(seed):
    return (
        gradgen.randn(5, 3, seed=seed, dtype=gradgen.float64),
        gradgen.randn(3, 4, seed=seed + 1, dtype=gradgen.float64, requires_grad=True),
        gradgen.randn(4, seed=seed + 2, dtype=gradgen.float64, requires_grad=True),
        gradgen.randn(4, 2, seed=seed + 3, dtype=gradgen.float64, requires_grad=True),
    )


def test_chrome_trace_parses_and_links_forward_ops_to_backward_nodes(tmp_path):
    x, w1, b1, w2 = params(0)
    with gradgen.profiler.profile() as prof:
        mlp_loss(x, w1, b1, w2).backward()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(path)
    trace = json.loads(path.read_text())
    events = trace["traceEvents"]
    complete = [e for e in events if e["ph"] == "X"]
    for e in complete:
        assert set(e) == {"name", "cat", "ph", "ts", "dur", "pid", "tid", "args"}
        assert e["dur"] >= 0 and e["cat"] in ("cpu_op", "backward")
    # x @ w is matmul, which calls mm inside (depth 1); both link to the node mm created.
    forward = {
        e["args"]["Sequence number"]: e
        for e in complete
        if e["cat"] == "cpu_op" and e["name"] == "mm" and e["args"]["Sequence number"] >= 0
    }
    backward = [e for e in complete if e["cat"] == "backward"]
    names = {e["name"] for e in backward}
    assert {"MmBackward0", "AddBackward0", "TanhBackward0", "SumBackward0", "AccumulateGrad"} <= names
    # Each MmBackward0 has the sequence number of a forward mm, which started before it.
    mm_nodes = [e for e in backward if e["name"] == "MmBackward0"]
    assert len(mm_nodes) == 2
    for node in mm_nodes:
        fwd = forward[node["args"]["Sequence number"]]
        assert fwd["ts"] < node["ts"]
    assert sorted(f["args"]["Input Dims"] for f in forward.values()) == [[[5, 3], [3, 4]], [[5, 4], [4, 2]]]
    # Flow events come in pairs with the same id, from a forward op to a backward node.
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts and set(starts) == set(finishes)
    for node in mm_nodes:
        assert node["args"]["Sequence number"] in finishes


def test_key_averages_table_and_events():
    x, w1, b1, w2 = params(0)
    with gradgen.profiler.profile() as prof:
        for _ in range(3):
            mlp_loss(x, w1, b1, w2).backward()
    stats = {s.key: s for s in prof.key_averages()}
    assert stats["tanh"].count == 3 and stats["TanhBackward0"].count == 3
    assert stats["mm"].count >= 6  # forward, plus those the backward formulas call
    assert all(s.self_cpu_time_total <= s.cpu_time_total for s in stats.values())
    table = prof.key_averages().table(row_limit=5)
    header = table.splitlines()[1].split()
    assert header[0] == "Name" and "Self CPU %" in table and "# of Calls" in table
    assert len(table.splitlines()) == 5 + 5  # rules, header, 5 rows, total
    kinds = {e["kind"] for e in prof.events()}
    assert kinds == {"op", "backward"}


def test_one_profile_at_a_time():
    with gradgen.profiler.profile():
        with pytest.raises(RuntimeError, match="another Profile is already recording"):
            with gradgen.profiler.profile():
                pass


def test_trace_text_json_and_replay_on_new_inputs():
    example = params(0)
    traced = gradgen.jit.trace(mlp_loss, example)
    # matmul is recorded, not the mm it calls inside.
    assert traced.ops == ["matmul", "add.Tensor", "tanh", "matmul", "sum"]
    text = traced.graph
    assert text.splitlines()[0] == "graph(%0 : Double[5, 3], %1 : Double[3, 4], %2 : Double[4], %3 : Double[4, 2]):"
    assert "  %4 : Double[5, 4] = matmul(%0, %1)" in text.splitlines()
    assert text.splitlines()[-1] == "  return (%8)"
    graph = json.loads(traced.json())
    assert [n["op"] for n in graph["nodes"]] == traced.ops
    assert graph["nodes"][0]["args"] == [{"name": "self", "value": 0}, {"name": "other", "value": 1}]
    for seed in (10, 20):
        new = params(seed)
        assert traced(*new).item() == mlp_loss(*new).item()
    # The replayed graph is differentiable like the original.
    new = params(30)
    traced(*new).backward()
    expected = [p.grad for p in new[1:]]
    again = params(30)
    mlp_loss(*again).backward()
    for got, want in zip(expected, [p.grad for p in again[1:]]):
        assert got.tolist() == want.tolist()


def test_trace_of_several_outputs_and_errors():
    traced = gradgen.jit.trace(lambda a, b: (a * b, a + b), (gradgen.tensor([1.0, 2.0]), gradgen.tensor([3.0, 4.0])))
    prod, total = traced(gradgen.tensor([2.0, 3.0]), gradgen.tensor([5.0, 7.0]))
    assert prod.tolist() == [10.0, 21.0] and total.tolist() == [7.0, 10.0]
    with pytest.raises(RuntimeError, match="the graph takes 2 inputs, got 1"):
        traced(gradgen.tensor([1.0]))
    with pytest.raises(TypeError, match=r"example_inputs\[1\] is a int"):
        gradgen.jit.trace(lambda a, b: a, (gradgen.tensor([1.0]), 3))
    with pytest.raises(ZeroDivisionError):
        gradgen.jit.trace(lambda a: 1 / 0, (gradgen.tensor([1.0]),))
    # The failed trace left no tracing state behind.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gradgen.jit.trace(lambda a: a * 2.0, (gradgen.tensor([1.0]),)).ops == [
            "mul.Tensor"
        ]  # the 2.0 a wrapped number, as torch traces it
