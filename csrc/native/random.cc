// Random sampling (issue 23 "Creation"): rand / rand_like / randn_like, randint, randperm,
// bernoulli, multinomial, normal and the in-place samplers uniform_ / normal_ / bernoulli_ /
// exponential_ / random_, with tril_indices / triu_indices, PyTorch's argument checks and dtype
// rules. Every number comes from a gradgen::Generator (the op's `generator`, else
// default_generator()), drawn in row-major order of the result, so one seed gives one result;
// they are not PyTorch's numbers (its CPU generator and transforms differ).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

Generator generator_of(const std::optional<Generator>& generator) {
  return generator.has_value() ? *generator : default_generator();
}

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void check_floating(const char* op, ScalarType dtype) {
  if (!is_floating_point(dtype)) {
    throw std::runtime_error(
        std::string(op) + ": expected a floating dtype (Float or Double), got " + to_string(dtype));
  }
}

void check_sizes(const char* op, IntArrayRef size) {
  for (int64_t d : size) {
    if (d < 0) {
      throw std::runtime_error(std::string(op) +
                               ": Trying to create tensor with negative dimension " +
                               std::to_string(d) + ": " + shape_str(size));
    }
  }
}

// A standard normal sample (Box-Muller on two uniform doubles; 1 - u keeps the log finite).
double next_normal(Generator& gen) {
  const double u = 1.0 - gen.next_double(), v = gen.next_double();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
}

// A uniform integer in [0, range) without modulo bias (range >= 1).
uint64_t next_below(Generator& gen, uint64_t range) {
  const uint64_t limit =
      std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % range;
  uint64_t x = gen.next_u64();
  while (x >= limit) x = gen.next_u64();
  return x % range;
}

// Writes f(k) (a double) into every element of a new contiguous tensor of `sizes` and dtype.
template <typename F>
Tensor generate(IntArrayRef sizes, ScalarType dtype, F&& f) {
  Tensor out = empty(sizes, dtype);
  const int64_t n = out.numel();
  internal::dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data_ptr<T>();
    for (int64_t k = 0; k < n; ++k) p[k] = static_cast<T>(f(k));
  });
  return out;
}

// self's values as doubles, row-major.
std::vector<double> values_of(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<double> v(static_cast<size_t>(c.numel()));
  internal::dispatch_all(c.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = c.data_ptr<T>();
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(p[k]);
  });
  return v;
}

// Writes `values` (row-major, self's shape) into self, whatever its strides; bumps its version.
Tensor& fill_from(Tensor& self, const Tensor& values) {
  internal::copy_(self, values);
  return self;
}

Tensor uniform_like(const char* op, IntArrayRef sizes, ScalarType dtype, Generator gen, double lo,
                    double hi) {
  check_floating(op, dtype);
  check_sizes(op, sizes);
  return generate(sizes, dtype, [&](int64_t) { return lo + (hi - lo) * gen.next_double(); });
}

Tensor normal_like(const char* op, IntArrayRef sizes, ScalarType dtype, Generator gen) {
  check_floating(op, dtype);
  check_sizes(op, sizes);
  return generate(sizes, dtype, [&](int64_t) { return next_normal(gen); });
}

// The largest value random_ draws for dtype without bounds (PyTorch: 2^mantissa for floating
// dtypes, so that every integer below it is exact; the type's maximum for integers).
int64_t random_max(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Double: return int64_t{1} << 53;
    case ScalarType::Float: return int64_t{1} << 24;
    case ScalarType::Bool: return 1;
    case ScalarType::Long: return std::numeric_limits<int64_t>::max();
    case ScalarType::Int: return std::numeric_limits<int32_t>::max();
    case ScalarType::Short: return std::numeric_limits<int16_t>::max();
    case ScalarType::Char: return std::numeric_limits<int8_t>::max();
    case ScalarType::Byte: return std::numeric_limits<uint8_t>::max();
    case ScalarType::Half: return int64_t{1} << 11;
    case ScalarType::BFloat16: return int64_t{1} << 8;
  }
  return 0;
}

