// A small convolutional network trained on a synthetic image task, with gradgen's generated
// differentiable API only (examples/cnn; main.cc prints a full run, cnn_test.cc a short one).
#pragma once

#include <cstdint>
#include <vector>

#include "csrc/tensor.h"

namespace cnn_example {

/// Images [n, 1, 16, 16] (float32) and their class labels [n] (Long).
struct Dataset {
  gradgen::Tensor images;
  gradgen::Tensor labels;
};

/// `n` images of one noisy bar each, its orientation the class: 0 horizontal, 1 diagonal
/// (down-right), 2 vertical, 3 anti-diagonal; position, length and brightness vary. The
/// numbers come from splitmix64 seeded with `seed`, so examples/python/cnn.py makes the same.
Dataset make_bars(int64_t n, uint64_t seed);

struct TrainConfig {
  int64_t train_size = 4000;
  int64_t test_size = 1000;
  int64_t batch_size = 50;
  int epochs = 6;
  double learning_rate = 3e-3;
  bool verbose = true;  // print loss and accuracy per epoch
};

struct TrainResult {
  std::vector<double> epoch_losses;  // mean training loss of each epoch
  double train_accuracy = 0;         // after the last epoch
  double test_accuracy = 0;
};

/// Trains conv(1->8, 3x3)-relu-maxpool(2) -> conv(8->16, 3x3)-relu-maxpool(2) -> linear(256->4)
/// with cross-entropy and Adam, in float32.
TrainResult train(const TrainConfig& config);

}  // namespace cnn_example
