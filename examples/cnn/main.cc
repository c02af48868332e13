// Trains a small CNN to tell the orientation of a noisy bar in 16 x 16 images (four classes),
// with gradgen's generated API: conv2d, relu, max_pool2d, linear, cross_entropy_loss, and Adam
// written in cnn.cc. The images are generated (fixed seeds): every run prints the same numbers.
//
//   ./bazelw run -c opt //examples/cnn
#include <cstdio>

#include "examples/cnn/cnn.h"

int main() {
  const cnn_example::TrainConfig config;
  std::printf("oriented bars, 16 x 16: %lld training images, %lld test images, 4 classes\n",
              static_cast<long long>(config.train_size), static_cast<long long>(config.test_size));
  std::printf("conv 1->8 3x3, relu, maxpool 2; conv 8->16 3x3, relu, maxpool 2; linear 256->4\n");
  const cnn_example::TrainResult result = cnn_example::train(config);
  std::printf("final: test accuracy %.1f%%\n", 100 * result.test_accuracy);
  return result.test_accuracy >= 0.95 ? 0 : 1;
}