// An integer dtype must hold low and high - 1, as PyTorch's random_from_to checks ("to - 1 is out
// of bounds for unsigned char", in its C++ type names); floating dtypes are not checked (PyTorch
// only warns beyond their exact integers).
void check_int_bounds(const char* op, int64_t low, int64_t high, ScalarType dtype) {
  const char* name = nullptr;
  switch (dtype) {
    case ScalarType::Bool: name = "bool"; break;
    case ScalarType::Byte: name = "unsigned char"; break;
    case ScalarType::Char: name = "signed char"; break;
    case ScalarType::Short: name = "short int"; break;
    case ScalarType::Int: name = "int"; break;
    default: return;
  }
  // random_max is the type's maximum for these; bool and uint8 start at 0, the others at -max - 1.
  const int64_t hi = random_max(dtype);
  const int64_t lo = dtype == ScalarType::Bool || dtype == ScalarType::Byte ? 0 : -hi - 1;
  if (low < lo || low > hi) {
    throw std::runtime_error(std::string(op) + ": from is out of bounds for " + name);
  }
  if (high - 1 < lo || high - 1 > hi) {
    throw std::runtime_error(std::string(op) + ": to - 1 is out of bounds for " + name);
  }
}

Tensor randint_in(const char* op, int64_t low, int64_t high, IntArrayRef size,
                  std::optional<ScalarType> dtype, Generator gen) {
  if (low >= high) {
    throw std::runtime_error(std::string(op) +
                             ": random_ expects 'from' to be less than 'to', but got from=" +
                             std::to_string(low) + " >= to=" + std::to_string(high));
  }
  check_sizes(op, size);
  check_int_bounds(op, low, high, dtype.value_or(ScalarType::Long));
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return generate(size, dtype.value_or(ScalarType::Long), [&](int64_t) {
    return static_cast<double>(
        static_cast<int64_t>(static_cast<uint64_t>(low) + next_below(gen, range)));
  });
}

Tensor randperm_in(int64_t n, std::optional<ScalarType> dtype, Generator gen) {
  if (n < 0) throw std::runtime_error("randperm: n must be non-negative, got" + std::to_string(n));
  const ScalarType type = dtype.value_or(ScalarType::Long);
  if (type == ScalarType::Bool) {
    throw std::runtime_error("randperm: \"randperm\" not implemented for 'Bool'");
  }
  if (is_floating_point(type) && n > random_max(type)) {
    throw std::runtime_error(std::string("randperm: n is too large for result tensor type: '") +
                             to_string(type) + "'");
  }
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) {  // Fisher-Yates
    std::swap(perm[i], perm[next_below(gen, static_cast<uint64_t>(i) + 1)]);
  }
  return generate({n}, type, [&](int64_t k) { return static_cast<double>(perm[k]); });
}

void check_probability(const char* op, double p) {
  if (!(p >= 0 && p <= 1)) {
    throw std::runtime_error(std::string(op) +
                             ": bernoulli_ expects p to be in [0, 1], but got p=" + num(p));
  }
}

}  // namespace

Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>,
            std::optional<Device>, std::optional<bool>) {
  return uniform_like("rand", size, dtype.value_or(get_default_dtype()), default_generator(), 0, 1);
}

Tensor rand(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
            std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return uniform_like("rand", size, dtype.value_or(get_default_dtype()), generator_of(generator), 0,
                      1);
}

Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout>,
                 std::optional<Device>, std::optional<bool>, std::optional<MemoryFormat>) {
  return uniform_like("rand_like", self.sizes(), dtype.value_or(self.scalar_type()),
                      default_generator(), 0, 1);
}

Tensor rand_like(const Tensor& self, std::optional<Generator> generator,
                 std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                 std::optional<bool>, std::optional<MemoryFormat>) {
  return uniform_like("rand_like", self.sizes(), dtype.value_or(self.scalar_type()),
                      generator_of(generator), 0, 1);
}

Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout>,
                  std::optional<Device>, std::optional<bool>, std::optional<MemoryFormat>) {
  return normal_like("randn_like", self.sizes(), dtype.value_or(self.scalar_type()),
                     default_generator());
}

Tensor randn_like(const Tensor& self, std::optional<Generator> generator,
                  std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                  std::optional<bool>, std::optional<MemoryFormat>) {
  return normal_like("randn_like", self.sizes(), dtype.value_or(self.scalar_type()),
                     generator_of(generator));
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return randint_in("randint", 0, high, size, dtype, default_generator());
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<Generator> generator,
               std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
               std::optional<bool>) {
  return randint_in("randint", 0, high, size, dtype, generator_of(generator));
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return randint_in("randint", low, high, size, dtype, default_generator());
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
               std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
               std::optional<bool>) {
  return randint_in("randint", low, high, size, dtype, generator_of(generator));
}

