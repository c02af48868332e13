// Generator: a seeded source of random numbers for random ops (dropout).
//
// The codegen maps a schema's `Generator? generator=None` to
// `std::optional<Generator>`; an op given no generator uses default_generator().
// A Generator is a handle: copies share one state (std::mt19937_64), so an op
// that receives a copy advances the caller's generator, as in PyTorch.
//
//   Generator gen(42);
//   auto [y, mask] = native_dropout(x, 0.5, true, gen);   // same mask for the same seed
//
// Not thread-safe: use one generator per thread.
//
// The engine lives in generator.cc: every file that declares ops includes this header (through
// tensor.h), and <random> alone costs about 0.2 s of every such compile.
#pragma once

#include <cstdint>
#include <memory>

namespace gradgen {

class Generator {
 public:
  /// Creates a generator seeded with `seed`.
  explicit Generator(uint64_t seed = kDefaultSeed);

  /// Restarts the sequence from `seed`.
  void manual_seed(uint64_t seed);
  /// Returns the seed the sequence last started from.
  uint64_t initial_seed() const noexcept;
  /// Returns the next 64 random bits.
  uint64_t next_u64();
  /// Returns a uniform double in [0, 1) (53 random bits).
  double next_double() {
    return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
  }

  /// The seed of default_generator() at program start.
  static constexpr uint64_t kDefaultSeed = 67280421310721ull;

 private:
  struct State;  // std::mt19937_64 and the seed (generator.cc)
  std::shared_ptr<State> state_;
};

/// Returns the process-wide generator used when an op is given none.
Generator& default_generator();

/// Reseeds default_generator().
void manual_seed(uint64_t seed);

}  // namespace gradgen
