#include "csrc/generator.h"

namespace gradgen {

Generator::Generator(uint64_t seed) : state_(std::make_shared<State>()) { manual_seed(seed); }

void Generator::manual_seed(uint64_t seed) {
  state_->engine.seed(seed);
  state_->seed = seed;
}

Generator& default_generator() {
  static Generator generator;
  return generator;
}

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

}  // namespace gradgen
