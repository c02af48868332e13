"""One test per class of the Python fuzz run's crashes, hangs and silent differences (issue 28).

Each crash and hang runs in a child process, so that a regression fails this test (naming the
case) instead of killing the test run. The expectations are PyTorch's (2.13) answers.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gradgen


def run_child(code, timeout=60):
    """Runs `code` in a fresh interpreter with this one's sys.path; returns its stdout."""
    source = "import sys; sys.path[:0] = %r\n" % sys.path + textwrap.dedent(code)
    proc = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "child exited with %d:\n%s" % (proc.returncode, proc.stderr[-3000:])
    return proc.stdout


# --- crashes -----------------------------------------------------------------------------------


def test_negative_strides_on_size_0_and_1_dims():
    # from_numpy recursed endlessly where NumPy calls such an array contiguous (815 of 840).
    out = run_child(
        """
        import numpy as np, gradgen
        for a in (np.zeros(1)[::-1], np.zeros((1, 1))[::-1, ::-1], np.arange(3.0)[::-1]):
            try:
                gradgen.from_numpy(a)
                print("shared")
            except ValueError as e:
                print("ValueError", "negative" in str(e))
            print(gradgen.tensor(a).tolist())
        print(gradgen.from_numpy(np.zeros((2, 0))[::-1]).shape)  # no negative stride left: shared
        """
    )
    assert out.split("\n")[:6] == [
        "ValueError True", "[0.0]", "ValueError True", "[[0.0]]", "ValueError True", "[2.0, 1.0, 0.0]"
    ]  # fmt: skip
    assert out.split("\n")[6] == "gradgen.Size([2, 0])"


def test_datetime_and_other_numpy_dtypes_are_type_errors():
    out = run_child(
        """
        import numpy as np, gradgen
        values = [np.datetime64("2020-01-01"), np.timedelta64(5, "s"), np.zeros(3, "datetime64[s]"),
                  np.zeros(3, "m8[ns]"), np.array(np.datetime64("2020-01-01")), np.ones(3, np.uint16),
                  np.ones(3, complex), np.array([1, None], dtype=object), np.ones(3, np.uint64)]
        for v in values:
            for f in (gradgen.from_numpy, gradgen.tensor):
                try:
                    f(v)
                    print("value")
                except TypeError as e:
                    print("TypeError")
        """
    )
    assert out.split() == ["TypeError"] * 18


def test_big_endian_arrays_are_value_errors():
    with pytest.raises(ValueError, match="byte order"):
        gradgen.from_numpy(np.ones(3, ">f8"))


def test_numpy_scalars_convert_as_numbers():
    assert gradgen.tensor(np.float64(2.5)).item() == 2.5
    assert gradgen.tensor(np.int64(2)).dtype is gradgen.int64
    assert gradgen.tensor(np.bool_(True)).dtype is gradgen.bool
    with pytest.raises(TypeError, match="expected np.ndarray"):
        gradgen.from_numpy(np.float64(2.5))


def test_index_select_on_a_0_dim_tensor_takes_one_index():
    # It wrote past its 1-element result (heap corruption).
    out = run_child(
        """
        import gradgen
        x = gradgen.tensor(3.0)
        print(x.index_select(0, gradgen.tensor([0])).item(), x.index_select(0, gradgen.tensor(0)).item())
        for index in ([0, 0, 0], []):
            try:
                x.index_select(0, gradgen.tensor(index, dtype=gradgen.int64))
            except RuntimeError as e:
                print(e)
        """
    )
    assert out.splitlines() == [
        "3.0 3.0",
        "index_select: index to a 0-dim tensor can have only 1 value, got 3 value(s)",
        "index_select: index to a 0-dim tensor can have only 1 value, got 0 value(s)",
    ]


def test_index_add_on_a_0_dim_tensor_takes_one_index():
    x = gradgen.tensor(3.0)
    assert x.index_add(0, gradgen.tensor([0]), gradgen.tensor(1.0)).item() == 4.0
    with pytest.raises(RuntimeError, match="only 1 value, got 2"):
        x.index_add(0, gradgen.tensor([0, 0]), gradgen.tensor(1.0))


