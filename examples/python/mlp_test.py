"""The Python MLP demo trains: a short run must cut the loss and beat chance on the test set."""

import mlp


def test_short_training_run_learns():
    first, last, test_accuracy = mlp.main(steps=400)
    assert last < 0.75 * first
    assert test_accuracy > 0.6