Tensor randperm(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout>,
                std::optional<Device>, std::optional<bool>) {
  return randperm_in(n, dtype, default_generator());
}

Tensor randperm(int64_t n, std::optional<Generator> generator, std::optional<ScalarType> dtype,
                std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return randperm_in(n, dtype, generator_of(generator));
}

Tensor bernoulli(const Tensor& self, std::optional<Generator> generator) {
  check_floating("bernoulli", self.scalar_type());
  const std::vector<double> p = values_of(self);
  for (double v : p) check_probability("bernoulli", v);
  Generator gen = generator_of(generator);
  return generate(self.sizes(), self.scalar_type(),
                  [&](int64_t k) { return gen.next_double() < p[k] ? 1.0 : 0.0; });
}

Tensor bernoulli(const Tensor& self, double p, std::optional<Generator> generator) {
  check_floating("bernoulli", self.scalar_type());
  check_probability("bernoulli", p);
  Generator gen = generator_of(generator);
  return generate(self.sizes(), self.scalar_type(),
                  [&](int64_t) { return gen.next_double() < p ? 1.0 : 0.0; });
}

Tensor& bernoulli_(Tensor& self, double p, std::optional<Generator> generator) {
  check_probability("bernoulli_", p);
  Generator gen = generator_of(generator);
  return fill_from(self, generate(self.sizes(), self.scalar_type(),
                                  [&](int64_t) { return gen.next_double() < p ? 1.0 : 0.0; }));
}

// p broadcast to self's shape (bernoulli(p)'s draws when p has self's shape).
Tensor& bernoulli_(Tensor& self, const Tensor& p, std::optional<Generator> generator) {
  check_floating("bernoulli_", p.scalar_type());
  const std::vector<double> pv = values_of(expand(p, self.sizes(), false));
  for (double v : pv) check_probability("bernoulli_", v);
  Generator gen = generator_of(generator);
  return fill_from(self, generate(self.sizes(), self.scalar_type(), [&](int64_t k) {
                     return gen.next_double() < pv[k] ? 1.0 : 0.0;
                   }));
}

Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement,
                   std::optional<Generator> generator) {
  check_floating("multinomial", self.scalar_type());
  if (self.dim() != 1 && self.dim() != 2) {
    throw std::runtime_error("multinomial: prob_dist must be 1 or 2 dim, got " +
                             std::to_string(self.dim()));
  }
  const int64_t categories = self.size(-1);
  const int64_t rows = self.dim() == 2 ? self.size(0) : 1;
  if (num_samples <= 0) {
    throw std::runtime_error("multinomial: cannot sample n_sample <= 0 samples");
  }
  if (!replacement && num_samples > categories) {
    throw std::runtime_error(
        "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  }
  const std::vector<double> w = values_of(self);
  Generator gen = generator_of(generator);
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(rows * num_samples));
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> weights(w.begin() + r * categories, w.begin() + (r + 1) * categories);
    double total = 0;
    for (double v : weights) {
      if (!std::isfinite(v) || v < 0) {
        throw std::runtime_error(
            "multinomial: probability tensor contains either `inf`, `nan` or element < 0");
      }
      total += v;
    }
    if (!(total > 0))
      throw std::runtime_error(
          "multinomial: invalid multinomial distribution (sum of probabilities <= 0)");
    std::vector<bool> taken(static_cast<size_t>(categories), false);
    for (int64_t s = 0; s < num_samples; ++s) {
      // The first category whose running sum exceeds u * total (a zero weight is never chosen).
      int64_t pick = 0;
      if (total > 0) {
        const double u = gen.next_double() * total;
        double run = 0;
        for (int64_t c = 0; c < categories; ++c) {
          if (weights[c] <= 0) continue;
          run += weights[c];
          pick = c;
          if (u < run) break;
        }
      } else {
        // Without replacement, once the categories of positive weight are drawn: one of the
        // categories not drawn yet, uniformly (PyTorch draws those zero-weight ones then too).
        std::vector<int64_t> left;
        for (int64_t c = 0; c < categories; ++c) {
          if (!taken[c]) left.push_back(c);
        }
        pick = left[next_below(gen, left.size())];
      }
      taken[pick] = true;
      out.push_back(pick);
      if (!replacement) {
        weights[pick] = 0;
        total = 0;  // summed again, so that rounding never leaves a total with no weight behind it
        for (double v : weights) total += v;
      }
    }
  }
  DimVector sizes;
  if (self.dim() == 2) sizes.push_back(rows);
  sizes.push_back(num_samples);
  return generate(sizes, ScalarType::Long, [&](int64_t k) { return static_cast<double>(out[k]); });
}

