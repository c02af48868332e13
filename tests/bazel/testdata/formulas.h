// Formula helpers of the rule tests in tests/bazel (analysis only: never compiled).
#pragma once
