// Prints the DOT text of a small backward graph (see csrc/autograd/dot.h): a two-layer network
// whose output is concatenated with a scaled copy of its input, so that cat's Tensor[] slots
// show. Render it with `./bazelw run //examples/graph:render` (graphviz's dot makes the SVG).
//
//   ./bazelw run //examples/graph            the DOT text on stdout
//   ./bazelw run //examples/graph:render     graph.dot and graph.svg in the current directory
#include <cstdio>
#include <string>

#include "csrc/autograd/dot.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"

using namespace gradgen;

int main() {
  Tensor x = randn({4, 3}, 0);  // data: needs no gradient
  Tensor w1 = randn({3, 5}, 1).set_requires_grad(true);
  Tensor b1 = randn({5}, 2).set_requires_grad(true);
  Tensor w2 = randn({5, 2}, 3).set_requires_grad(true);
  Tensor scale = randn({3}, 4).set_requires_grad(true);

  Tensor h = relu(add(mm(x, w1), b1));
  Tensor features = cat({mm(h, w2), mul(x, scale)}, 1);  // [4, 2 + 3]
  Tensor loss = sum(mul(features, features));

  const std::string dot =
      autograd::to_dot(loss, {{"w1", w1}, {"b1", b1}, {"w2", w2}, {"scale", scale}, {"x", x}});
  std::fwrite(dot.data(), 1, dot.size(), stdout);
  return 0;
}