Tensor normal(const Tensor& mean, double std, std::optional<Generator> generator) {
  check_floating("normal", mean.scalar_type());
  if (!(std >= 0))
    throw std::runtime_error("normal: expected std >= 0.0, but found std " + num(std));
  const std::vector<double> m = values_of(mean);
  Generator gen = generator_of(generator);
  return generate(mean.sizes(), mean.scalar_type(),
                  [&](int64_t k) { return m[k] + std * next_normal(gen); });
}

Tensor normal(double mean, const Tensor& std, std::optional<Generator> generator) {
  check_floating("normal", std.scalar_type());
  const std::vector<double> s = values_of(std);
  for (double v : s) {
    if (!(v >= 0))
      throw std::runtime_error("normal: expected all elements of std >= 0.0, got " + num(v));
  }
  Generator gen = generator_of(generator);
  return generate(std.sizes(), std.scalar_type(),
                  [&](int64_t k) { return mean + s[k] * next_normal(gen); });
}

Tensor normal(const Tensor& mean, const Tensor& std, std::optional<Generator> generator) {
  check_floating("normal", mean.scalar_type());
  check_floating("normal", std.scalar_type());
  if (mean.scalar_type() != std.scalar_type()) {
    throw std::runtime_error(std::string("normal: expected mean and std of one dtype, got ") +
                             to_string(mean.scalar_type()) + " and " +
                             to_string(std.scalar_type()));
  }
  // mean and std broadcast together, as PyTorch's.
  const DimVector sizes = loops::broadcast_shapes("normal", mean.sizes(), std.sizes());
  const Tensor m = expand(mean, sizes, false), s = expand(std, sizes, false);
  const std::vector<double> mv = values_of(m), sv = values_of(s);
  for (double v : sv) {
    if (!(v >= 0))
      throw std::runtime_error("normal: expected all elements of std >= 0.0, got " + num(v));
  }
  Generator gen = generator_of(generator);
  return generate(sizes, mean.scalar_type(),
                  [&](int64_t k) { return mv[k] + sv[k] * next_normal(gen); });
}

Tensor normal(double mean, double std, IntArrayRef size, std::optional<Generator> generator,
              std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
              std::optional<bool>) {
  if (!(std >= 0))
    throw std::runtime_error("normal: expected std >= 0.0, but found std " + num(std));
  const ScalarType type = dtype.value_or(get_default_dtype());
  check_floating("normal", type);
  check_sizes("normal", size);
  Generator gen = generator_of(generator);
  return generate(size, type, [&](int64_t) { return mean + std * next_normal(gen); });
}

Tensor& normal_(Tensor& self, double mean, double std, std::optional<Generator> generator) {
  check_floating("normal_", self.scalar_type());
  if (!(std >= 0))
    throw std::runtime_error("normal_: expected std >= 0.0, but found std " + num(std));
  Generator gen = generator_of(generator);
  return fill_from(self, generate(self.sizes(), self.scalar_type(),
                                  [&](int64_t) { return mean + std * next_normal(gen); }));
}

Tensor& uniform_(Tensor& self, double from, double to, std::optional<Generator> generator) {
  check_floating("uniform_", self.scalar_type());
  if (!(from <= to)) {
    throw std::runtime_error("uniform_: expects to return a [from, to) range, but found from=" +
                             num(from) + " > to=" + num(to));
  }
  return fill_from(self, uniform_like("uniform_", self.sizes(), self.scalar_type(),
                                      generator_of(generator), from, to));
}

