"""The codegen as a Bazel persistent worker: one Python process serves many GradgenCodegen actions.

Bazel starts `gen_autograd --persistent_worker` once (per configuration of the tool) and sends it
one WorkRequest per action on stdin: the action's arguments, which the rule writes into a params
file. The worker runs the codegen on them and answers with a WorkResponse on stdout: the exit
status and what the run wrote to stderr (a spec error `file:line: message`, which Bazel shows as
the action's output). Messages are length-prefixed protocol buffers, the format of Bazel's
src/main/protobuf/worker_protocol.proto; `WORKER_PROTOCOL` below declares the messages and fields
gradgen uses, and the protobuf runtime (PyPI `protobuf`, pinned in requirements_lock.txt) parses
and writes them.

Why: a one-shot run spends about 0.35 s of a 2,000-op codegen starting Python, importing the
codegen and compiling its templates, before it reads a spec; a worker pays that once per build
session, and keeps what it made from unchanged inputs for the next request (Note [Worker cache]
in gen_autograd.py: the declarations, each derivative entry, each node's and wrapper's text), so
that a request after an edit of one formula redoes only what that formula touches. The results
are the same files either way: each request parses its flags afresh, every cache is keyed by
content (file bytes, an entry's text and line, flag values), and
`tests/codegen/test_bazel_worker.py` checks that a worker's outputs and messages equal a one-shot
run's, byte for byte, after each kind of edit.
"""

from __future__ import annotations

import contextlib
import io
import traceback
from typing import BinaryIO, Callable, List, Tuple

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, proto

_F = descriptor_pb2.FieldDescriptorProto

# (message, [(field, number, type, repeated)]): the fields of worker_protocol.proto's messages
# that gradgen reads or writes, with Bazel's numbers. Unknown fields (`cancel`, `verbosity`,
# newer ones) are kept by the parser and ignored.
WORKER_PROTOCOL = [
    ("Input", [("path", 1, _F.TYPE_STRING, False), ("digest", 2, _F.TYPE_BYTES, False)]),
    (
        "WorkRequest",
        [
            ("arguments", 1, _F.TYPE_STRING, True),
            ("inputs", 2, _F.TYPE_MESSAGE, True),
            ("request_id", 3, _F.TYPE_INT32, False),
        ],
    ),
    (
        "WorkResponse",
        [
            ("exit_code", 1, _F.TYPE_INT32, False),
            ("output", 2, _F.TYPE_STRING, False),
            ("request_id", 3, _F.TYPE_INT32, False),
        ],
    ),
]


def _message_classes():
    """The WorkRequest and WorkResponse classes, built from WORKER_PROTOCOL."""
    fdp = descriptor_pb2.FileDescriptorProto(
        name="gradgen/worker_protocol.proto", package="blaze.worker", syntax="proto3"
    )
    for message, fields in WORKER_PROTOCOL:
        m = fdp.message_type.add(name=message)
        for name, number, type_, repeated in fields:
            f = m.field.add(name=name, number=number, type=type_)
            f.label = _F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL
            if type_ == _F.TYPE_MESSAGE:
                f.type_name = ".blaze.worker.Input"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return tuple(
        message_factory.GetMessageClass(pool.FindMessageTypeByName(f"blaze.worker.{name}"))
        for name in ("WorkRequest", "WorkResponse")
    )


WorkRequest, WorkResponse = _message_classes()


def serve(run: Callable[[List[str]], int], stdin: BinaryIO, stdout: BinaryIO, after: Callable[[], None]) -> None:
    """Answers WorkRequests from stdin until it closes: `run(arguments)` gives the exit status,
    and what it prints (to stdout or stderr) is the response's output. `after()` runs once each
    response is sent (the caller frees memory there, off the action's time)."""
    while True:
        request = proto.parse_length_prefixed(WorkRequest, stdin)
        if request is None:  # stdin closed: Bazel is done with this worker
            return
        exit_code, output = _run_captured(run, list(request.arguments))
        response = WorkResponse(exit_code=exit_code, output=output, request_id=request.request_id)
        proto.serialize_length_prefixed(response, stdout)
        stdout.flush()
        after()


def _run_captured(run: Callable[[List[str]], int], arguments: List[str]) -> Tuple[int, str]:
    """run(arguments) with stdout and stderr captured (stdout carries the protocol: nothing else
    may reach it). An unexpected exception is exit status 1 with its traceback in the output, and
    the worker goes on serving."""
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
        try:
            code = run(arguments)
        except Exception:  # noqa: BLE001 - a one-shot run would print it and exit 1
            traceback.print_exc(file=captured)
            code = 1
    return code, captured.getvalue()
