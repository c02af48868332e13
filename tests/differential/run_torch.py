"""Writes expected.json: every case of cases.py run through PyTorch (CPU).

PyTorch is a tool of this script only, never a build or test dependency: the Bazel test
(test_differential.py) reads the checked-in expected.json. To regenerate it after editing
cases.py (PyTorch 2.13 CPU in a separate virtualenv):

    python3 -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch==2.13.0
    /tmp/torchvenv/bin/python tests/differential/run_torch.py

The output is deterministic (sorted keys, cases in list order), so a diff shows what changed.
"""

from __future__ import annotations

import json
import os
import sys
import types
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402
import harness  # noqa: E402


def _lincomb(tensors, coeffs):
    """gradgen's own op (not in PyTorch): sum_i coeffs[i] * tensors[i], coeffs[-1] a constant term."""
    total = None
    for i, t in enumerate(tensors):
        term = coeffs[i] * t
        total = term if total is None else total + term
    if coeffs.shape[0] > len(tensors):
        total = total + coeffs[len(tensors)]
    return total


def _mse_loss(input, target, reduction=1):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Using a target size that is different to the input size"
        return torch.nn.functional.mse_loss(input, target, reduction=["none", "mean", "sum"][reduction])


class TorchAsGradgen(types.ModuleType):
    """torch, plus gradgen's spellings of the ops that PyTorch exposes elsewhere (ATen names)."""

    def __init__(self):
        super().__init__("torch_as_gradgen")
        self.lincomb = _lincomb
        self.linear = torch.nn.functional.linear
        self.logit_backward = torch.ops.aten.logit_backward  # the tensor op library's (issue 23)
        # torch._C._nn's bindings default `reduction` to 0 (None), not to the schema's Mean:
        # the schema's defaults, spelled out.
        # mse_loss as torch.nn.functional.mse_loss, which broadcasts self and target before
        # ATen's op (whose own gradient of a broadcast operand is off: known_differences.txt's
        # header); gradgen's mse_loss broadcasts with that gradient. Equal shapes: the same op.
        self.mse_loss = _mse_loss
        self.nll_loss = lambda input, target, weight=None, reduction=1, ignore_index=-100: torch._C._nn.nll_loss(
            input, target, weight, reduction, ignore_index
        )
        self.cross_entropy_loss = (
            lambda input, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0: (
                torch._C._nn.cross_entropy_loss(input, target, weight, reduction, ignore_index, label_smoothing)
            )
        )
        self.tanh_backward = torch.ops.aten.tanh_backward
        self.sigmoid_backward = torch.ops.aten.sigmoid_backward
        self.threshold_backward = torch.ops.aten.threshold_backward
        self.native_dropout_backward = torch.ops.aten.native_dropout_backward
        # torch.grid_sampler_2d takes no out=; ATen's packet picks .out from it. The backward's
        # out= is a tuple in gradgen (ATen's names are out0 and out1).
        self.grid_sampler_2d = torch.ops.aten.grid_sampler_2d
        self.grid_sampler_2d_backward = lambda *args, out=None: (
            torch.ops.aten.grid_sampler_2d_backward(*args)
            if out is None
            else torch.ops.aten.grid_sampler_2d_backward(*args, out0=out[0], out1=out[1])
        )

        # torch._ctc_loss takes no out=: ATen's packet picks .out / .Tensor_out from it (out0, out1).
        self._ctc_loss = lambda *args, out=None: (
            torch._ctc_loss(*args) if out is None else torch.ops.aten._ctc_loss(*args, out0=out[0], out1=out[1])
        )

    def __getattr__(self, name):
        # The nn ops (gelu, elu_backward, log_sigmoid_forward, ...) live in torch._C._nn or only
        # in torch.ops.aten, whose overload packets pick the overload from the arguments
        # (grad_input= selects gelu_backward.grad_input).
        for namespace in (torch, torch._C._nn):
            if hasattr(namespace, name):
                return getattr(namespace, name)
        return getattr(torch.ops.aten, name)


def main() -> int:
    torch.manual_seed(0)
    T = TorchAsGradgen()
    out = {}
    for c in cases.CASES:
        out[c.name] = harness.run(T, c)
    path = os.path.join(HERE, "expected.json")
    with open(path, "w") as f:
        f.write('{"torch_version": %s,\n "cases": {\n' % json.dumps(torch.__version__))
        items = list(out.items())
        for i, (name, rec) in enumerate(items):
            f.write(
                "  %s: %s%s\n" % (json.dumps(name), json.dumps(rec, sort_keys=True), "," if i + 1 < len(items) else "")
            )
        f.write("}}\n")
    print("wrote %d cases to %s" % (len(out), os.path.relpath(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
