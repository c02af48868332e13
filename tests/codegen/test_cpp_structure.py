"""No hand-written C++ function in csrc/ is over 80 lines (the rule test_structure.py checks for
the codegen's Python and the .bzl files; issue 22 found six C++ functions longer).

The measure is tests/codegen/cpp_functions.py, a brace matcher over clang-format-formatted code;
the first tests pin what it counts on small synthetic sources, so the last one cannot pass by
measuring nothing.
"""

from __future__ import annotations

import textwrap

import cpp_functions
from conftest import TREE

MAX_FUNCTION_LINES = 80


def _measure(source: str) -> list:
    return [tuple(f) for f in cpp_functions.functions(textwrap.dedent(source))]


def test_free_functions_and_namespaces():
    assert _measure("""\
        namespace gradgen {
        namespace {
        int one(int x) {
          return x;
        }
        }  // namespace

        Tensor two(const Tensor& a,
                   const Tensor& b) {
          if (a.defined()) {
            return a;
          }
          return b;
        }
        }  // namespace gradgen
        """) == [("one", 3, 3), ("two", 8, 7)]


def test_declarations_initialisers_and_literals_are_not_functions():
    assert _measure("""\
        int declared(int x);
        Foo() = default;
        const std::array<int, 2> table = {1, 2};
        auto lambda = [](int x) { return x; };
        #define BODY(x) { return x; }
        const char* text = "f() { unbalanced";
        const char* raw = R"json(g() { "}")json";
        // g() {
        /* h() { */
        int after() { return '{'; }
        """) == [("after", 10, 1)]


def test_members_operators_constructors_and_templates():
    assert _measure("""\
        template <typename T, int (*F)(T)>
        struct Box : public Base<T> {
          NB_TYPE_CASTER(T, name)

          Box(int a, int b) : a_(a), b_{b} {
            check();
          }
          bool operator==(const Box& o) const noexcept { return a_ == o.a_; }
          decltype(auto) get() const { return a_; }
          auto sum() const -> std::vector<int> {
            return {a_, b_};
          }
         private:
          struct Buffers {
            int p[2] = {0, 0};
            ~Buffers() { release(p); }
          };
          int a_, b_;
        };
        """) == [("Box", 5, 3), ("operator==", 8, 1), ("get", 9, 1), ("sum", 10, 3), ("~Buffers", 16, 1)]


def test_nested_lambdas_and_local_classes_count_in_their_function():
    assert _measure("""\
        void outer() {
          struct Local {
            void inner() {}
          };
          auto f = [&](int i) {
            return i;
          };
        }
        """) == [("outer", 1, 8)]


def _function_of(lines: int) -> str:
    body = "".join(f"  x += {i};\n" for i in range(lines - 3))
    return f"int long_one(int x) {{\n{body}  return x;\n}}\n"


def test_a_function_over_80_lines_is_listed(tmp_path):
    (tmp_path / "ok.cc").write_text(_function_of(MAX_FUNCTION_LINES))
    (tmp_path / "long.cc").write_text("// the second function is one line too long\n\n" + _function_of(81))
    paths = sorted(tmp_path.glob("*.cc"))
    assert cpp_functions.long_functions(paths, tmp_path, MAX_FUNCTION_LINES) == ["long.cc:3 long_one (81 lines)"]


# The hand-written C++: csrc/ as the source tree holds it (//csrc:hand_written_sources and
# //csrc/python:hand_written_sources); the generated code is built into bazel-out, not found here.
SOURCES = sorted(p for p in (TREE / "csrc").rglob("*") if p.suffix in (".h", ".cc"))


def test_the_sources_are_found():
    found = {str(p.relative_to(TREE)) for p in SOURCES}
    assert {"csrc/tensor.cc", "csrc/native/tensorops_einsum.cc", "csrc/python/module.cc"} <= found


def test_every_source_parses():
    # Every brace of every file is matched (an unbalanced one raises), and the measure finds the
    # functions a file is known to define.
    unparsed = []
    for path in SOURCES:
        try:
            list(cpp_functions.functions(path.read_text()))
        except ValueError as e:
            unparsed.append(f"{path.relative_to(TREE)}: {e}")
    assert unparsed == []
    names = {f.name for f in cpp_functions.functions((TREE / "csrc/python/module.cc").read_text())}
    assert "NB_MODULE" in names


def test_no_cpp_function_is_over_80_lines():
    long = cpp_functions.long_functions(SOURCES, TREE, MAX_FUNCTION_LINES)
    assert long == [], f"functions over {MAX_FUNCTION_LINES} lines: {long}"