def test_deeply_nested_lists_are_value_errors():
    # A C stack overflow at ~100,000; PyTorch's limit is 128 dims.
    out = run_child(
        """
        import gradgen
        def deep(n):
            out = 1.0
            for _ in range(n):
                out = [out]
            return out
        print(gradgen.tensor(deep(128)).dim())
        for n in (129, 100000):
            try:
                gradgen.tensor(deep(n))
            except ValueError as e:
                print(e)
        """
    )
    assert out.splitlines() == ["128"] + ["tensor: too many dimensions 'list' (at most 128 nested sequences)"] * 2


# --- hangs -------------------------------------------------------------------------------------


def test_cumprod_of_an_empty_tensor_with_huge_dims_returns_at_once():
    out = run_child("import gradgen; print(gradgen.ones(1).expand([0, 2**62]).cumprod(0).shape)", timeout=20)
    assert out.strip() == "gradgen.Size([0, %d])" % 2**62


def test_repr_of_a_huge_expanded_tensor_is_summarized():
    out = run_child(
        """
        import gradgen
        print(repr(gradgen.ones(1).expand([2**40])))
        print(repr(gradgen.ones(1).expand([3, 2**40])).count("..."))
        """,
        timeout=20,
    )
    lines = out.splitlines()
    assert lines[0] == "tensor([1., 1., 1.,  ..., 1., 1., 1.])"  # PyTorch's " ..." cell
    assert lines[1] == "3"


# --- out-of-bounds reads (valgrind found them; test_valgrind runs them under memcheck) ---------


def test_softmax_and_log_softmax_over_an_empty_dim():
    for f in (gradgen.softmax, gradgen.log_softmax):
        assert f(gradgen.ones(3, 0), 1).shape == (3, 0)
        assert f(gradgen.ones(0, 3), 0).shape == (0, 3)
    loss = gradgen.cross_entropy_loss(gradgen.ones(0, 3), gradgen.zeros(0, dtype=gradgen.int64))
    assert loss.dim() == 0


def test_lstm_cell_with_hidden_size_0():
    h, c = gradgen.lstm_cell(
        gradgen.ones(2, 3), [gradgen.ones(2, 0), gradgen.ones(2, 0)], gradgen.ones(0, 3), gradgen.ones(0, 0)
    )
    assert h.shape == (2, 0) and c.shape == (2, 0)


# --- silent differences ------------------------------------------------------------------------


def test_chunk_of_a_size_0_dim_gives_n_empty_chunks():
    pieces = gradgen.zeros(0, 2).chunk(3)
    assert len(pieces) == 3 and all(p.shape == (0, 2) for p in pieces)
    assert [p.shape for p in gradgen.zeros(0, 2).chunk(3, 1)] == [(0, 1), (0, 1)]
    with pytest.raises(RuntimeError, match="at most 65536 chunks"):
        gradgen.zeros(0).chunk(2**62)


def test_embedding_padding_idx_must_be_a_row():
    w = gradgen.ones(3, 2)
    for padding_idx in (5, 3, -2, -4):
        with pytest.raises(RuntimeError, match="Padding_idx must be within num_embeddings"):
            gradgen.embedding(w, gradgen.tensor([0]), padding_idx)
    assert gradgen.embedding(w, gradgen.tensor([0]), 2).shape == (1, 2)
    assert gradgen.embedding(w, gradgen.tensor([0]), -1).shape == (1, 2)


def test_no_error_reads_a_bare_bad_cast():
    # Each names what it expected.
    assert "uninitialized" in str(gradgen.Node.__new__(gradgen.Node))
    assert "uninitialized" in repr(gradgen.AccumulateGrad.__new__(gradgen.AccumulateGrad))
    with pytest.raises(TypeError, match="expected the traced function to return a list of Tensors, got int"):
        gradgen._C._trace(lambda inputs: 3, [gradgen.ones(2)])
    with pytest.raises(TypeError, match="got an uninitialized Tensor"):
        gradgen.tensor([gradgen.Tensor.__new__(gradgen.Tensor)])
    x = gradgen.ones(2)
    with pytest.raises(TypeError, match="expected a Tensor or a number"):
        x[0] = gradgen.Tensor.__new__(gradgen.Tensor)


