// gradgen's autograd speed on three workloads (issue 4), the same as libtorch_bench.cc:
//
//   chain  y = y * w + b, chain_len links of 1-element tensors (2 ops per link), backward
//          from the last y; w and b are leaves that require grad, shared by every link
//   step   out = tanh(y @ W), y and W n x n leaves that require grad (--n, 64 by default),
//          backward with ones
//   mlp    mse_loss(linear(relu(linear(x, W1, b1)), W2, b2), target): a 2-layer MLP step on a
//          batch of n rows of n features (n -> n -> n), backward from the loss; W1, b1, W2, b2
//          are the leaves
//   cat    (cat(8 tensors of 16) + u).sum().backward(), every input a leaf requiring grad
//
// "bwd" is backward() plus freeing the graph (dropping the last handle), as in a training
// loop; zeroing .grad between iterations is not timed. Build with -c opt and run through
// bench/engine/run.sh, which compares with libtorch and runs callgrind; or directly:
//
//   ./bazelw build -c opt //bench/engine:gradgen_bench
//   bazel-bin/bench/engine/gradgen_bench [--mode=time|callgrind] [--help]
//
// Ops that the spec does not declare yet (mul, add, tanh, sum, matmul) are detected at
// compile time; their workloads print "RESULT <key> NA op_not_available_yet:<ops>".
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench/engine/bench_common.h"
#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/tensor.h"

namespace engine_bench {

// Compile-time detection of the differentiable ops, found by argument-dependent lookup in
// namespace gradgen (VariableType.h), so this file builds before and after they exist.
template <class T, class = void>
struct has_mul : std::false_type {};
template <class T>
struct has_mul<T, std::void_t<decltype(mul(std::declval<const T&>(), std::declval<const T&>()))>>
    : std::true_type {};
template <class T, class = void>
struct has_add : std::false_type {};
template <class T>
struct has_add<T, std::void_t<decltype(add(std::declval<const T&>(), std::declval<const T&>()))>>
    : std::true_type {};
template <class T, class = void>
struct has_tanh : std::false_type {};
template <class T>
struct has_tanh<T, std::void_t<decltype(T(tanh(std::declval<const T&>())))>> : std::true_type {};
template <class T, class = void>
struct has_sum : std::false_type {};
template <class T>
struct has_sum<T, std::void_t<decltype(T(sum(std::declval<const T&>())))>> : std::true_type {};
template <class T, class = void>
struct has_matmul : std::false_type {};
template <class T>
struct has_matmul<T,
                  std::void_t<decltype(matmul(std::declval<const T&>(), std::declval<const T&>()))>>
    : std::true_type {};

std::string missing(std::initializer_list<std::pair<const char*, bool>> ops) {
  std::string out;
  for (const auto& op : ops) {
    if (!op.second) out += (out.empty() ? "" : ",") + std::string(op.first);
  }
  return out;
}

void report_missing(const std::string& name, const std::string& ops) {
  std::printf("%s: op not available yet (%s)\n", name.c_str(), ops.c_str());
  for (const char* k : {".fwd_us", ".bwd_us", ".total_us", ".fwd_us_per_op", ".bwd_us_per_op",
                        ".total_us_per_op"}) {
    result_na(name + k, "op_not_available_yet:" + ops);
  }
}

gradgen::ScalarType dtype_of(const Options& o) {
  return o.dtype == "float32" ? gradgen::ScalarType::Float : gradgen::ScalarType::Double;
}

// A tensor of the requested dtype holding scale * sin(0.37 * i + seed), i the row-major
// index: the same values libtorch_bench.cc uses, so the two can be checked against each other.
gradgen::Tensor data(gradgen::IntArrayRef sizes, int seed, double scale,
                     gradgen::ScalarType dtype) {
  gradgen::Tensor out = gradgen::empty(sizes, dtype);
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double v = scale * std::sin(0.37 * static_cast<double>(i) + seed);
    if (dtype == gradgen::ScalarType::Float) {
      out.data_ptr<float>()[i] = static_cast<float>(v);
    } else {
      out.data_ptr<double>()[i] = v;
    }
  }
  return out;
}

