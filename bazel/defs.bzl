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

README.md's tour is a full example; docs/spec-language.md is the spec language, docs/starlark.md
(generated from these files' doc strings) the reference of everything here.
"""

load("//bazel/private:codegen.bzl", _AutogradCodegenInfo = "AutogradCodegenInfo", _autograd_codegen = "autograd_codegen")
load("//bazel/private:library.bzl", _autograd_library = "autograd_library")
load("//bazel/private:pytest.bzl", _py_pytest = "py_pytest")
load("//bazel/private:python.bzl", _gradgen_py_extension = "gradgen_py_extension")

autograd_codegen = _autograd_codegen
autograd_library = _autograd_library
AutogradCodegenInfo = _AutogradCodegenInfo
gradgen_py_extension = _gradgen_py_extension
py_pytest = _py_pytest