# --- out of memory -----------------------------------------------------------------------------


def test_running_out_of_memory_while_making_tensors_raises_memory_error():
    # nanobind's instance table grows inside noexcept code: its std::bad_alloc aborted the
    # process. Where memory runs out depends on the limit: several limits, in children.
    code = """
        import resource, sys, gradgen
        limit = int(sys.argv[1]) << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        keep = []
        try:
            while True:
                keep.append(gradgen.ones(1))
        except (MemoryError, RuntimeError) as e:  # RuntimeError: the tensor's own allocation
            keep.clear()
            print(type(e).__name__ == "MemoryError" or "can't allocate memory" in str(e))
        print(gradgen.ones(2).sum().item())  # and the process goes on
    """
    source = "import sys; sys.path[:0] = %r\n" % sys.path + textwrap.dedent(code)
    limits = [458, 495, 560]  # 458 and 495 aborted before the fix
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", source, str(mb)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for mb in limits
    ]
    for mb, proc in zip(limits, procs):
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, "limit %d MB: exit code %d\n%s" % (mb, proc.returncode, err[-2000:])
        assert out.split("\n")[:2] == ["True", "2.0"], (mb, out)


# --- found by a longer campaign (seed 7, 100,000 calls) -----------------------------------------


def test_narrow_with_huge_start_and_length_is_an_error():
    # start + length overflowed int64, passed the bounds check and made a view outside the
    # storage (a segfault on use).
    out = run_child(
        """
        import gradgen
        for x in (gradgen.zeros(0), gradgen.zeros(4)):
            try:
                x.narrow(0, 2**63 - 1, 2**40).tolist()
            except RuntimeError as e:
                print("narrow" in str(e))
        """
    )
    assert out.split() == ["True", "True"]


def test_split_of_an_empty_tensor_into_too_many_pieces_is_an_error():
    x = gradgen.ones(1).expand([0, 2**62])
    with pytest.raises(RuntimeError, match="at most 65536 pieces"):
        x.split(3, dim=-1)
    assert len(gradgen.zeros(0, 6).split(3, dim=1)) == 2


def test_pixel_shuffle_with_a_huge_factor_is_an_error():
    # Found by the robustness test: upscale_factor 2^62 squared wrapped to 0 and the divisibility
    # check divided by it (SIGFPE, the interpreter killed). PyTorch 2.13: "upscale factor is too
    # large, (upscale_factor)^2 overflowed: upscale_factor=4611686018427387904" (a ValueError).
    out = run_child(
        """
        import gradgen
        for call in (lambda: gradgen.pixel_shuffle(gradgen.ones(1, 1, 1), 2**62),
                     lambda: gradgen.pixel_shuffle(gradgen.ones(0, 1, 1), 2**32),
                     lambda: gradgen.pixel_unshuffle(gradgen.ones(1, 0, 0), 2**32),
                     lambda: gradgen.pixel_shuffle(gradgen.ones(1).expand([0, 2**62, 4]), 2)):
            try:
                call()
                print("no error")
            except RuntimeError as e:
                print("overflow" in str(e))
        """
    )
    assert out.split() == ["True", "True", "True", "True"]


def test_upsampling_to_a_size_that_overflows_is_an_error_at_once():
    # Found by the robustness test: output_size [2^63 - 1] built its per-position tables first
    # (minutes, a hang to the test). PyTorch 2.13: "Storage size calculation overflowed with
    # sizes=[2, 3, 9223372036854775807]".
    x = gradgen.randn(2, 3, 4)
    with pytest.raises(RuntimeError, match=r"upsample_linear1d: Storage size calculation overflowed"):
        gradgen.upsample_linear1d(x, [2**63 - 1], False, None)
    with pytest.raises(RuntimeError, match=r"upsample_nearest2d: Storage size calculation overflowed"):
        gradgen.upsample_nearest2d(gradgen.randn(2, 3, 4, 4), [2**40, 2**40])