Tensor& exponential_(Tensor& self, double lambd, std::optional<Generator> generator) {
  check_floating("exponential_", self.scalar_type());
  if (!(lambd > 0)) {
    throw std::runtime_error("exponential_: exponential_ expects lambda > 0.0, but found lambda=" +
                             num(lambd));
  }
  Generator gen = generator_of(generator);
  return fill_from(self, generate(self.sizes(), self.scalar_type(), [&](int64_t) {
                     return -std::log(1.0 - gen.next_double()) / lambd;  // 1 - u in (0, 1]
                   }));
}

Tensor& random_(Tensor& self, int64_t from, std::optional<int64_t> to,
                std::optional<Generator> generator) {
  const int64_t high = to.has_value() ? *to
                                      : random_max(self.scalar_type()) +
                                            (self.scalar_type() == ScalarType::Long ? 0 : 1);
  Tensor values =
      randint_in("random_", from, high, self.sizes(), self.scalar_type(), generator_of(generator));
  return fill_from(self, values);
}

Tensor& random_(Tensor& self, int64_t to, std::optional<Generator> generator) {
  return random_(self, 0, to, generator);
}

Tensor& random_(Tensor& self, std::optional<Generator> generator) {
  return random_(self, 0, std::nullopt, generator);
}

// ---------------------------------------------------------------------------------------------
// out= variants: the functional form's draws (the same generator, the same order), in out's dtype
// ---------------------------------------------------------------------------------------------

Tensor& rand_out(IntArrayRef size, Tensor& out) {
  return write_out("rand.out",
                   uniform_like("rand.out", size, out.scalar_type(), default_generator(), 0, 1),
                   out);
}

Tensor& rand_out(IntArrayRef size, std::optional<Generator> generator, Tensor& out) {
  return write_out("rand.generator_out",
                   uniform_like("rand.generator_out", size, out.scalar_type(),
                                generator_of(generator), 0, 1),
                   out);
}

Tensor& randint_out(int64_t high, IntArrayRef size, Tensor& out) {
  return write_out("randint.out",
                   randint_in("randint.out", 0, high, size, out.scalar_type(), default_generator()),
                   out);
}

Tensor& randint_out(int64_t high, IntArrayRef size, std::optional<Generator> generator,
                    Tensor& out) {
  return write_out("randint.generator_out",
                   randint_in("randint.generator_out", 0, high, size, out.scalar_type(),
                              generator_of(generator)),
                   out);
}

Tensor& randint_out(int64_t low, int64_t high, IntArrayRef size, Tensor& out) {
  return write_out("randint.low_out",
                   randint_in("randint.low_out", low, high, size, out.scalar_type(),
                              default_generator()),
                   out);
}

Tensor& randint_out(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
                    Tensor& out) {
  return write_out("randint.low_generator_out",
                   randint_in("randint.low_generator_out", low, high, size, out.scalar_type(),
                              generator_of(generator)),
                   out);
}

Tensor& randperm_out(int64_t n, std::optional<Generator> generator, Tensor& out) {
  return write_out("randperm.generator_out",
                   randperm_in(n, out.scalar_type(), generator_of(generator)), out);
}

// 0 / 1 in out's dtype (an integer or Bool out too, as PyTorch's).
Tensor& bernoulli_out(const Tensor& self, std::optional<Generator> generator, Tensor& out) {
  return write_out("bernoulli.out", cast(bernoulli(self, generator), out.scalar_type()), out);
}

Tensor& multinomial_out(const Tensor& self, int64_t num_samples, bool replacement,
                        std::optional<Generator> generator, Tensor& out) {
  if (out.scalar_type() != ScalarType::Long) {
    throw std::runtime_error(
        std::string("multinomial.out: multinomial expects Long tensor out, got: ") +
        to_string(out.scalar_type()));
  }
  return write_out("multinomial.out", multinomial(self, num_samples, replacement, generator), out);
}

Tensor& normal_out(const Tensor& mean, double std, std::optional<Generator> generator,
                   Tensor& out) {
  const char* op = "normal.Tensor_float_out";
  check_floating(op, out.scalar_type());
  // PyTorch's shape: mean's broadcast with out's (infer_size(mean, out)).
  const DimVector shape = loops::broadcast_shapes(op, mean.sizes(), out.sizes());
  return write_out(op, normal(cast(expand(mean, shape, false), out.scalar_type()), std, generator),
                   out);
}

