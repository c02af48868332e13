// Kernels of the rule tests in tests/bazel (analysis only: never compiled).
