"""gradgen's public Starlark API. Everything public is re-exported here; the rest is private.

    load("@gradgen//bazel:defs.bzl", "autograd_library")

    autograd_library(
        name = "my_ops",
        functions = "native_functions.yaml",
        derivatives = "derivatives.yaml",
        srcs = ["kernels.cc", "formulas.cc"],
        hdrs = ["formulas.h"],
        formula_headers = ["ops/formulas.h"],
    )

See README.md for the spec language and a full example.
"""

load("//bazel/private:codegen.bzl", _AutogradCodegenInfo = "AutogradCodegenInfo", _autograd_codegen = "autograd_codegen")
load("//bazel/private:library.bzl", _autograd_library = "autograd_library")
load("//bazel/private:python.bzl", _gradgen_py_extension = "gradgen_py_extension")

autograd_codegen = _autograd_codegen
autograd_library = _autograd_library
AutogradCodegenInfo = _AutogradCodegenInfo
gradgen_py_extension = _gradgen_py_extension
