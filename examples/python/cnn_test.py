"""The Python CNN demo trains: a short run must halve the loss and beat chance (25%) by far."""

import cnn


def test_short_training_run_learns():
    losses, test_accuracy = cnn.main(train_size=3000, test_size=500, epochs=3)
    assert losses[-1] < 0.5 * losses[0]
    assert test_accuracy > 0.8


def test_images_and_labels():
    images, labels = cnn.make_bars(4, seed=3)
    assert tuple(images.shape) == (4, 1, 16, 16)
    assert str(images.dtype) == "gradgen.float32"
    assert all(0 <= c < 4 for c in labels.tolist())