// Sum of the elements in double, for the CHECK lines.
double sum_of(const gradgen::Tensor& t) {
  if (!t.defined()) return NAN;
  gradgen::Tensor c = t.contiguous();
  double s = 0;
  for (int64_t i = 0; i < c.numel(); ++i) {
    s += c.scalar_type() == gradgen::ScalarType::Float ? c.data_ptr<float>()[i]
                                                       : c.data_ptr<double>()[i];
  }
  return s;
}

// Square root of the sum of squares, in double: a CHECK figure that sums do not cancel.
double norm_of(const gradgen::Tensor& t) {
  if (!t.defined()) return NAN;
  gradgen::Tensor c = t.contiguous();
  double s = 0;
  for (int64_t i = 0; i < c.numel(); ++i) {
    const double v = c.scalar_type() == gradgen::ScalarType::Float ? c.data_ptr<float>()[i]
                                                                   : c.data_ptr<double>()[i];
    s += v * v;
  }
  return std::sqrt(s);
}

template <class T>
void chain(const Options& o) {
  const std::string name = "chain";
  if constexpr (!has_mul<T>::value || !has_add<T>::value) {
    report_missing(name, missing({{"mul", has_mul<T>::value}, {"add", has_add<T>::value}}));
  } else {
    const auto dt = dtype_of(o);
    T x = gradgen::full({1}, 0.5, dt);
    T w = gradgen::full({1}, 0.999, dt).set_requires_grad(true);
    T b = gradgen::full({1}, 0.001, dt).set_requires_grad(true);
    T y;
    const int n = o.chain_len;
    run_workload(
        o, name, 2.0 * n, 2.0 * n, /*repeats=*/31, /*warmup=*/5,
        [&] {
          y = x;
          for (int i = 0; i < n; ++i) y = add(mul(y, w), b);
        },
        [&] {
          y.backward();
          y = T();
        },
        [&] {
          w.mutable_grad() = T();
          b.mutable_grad() = T();
        });
    y = x;
    for (int i = 0; i < n; ++i) y = add(mul(y, w), b);
    check("chain.y", sum_of(y));
    y.backward();
    check("chain.w_grad", sum_of(w.grad()));
    check("chain.b_grad", sum_of(b.grad()));
    w.mutable_grad() = T();
    b.mutable_grad() = T();
  }
}

template <class T>
void step(const Options& o) {
  const std::string name = "step";
  if constexpr (!has_tanh<T>::value) {
    report_missing(name, missing({{"tanh", has_tanh<T>::value}}));
  } else {
    const auto dt = dtype_of(o);
    const int64_t n = o.n;
    T y = data({n, n}, 1, 1.0, dt).set_requires_grad(true);
    T W = data({n, n}, 2, 8.0 / n, dt).set_requires_grad(true);
    T go = gradgen::ones({n, n}, dt);
    T out;
    // matmul when the spec has it (libtorch's `y @ W`); for 2-D operands it is mm.
    auto product = [](const T& a, const T& b_) {
      if constexpr (has_matmul<T>::value) {
        return matmul(a, b_);
      } else {
        return gradgen::mm(a, b_);
      }
    };
    if (!has_matmul<T>::value) std::printf("step: matmul not available yet, using mm\n");
    run_workload(
        o, name, 2, 2, repeats_for(o.n, 301), /*warmup=*/n >= 256 ? 2 : 30,
        [&] { out = tanh(product(y, W)); },
        [&] {
          out.backward(go);
          out = T();
        },
        [&] {
          y.mutable_grad() = T();
          W.mutable_grad() = T();
        });
    out = tanh(product(y, W));
    check("step.out", sum_of(out));
    check("step.out_norm", norm_of(out));
    out.backward(go);
    check("step.y_grad", sum_of(y.grad()));
    check("step.W_grad", sum_of(W.grad()));
    check("step.W_grad_norm", norm_of(W.grad()));
    y.mutable_grad() = T();
    W.mutable_grad() = T();
  }
}