Tensor& normal_out(double mean, const Tensor& std, std::optional<Generator> generator,
                   Tensor& out) {
  const char* op = "normal.float_Tensor_out";
  check_floating(op, out.scalar_type());
  return write_out(op, normal(mean, cast(std, out.scalar_type()), generator), out);
}

Tensor& normal_out(const Tensor& mean, const Tensor& std, std::optional<Generator> generator,
                   Tensor& out) {
  const char* op = "normal.Tensor_Tensor_out";
  check_floating(op, out.scalar_type());
  return write_out(op,
                   normal(cast(mean, out.scalar_type()), cast(std, out.scalar_type()), generator),
                   out);
}

Tensor& normal_out(double mean, double std, IntArrayRef size, std::optional<Generator> generator,
                   Tensor& out) {
  const char* op = "normal.float_float_out";
  check_floating(op, out.scalar_type());
  return write_out(op,
                   normal(mean, std, size, generator, out.scalar_type(), std::nullopt, std::nullopt,
                          std::nullopt),
                   out);
}

namespace {

// The (row, col) pairs of the lower (lower = true) or upper triangle, row by row, as PyTorch.
Tensor triangle_indices(const char* op, int64_t row, int64_t col, int64_t offset,
                        std::optional<ScalarType> dtype, bool lower) {
  if (row < 0)
    throw std::runtime_error(std::string(op) + ": row must be non-negative, got" +
                             std::to_string(row));
  if (col < 0)
    throw std::runtime_error(std::string(op) + ": col must be non-negative, got" +
                             std::to_string(col));
  const ScalarType type = dtype.value_or(ScalarType::Long);
  if (type != ScalarType::Long) {
    throw std::runtime_error(std::string(op) + ": \"" + op + "\" not implemented for '" +
                             to_string(type) + "'");
  }
  // Row r holds the columns [first(r), last(r)). The entries are counted in closed form and
  // rows holding none are skipped, so the work is the output's size (row = 2^63 - 1 with
  // col = 0 is empty at once) and a huge output fails in the allocator, as PyTorch's.
  using Wide = __int128;
  auto clamp_to = [](Wide v, Wide hi) { return static_cast<int64_t>(std::clamp<Wide>(v, 0, hi)); };
  auto first = [&](int64_t r) { return lower ? 0 : clamp_to(Wide(r) + offset, col); };
  auto last = [&](int64_t r) { return lower ? clamp_to(Wide(r) + offset + 1, col) : col; };
  // Rows [r0, r1) hold entries; within them the count per row is `full` (= col) on one side of
  // `bend` and moves by one per row on the other.
  int64_t r0 = 0, r1 = 0, bend = 0;
  if (col > 0 && lower) {
    r0 = clamp_to(-Wide(offset), row);
    r1 = row;
    bend = std::max(r0, clamp_to(Wide(col) - offset - 1, row));  // full from bend on
  } else if (col > 0) {
    r1 = clamp_to(Wide(col) - offset, row);
    bend = std::min(r1, clamp_to(1 - Wide(offset), row));  // full before bend
  }
  auto count = [&](int64_t r) { return Wide(last(r)) - first(r); };
  auto series = [&](int64_t lo, int64_t hi) {  // sum of count over [lo, hi), count linear
    return hi > lo ? (count(lo) + count(hi - 1)) * Wide(hi - lo) / 2 : Wide(0);
  };
  const Wide total =
      lower ? series(r0, bend) + Wide(r1 - bend) * col : Wide(bend - r0) * col + series(bend, r1);
  const int64_t n = total > std::numeric_limits<int64_t>::max() / 2
                        ? std::numeric_limits<int64_t>::max() / 2
                        : static_cast<int64_t>(total);
  Tensor out = empty({2, n}, type);
  int64_t* rs = out.data_ptr<int64_t>();
  int64_t* cs = rs + n;
  int64_t k = 0;
  for (int64_t r = r0; r < r1 && k < n; ++r) {
    for (int64_t c = first(r), e = last(r); c < e; ++c, ++k) {
      rs[k] = r;
      cs[k] = c;
    }
  }
  return out;
}

}  // namespace

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                    std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return triangle_indices("tril_indices", row, col, offset, dtype, true);
}

Tensor triu_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                    std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return triangle_indices("triu_indices", row, col, offset, dtype, false);
}

}  // namespace native
}  // namespace gradgen
