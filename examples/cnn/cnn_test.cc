// examples/cnn learns: a short run cuts the loss and classifies most test images right.
#include <gtest/gtest.h>

#include "examples/cnn/cnn.h"

namespace {

TEST(CnnExample, ShortRunLearns) {
  cnn_example::TrainConfig config;
  config.train_size = 3000;
  config.test_size = 500;
  config.epochs = 3;
  config.verbose = false;
  const cnn_example::TrainResult result = cnn_example::train(config);
  ASSERT_EQ(result.epoch_losses.size(), 3u);
  EXPECT_LT(result.epoch_losses.back(), 0.5 * result.epoch_losses.front());
  EXPECT_GT(result.test_accuracy, 0.8);  // chance: 0.25
}

TEST(CnnExample, ImagesAreReproducible) {
  const cnn_example::Dataset a = cnn_example::make_bars(8, 3), b = cnn_example::make_bars(8, 3);
  ASSERT_EQ(a.images.sizes(), b.images.sizes());
  for (int64_t i = 0; i < 8 * 256; ++i) {
    EXPECT_EQ(a.images.data_ptr<float>()[i], b.images.data_ptr<float>()[i]);
  }
}

}  // namespace