template <class T>
void mlp(const Options& o) {
  const std::string name = "mlp";
  const auto dt = dtype_of(o);
  const int64_t n = o.n;
  const double scale = 1.0 / std::sqrt(double(n));
  T x = data({n, n}, 3, 1.0, dt);
  T W1 = data({n, n}, 4, scale, dt).set_requires_grad(true);
  T b1 = data({n}, 5, 0.1, dt).set_requires_grad(true);
  T W2 = data({n, n}, 6, scale, dt).set_requires_grad(true);
  T b2 = data({n}, 7, 0.1, dt).set_requires_grad(true);
  T target = data({n, n}, 8, 0.5, dt);
  T loss;
  auto forward = [&] { return mse_loss(linear(relu(linear(x, W1, b1)), W2, b2), target); };
  auto reset = [&] {
    for (T* p : {&W1, &b1, &W2, &b2}) p->mutable_grad() = T();
  };
  run_workload(
      o, name, 4, 4, repeats_for(o.n, 301), /*warmup=*/n >= 256 ? 2 : 30, [&] { loss = forward(); },
      [&] {
        loss.backward();
        loss = T();
      },
      reset);
  loss = forward();
  check("mlp.loss", sum_of(loss));
  loss.backward();
  check("mlp.W1_grad_norm", norm_of(W1.grad()));
  check("mlp.b1_grad_norm", norm_of(b1.grad()));
  check("mlp.W2_grad_norm", norm_of(W2.grad()));
  check("mlp.b2_grad_norm", norm_of(b2.grad()));
  reset();
}

template <class T>
void cat_workload(const Options& o) {
  const std::string name = "cat";
  if constexpr (!has_add<T>::value || !has_sum<T>::value) {
    report_missing(name, missing({{"add", has_add<T>::value}, {"sum", has_sum<T>::value}}));
  } else {
    const auto dt = dtype_of(o);
    std::vector<T> xs;
    for (int i = 0; i < 8; ++i) xs.push_back(data({16}, 10 + i, 1.0, dt).set_requires_grad(true));
    T u = data({128}, 20, 1.0, dt).set_requires_grad(true);
    T loss;
    run_workload(
        o, name, 3, 3, /*repeats=*/1001, /*warmup=*/100,
        [&] { loss = sum(add(gradgen::cat(xs, 0), u)); },
        [&] {
          loss.backward();
          loss = T();
        },
        [&] {
          for (T& x : xs) x.mutable_grad() = T();
          u.mutable_grad() = T();
        });
    loss = sum(add(gradgen::cat(xs, 0), u));
    check("cat.loss", sum_of(loss));
    loss.backward();
    double g = sum_of(u.grad());
    for (T& x : xs) g += sum_of(x.grad());
    check("cat.grads", g);
    for (T& x : xs) x.mutable_grad() = T();
    u.mutable_grad() = T();
  }
}

}  // namespace engine_bench

int main(int argc, char** argv) {
  using namespace engine_bench;
  const Options o = parse(argc, argv);
  gradgen::set_num_threads(o.threads);
  std::printf("gradgen_bench: mode %s, dtype %s, chain_len %d, n %d, %d thread(s), GEMM %s%s\n",
              o.mode.c_str(), o.dtype.c_str(), o.chain_len, o.n, gradgen::get_num_threads(),
              gradgen::native::gemm_backend(), RUNNING_ON_VALGRIND ? ", under valgrind" : "");
  struct Case {
    const char* name;
    void (*run)(const Options&);
  };
  const Case cases[] = {{"chain", chain<gradgen::Tensor>},
                        {"step", step<gradgen::Tensor>},
                        {"cat", cat_workload<gradgen::Tensor>},
                        {"mlp", mlp<gradgen::Tensor>}};
  return run_selected(o, cases);
}
