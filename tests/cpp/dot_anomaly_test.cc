// Tests of autograd::to_dot (the DOT text, checked structurally) and of anomaly mode
// (DetectAnomaly: which node, slot and forward op a NaN/inf gradient is blamed on).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/anomaly_mode.h"
#include "csrc/autograd/dot.h"
#include "csrc/autograd/engine.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/VariableType.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

std::vector<std::string> lines_matching(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (std::regex_search(line, re)) out.push_back(line);
    start = end + 1;
  }
  return out;
}

TEST(ToDot, NamesNodesLeavesShapesAndSlots) {
  Tensor w = randn({3, 2}, 0).set_requires_grad(true);
  Tensor x = randn({4, 3}, 1);
  Tensor loss = sum(tanh(mm(x, w)));
  const std::string dot = autograd::to_dot(loss, {{"w", w}, {"x", x}});

  EXPECT_EQ(dot.rfind("digraph autograd {\n", 0), 0u) << dot;
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
  // Breadth-first from the root: the root tensor, then sum, tanh, mm, then w's leaf.
  EXPECT_NE(dot.find("t0 [label=\"output\\n[]\", shape=ellipse"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n0 [label=\"SumBackward0\\n[]\"]"), std::string::npos) << dot;
  // Under the gradient shapes, what each node saved, with shapes (tanh saves its result).
  EXPECT_NE(dot.find("n1 [label=\"TanhBackward0\\n[4, 2]\\nresult: [4, 2]\"]"), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("n2 [label=\"MmBackward0\\n[4, 2]\\nself: [4, 3]\\nmat2: [3, 2]\"]"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("n3 [label=\"w\\n[3, 2]\", fillcolor="), std::string::npos) << dot;
  // x needs no gradient: mm's slot 0 has no edge, slot 1 goes to w.
  EXPECT_NE(dot.find("n2 -> n3 [label=\" 1\"];"), std::string::npos) << dot;
  EXPECT_EQ(lines_matching(dot, "^  n2 -> ").size(), 1u) << dot;
  EXPECT_EQ(lines_matching(dot, " -> ").size(), 4u) << dot;
  EXPECT_EQ(dot.find("\"x"), std::string::npos) << "x is no node of the graph:\n" << dot;
}

TEST(ToDot, SavedTensorListsDtypesAndFreedTensors) {
  Tensor a = randn({2}, 0).set_requires_grad(true);
  Tensor b = to(randn({3}, 1), ScalarType::Float).set_requires_grad(true);
  Tensor coeffs = randn({2}, 2).set_requires_grad(true);
  // lincomb saves its Tensor[] (for coeffs' gradient): one line per element, dtype when
  // not Double.
  Tensor y = lincomb({a, a}, coeffs);
  const std::string dot = autograd::to_dot(y);
  EXPECT_NE(dot.find("LincombBackward0\\n[2]\\ntensors[0]: [2]\\ntensors[1]: [2]\\ncoeffs: [2]\""),
            std::string::npos)
      << dot;
  Tensor z = mul(b, b);
  EXPECT_NE(autograd::to_dot(z).find(
                "MulBackward0\\n[3] Float\\nself: [3] Float\\nother: [3] Float"),
            std::string::npos)
      << autograd::to_dot(z);
  // A backward pass without retain_graph frees them: "-".
  sum(y).backward();
  EXPECT_NE(autograd::to_dot(y).find("tensors: -\\ncoeffs: -\""), std::string::npos)
      << autograd::to_dot(y);
}

TEST(ToDot, TensorListSlotsAndSharedLeaves) {
  Tensor a = randn({2}, 0).set_requires_grad(true);
  Tensor b = randn({3}, 1).set_requires_grad(true);
  Tensor c = randn({1}, 2);
  Tensor y = cat({a, c, b, a}, 0);
  const std::string dot = autograd::to_dot(y, {{"a", a}, {"b", b}});
  // cat's Tensor[] is four slots: 0 and 3 to a (one shared leaf node), 2 to b, none for c.
  EXPECT_NE(dot.find("n0 [label=\"CatBackward0\\n[8]\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n0 -> n1 [label=\" 0\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n0 -> n2 [label=\" 2\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n0 -> n1 [label=\" 3\"];"), std::string::npos) << dot;
  EXPECT_EQ(lines_matching(dot, "^  n0 -> ").size(), 3u) << dot;
  EXPECT_NE(dot.find("n1 [label=\"a\\n[2]\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("n2 [label=\"b\\n[3]\""), std::string::npos) << dot;
  // Deterministic: the same graph gives the same text.
  EXPECT_EQ(dot, autograd::to_dot(y, {{"a", a}, {"b", b}}));
}

TEST(ToDot, MultiOutputNodesShowTheInputTheyFeed) {
  Tensor x = randn({4, 2}, 0).set_requires_grad(true);
  std::vector<Tensor> parts = split(x, 2, 0);
  Tensor y = mul(parts[1], 2.0);
  const std::string dot = autograd::to_dot({y, parts[0]}, {{"x", x}, {"first", parts[0]}});
  EXPECT_NE(dot.find("t0 [label=\"output 0\\n[2, 2]\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("t1 [label=\"first\\n[2, 2]\""), std::string::npos) << dot;
  // mul's gradient goes to input 1 of the split node; the root parts[0] to its input 0.
  EXPECT_NE(dot.find("n0 -> n1 [label=\" 0:1\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("t1 -> n1 [label=\" :0\"];"), std::string::npos) << dot;
  // The split node receives two gradients: both shapes are listed.
  EXPECT_NE(dot.find("n1 [label=\"SplitBackward0\\n[2, 2], [2, 2]\"]"), std::string::npos) << dot;
}

TEST(ToDot, EscapesNamesAndRejectsUndefinedRoots) {
  Tensor w = randn({2}, 0).set_requires_grad(true);
  Tensor y = mul(w, w);
  const std::string dot = autograd::to_dot(y, {{"say \"hi\"\\", w}});
  EXPECT_NE(dot.find("label=\"say \\\"hi\\\"\\\\\\n[2]\""), std::string::npos) << dot;
  EXPECT_THROW(autograd::to_dot(Tensor()), std::invalid_argument);
}

// DOT that Graphviz's `dot` parses, when it is installed (else the test says it skipped).
TEST(ToDot, ParsesWithGraphvizWhenInstalled) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "graphviz's `dot` is not installed: DOT syntax not checked by dot";
  }
  Tensor a = randn({2, 3}, 0).set_requires_grad(true);
  Tensor b = randn({2, 3}, 1).set_requires_grad(true);
  Tensor y = sum(cat({mul(a, b), a}, 0));
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/graph.dot";
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  const std::string dot = autograd::to_dot(y, {{"a", a}, {"b", b}});
  std::fwrite(dot.data(), 1, dot.size(), f);
  std::fclose(f);
  EXPECT_EQ(std::system(("dot -Tsvg " + path + " -o " + path + ".svg").c_str()), 0) << dot;
}

// --- anomaly mode ----------------------------------------------------------------------------

std::string backward_error(const Tensor& loss) {
  try {
    loss.backward();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(AnomalyMode, OffByDefaultAndScoped) {
  EXPECT_FALSE(autograd::AnomalyMode::is_enabled());
  {
    autograd::DetectAnomaly anomaly;
    EXPECT_TRUE(autograd::AnomalyMode::is_enabled());
    {
      autograd::DetectAnomaly off(false);
      EXPECT_FALSE(autograd::AnomalyMode::is_enabled());
    }
    EXPECT_TRUE(autograd::AnomalyMode::is_enabled());
  }
  EXPECT_FALSE(autograd::AnomalyMode::is_enabled());
}

TEST(AnomalyMode, RecordsTheForwardOpOnlyWhenOn) {
  Tensor x = randn({3}, 0).set_requires_grad(true);
  Tensor plain = sqrt(mul(x, x));
  EXPECT_EQ(plain.grad_fn()->anomaly_metadata(), nullptr);
  autograd::DetectAnomaly anomaly;
  Tensor y = sqrt(mul(x, x));
  const autograd::AnomalyMetadata* meta = y.grad_fn()->anomaly_metadata();
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->forward_op, "sqrt");
  EXPECT_EQ(meta->user_op, "sqrt");
  EXPECT_FALSE(meta->stack.empty());
  ASSERT_NE(y.grad_fn()->next_edge(0).function->anomaly_metadata(), nullptr);
  EXPECT_EQ(y.grad_fn()->next_edge(0).function->anomaly_metadata()->forward_op, "mul.Tensor");
}

TEST(AnomalyMode, InfGradientNamesNodeSlotAndForwardOp) {
  Tensor x = full({3}, 0.0, ScalarType::Double).set_requires_grad(true);
  {
    // Off: the inf gradient goes through silently.
    Tensor y = sum(sqrt(x));
    y.backward();
    EXPECT_TRUE(std::isinf(x.grad().data_ptr<double>()[0]));
  }
  autograd::DetectAnomaly anomaly;
  const std::string message = backward_error(sum(sqrt(x)));
  EXPECT_NE(message.find("Function 'SqrtBackward0' returned inf values in its output 0, the "
                         "gradient for input slot 0 of forward op 'sqrt'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("forward call site (most recent call last):"), std::string::npos)
      << message;
}

TEST(AnomalyMode, NamesTheSlotOfTheOffendingInput) {
  Tensor a = full({2}, 1.0, ScalarType::Double);  // needs no gradient: slot 0 is not computed
  Tensor b = full({2}, 0.0, ScalarType::Double).set_requires_grad(true);
  autograd::DetectAnomaly anomaly;
  const std::string message = backward_error(sum(div(a, b)));
  EXPECT_NE(message.find("Function 'DivBackward0' returned inf values in its output 1, the "
                         "gradient for input slot 1 of forward op 'div.Tensor'"),
            std::string::npos)
      << message;
}

TEST(AnomalyMode, NanIsReportedAndCompositeOpsNameTheUserOp) {
  // sqrt at 0 receives a zero gradient (through mul by 0): 0 / (2 sqrt(0)) is nan.
  Tensor x = full({2}, 0.0, ScalarType::Double).set_requires_grad(true);
  autograd::DetectAnomaly anomaly;
  const std::string message = backward_error(sum(mul(sqrt(x), 0.0)));
  EXPECT_NE(message.find("Function 'SqrtBackward0' returned nan values in its output 0, the "
                         "gradient for input slot 0 of forward op 'sqrt'"),
            std::string::npos)
      << message;
  // matmul is composite: its node is mm's, made inside the matmul the user called.
  Tensor a = randn({2, 3}, 0).set_requires_grad(true);
  Tensor y = matmul(a, randn({3, 2}, 1));
  const autograd::AnomalyMetadata* meta = y.grad_fn()->anomaly_metadata();
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(y.grad_fn()->name(), "MmBackward0");
  EXPECT_EQ(meta->forward_op, "mm");
  EXPECT_EQ(meta->user_op, "matmul");
}

// The recorded C++ stack starts at the caller of the op: the recording machinery is cut off.
TEST(AnomalyMode, CppStackEndsAtTheOp) {
  autograd::DetectAnomaly anomaly;
  Tensor y = sqrt(randn({2}, 0).set_requires_grad(true));
  const std::string& stack = y.grad_fn()->anomaly_metadata()->stack;
  EXPECT_EQ(stack.find("record_anomaly_metadata"), std::string::npos) << stack;
  EXPECT_NE(stack.find("gradgen::sqrt(gradgen::Tensor const&)\n"), std::string::npos) << stack;
}

TEST(AnomalyMode, NodesMadeOutsideTheModeSaySo) {
  Tensor x = full({2}, 0.0, ScalarType::Double).set_requires_grad(true);
  Tensor y = sum(sqrt(x));
  autograd::DetectAnomaly anomaly;
  const std::string message = backward_error(y);
  EXPECT_NE(message.find("Function 'SqrtBackward0' returned inf values in its output 0, the "
                         "gradient for input slot 0 of its forward op (no call site recorded: "
                         "SqrtBackward0 was created outside anomaly mode)"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace gradgen
