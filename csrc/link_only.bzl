"""`cc_link_only`: a dependency's objects and libraries without its headers."""

load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

def _cc_link_only_impl(ctx):
    return [CcInfo(linking_context = ctx.attr.dep[CcInfo].linking_context)]

cc_link_only = rule(
    implementation = _cc_link_only_impl,
    doc = """Links `dep` into what depends on this target, without putting `dep`'s headers (or
those of its own deps) on their compiles. A cc_library's headers reach every compile of every
library above it, and a remote cache and the sandbox take each of them as an input; this keeps
a library that is an implementation detail (Eigen under gradgen's kernels) out of them.""",
    attrs = {
        "dep": attr.label(
            doc = "Label: the cc_library whose objects to link.",
            providers = [CcInfo],
            mandatory = True,
        ),
    },
)
