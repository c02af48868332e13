// The data, model and training loop of examples/cnn (see cnn.h). examples/python/cnn.py is the
// same program in Python: same generator, image recipe, seeds, model and Adam.
#include "examples/cnn/cnn.h"

#include <cmath>
#include <cstdio>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"

using namespace gradgen;

namespace cnn_example {
namespace {

constexpr int64_t kSide = 16;
constexpr int64_t kClasses = 4;

// splitmix64: a tiny generator that Python reproduces bit for bit (cnn.py), so both examples
// train on the same images.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  uint64_t state_;
};

// One image into `pixels` (kSide * kSide): background noise, then a bar of the class's
// orientation drawn through its centre; returns the class.
int64_t draw_bar(SplitMix64& rng, float* pixels) {
  const int64_t label = std::min<int64_t>(kClasses - 1, static_cast<int64_t>(rng.uniform() * 4));
  const double cx = 4 + 8 * rng.uniform(), cy = 4 + 8 * rng.uniform();
  const double half = 2 + 2.5 * rng.uniform();  // half the bar's length, in pixels
  const double bright = 0.6 + 0.4 * rng.uniform();
  const double d = std::sqrt(0.5);
  const double ux[kClasses] = {1, d, 0, d}, uy[kClasses] = {0, d, 1, -d};
  for (int64_t i = 0; i < kSide * kSide; ++i) pixels[i] = static_cast<float>(0.45 * rng.uniform());
  const int64_t steps = static_cast<int64_t>(std::floor(8 * half));
  for (int64_t k = 0; k <= steps; ++k) {
    const double t = -half + 0.25 * static_cast<double>(k);
    const auto x = static_cast<int64_t>(std::floor(cx + t * ux[label] + 0.5));
    const auto y = static_cast<int64_t>(std::floor(cy + t * uy[label] + 0.5));
    if (x < 0 || x >= kSide || y < 0 || y >= kSide) continue;
    float& p = pixels[y * kSide + x];
    p = std::max(p, static_cast<float>(bright));
  }
  return label;
}

// A float32 leaf parameter: normal values times `scale` (0: zeros).
Tensor parameter(IntArrayRef sizes, double scale, uint64_t seed) {
  Tensor p;
  {
    autograd::NoGradGuard no_grad;
    p = to(randn(sizes, seed) * scale, ScalarType::Float);
  }
  return p.set_requires_grad(true);
}

struct Cnn {
  Tensor w1 = parameter({8, 1, 3, 3}, std::sqrt(2.0 / 9), 1);
  Tensor b1 = parameter({8}, 0, 2);
  Tensor w2 = parameter({16, 8, 3, 3}, std::sqrt(2.0 / 72), 3);
  Tensor b2 = parameter({16}, 0, 4);
  Tensor w3 = parameter({kClasses, 256}, std::sqrt(1.0 / 256), 5);
  Tensor b3 = parameter({kClasses}, 0, 6);

  /// Class logits [n, 4] of images [n, 1, 16, 16].
  Tensor operator()(const Tensor& x) const {
    Tensor h = max_pool2d(relu(conv2d(x, w1, b1, {1, 1}, {1, 1})), {2, 2});  // [n, 8, 8, 8]
    h = max_pool2d(relu(conv2d(h, w2, b2, {1, 1}, {1, 1})), {2, 2});         // [n, 16, 4, 4]
    return linear(flatten(h, 1), w3, b3);
  }
  std::vector<Tensor*> parameters() { return {&w1, &b1, &w2, &b2, &w3, &b3}; }
};

// Adam (Kingma & Ba), written out: the first and second moments of each parameter's gradient,
// bias-corrected, scale its step.
class Adam {
 public:
  Adam(std::vector<Tensor*> params, double lr) : params_(std::move(params)), lr_(lr) {
    for (Tensor* p : params_) {
      m_.push_back(zeros(p->sizes(), ScalarType::Float));
      v_.push_back(zeros(p->sizes(), ScalarType::Float));
    }
  }
  void step() {
    autograd::NoGradGuard no_grad;
    ++t_;
    const double c1 = 1 - std::pow(kBeta1, t_), c2 = 1 - std::pow(kBeta2, t_);
    for (size_t i = 0; i < params_.size(); ++i) {
      Tensor& p = *params_[i];
      const Tensor g = p.grad();
      add_(mul_(m_[i], kBeta1), g, 1 - kBeta1);
      addcmul_(mul_(v_[i], kBeta2), g, g, 1 - kBeta2);
      sub_(p, (m_[i] / c1) / (sqrt(v_[i] / c2) + 1e-8), lr_);
      p.mutable_grad() = Tensor();
    }
  }

 private:
  static constexpr double kBeta1 = 0.9, kBeta2 = 0.999;
  std::vector<Tensor*> params_;
  std::vector<Tensor> m_, v_;
  double lr_;
  int t_ = 0;
};

double accuracy(const Cnn& model, const Dataset& data) {
  autograd::NoGradGuard no_grad;
  const Tensor predicted = argmax(model(data.images), 1);
  return mean(to(eq(predicted, data.labels), ScalarType::Double)).item<double>();
}

}  // namespace

Dataset make_bars(int64_t n, uint64_t seed) {
  SplitMix64 rng(seed);
  Dataset data{empty({n, 1, kSide, kSide}, ScalarType::Float), empty({n}, ScalarType::Long)};
  float* pixels = data.images.data_ptr<float>();
  int64_t* labels = data.labels.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) labels[i] = draw_bar(rng, pixels + i * kSide * kSide);
  return data;
}

TrainResult train(const TrainConfig& config) {
  const Dataset train_set = make_bars(config.train_size, /*seed=*/2026);
  const Dataset test_set = make_bars(config.test_size, /*seed=*/7);
  Cnn model;
  Adam adam(model.parameters(), config.learning_rate);
  TrainResult result;
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    double loss_sum = 0;
    int64_t batches = 0;
    for (int64_t start = 0; start < config.train_size; start += config.batch_size, ++batches) {
      const int64_t len = std::min(config.batch_size, config.train_size - start);
      const Tensor x = narrow(train_set.images, 0, start, len);
      const Tensor y = narrow(train_set.labels, 0, start, len);
      const Tensor loss = cross_entropy_loss(model(x), y);
      loss_sum += loss.item<double>();
      loss.backward();
      adam.step();
    }
    result.epoch_losses.push_back(loss_sum / static_cast<double>(batches));
    result.train_accuracy = accuracy(model, train_set);
    result.test_accuracy = accuracy(model, test_set);
    if (config.verbose) {
      std::printf("epoch %d  loss %.4f  train acc %5.1f%%  test acc %5.1f%%\n", epoch,
                  result.epoch_losses.back(), 100 * result.train_accuracy,
                  100 * result.test_accuracy);
    }
  }
  return result;
}

}  // namespace cnn_example
