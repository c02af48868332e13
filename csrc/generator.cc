#include "csrc/generator.h"

#include <random>

namespace gradgen {

struct Generator::State {
  std::mt19937_64 engine;
  uint64_t seed = 0;
};

Generator::Generator(uint64_t seed) : state_(std::make_shared<State>()) { manual_seed(seed); }

uint64_t Generator::initial_seed() const noexcept { return state_->seed; }

uint64_t Generator::next_u64() { return state_->engine(); }

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
