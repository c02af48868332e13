"""Trains a two-layer MLP on two interleaved spirals from Python, printing loss and accuracy.

    ./bazelw run //examples/python:mlp

The Python twin of examples/mlp/main.cc: the same data, model (2-48-2, tanh), seeds and plain
SGD, so it prints the same losses. The ops (linear, tanh, cross_entropy_loss) are gradgen's
generated bindings; the arithmetic, indexing and comparisons are Tensor's operators.
"""

import math

import gradgen


def make_spirals(per_class, seed):
    """Two noisy spirals, one per class; every fifth point (i % 5 == 2) goes to the test set."""
    noise = gradgen.randn(2 * per_class, 2, seed=seed).tolist()
    train_x, train_y, test_x, test_y = [], [], [], []
    for c in range(2):
        for i in range(per_class):
            r = 0.1 + 0.9 * i / per_class  # radius
            angle = 3.0 * math.pi * r + c * math.pi
            k = c * per_class + i
            point = [r * math.cos(angle) + 0.03 * noise[k][0], r * math.sin(angle) + 0.03 * noise[k][1]]
            if i % 5 == 2:
                test_x.append(point)
                test_y.append(c)
            else:
                train_x.append(point)
                train_y.append(c)
    return ((gradgen.tensor(train_x), gradgen.tensor(train_y)), (gradgen.tensor(test_x), gradgen.tensor(test_y)))


def parameter(sizes, scale, seed):
    with gradgen.no_grad():
        p = gradgen.randn(*sizes, seed=seed) * scale
    return p.requires_grad_()


class Mlp:
    def __init__(self, hidden, seed):
        self.w1 = parameter((hidden, 2), 1.0, seed)
        self.b1 = parameter((hidden,), 0.5, seed + 1)
        self.w2 = parameter((2, hidden), 1.0 / math.sqrt(hidden), seed + 2)
        self.b2 = parameter((2,), 0.0, seed + 3)

    def __call__(self, x):
        """Class logits [n, 2] of the points x [n, 2]."""
        return gradgen.linear(gradgen.tanh(gradgen.linear(x, self.w1, self.b1)), self.w2, self.b2)

    def parameters(self):
        return [self.w1, self.b1, self.w2, self.b2]


@gradgen.no_grad()
def accuracy(logits, labels):
    predicted = logits[:, 1] > logits[:, 0]  # class 1 wins
    correct = predicted == (labels == 1)
    return sum(correct.tolist()) / len(labels)


def main(steps=3000):
    """Trains for `steps` SGD steps, printing as it goes; returns (first loss, last loss, test
    accuracy)."""
    (train_x, train_y), (test_x, test_y) = make_spirals(per_class=250, seed=7)
    model = Mlp(hidden=48, seed=11)
    learning_rate = 0.6
    losses = []
    print("two spirals: %d training points, %d test points; MLP 2-48-2 (tanh)" % (len(train_x), len(test_x)))
    for step in range(steps + 1):
        logits = model(train_x)
        loss = gradgen.cross_entropy_loss(logits, train_y)
        losses.append(loss.item())
        if step % 250 == 0:
            print("step %4d  loss %.4f  train acc %5.1f%%" % (step, loss.item(), 100 * accuracy(logits, train_y)))
        if step == steps:
            break
        loss.backward()
        with gradgen.no_grad():  # SGD: p -= lr * p.grad, outside the graph
            for p in model.parameters():
                p -= learning_rate * p.grad
                p.grad = None
    test_accuracy = accuracy(model(test_x), test_y)
    print(
        "final: train accuracy %.1f%%, test accuracy %.1f%%"
        % (100 * accuracy(model(train_x), train_y), 100 * test_accuracy)
    )
    return losses[0], losses[-1], test_accuracy


if __name__ == "__main__":
    main()
