"""Trains a small CNN to tell the orientation of a noisy bar in 16 x 16 images, from Python.

    ./bazelw run -c opt //examples/python:cnn

The Python twin of examples/cnn (cnn.cc): the same generated images (splitmix64, fixed seeds),
model (conv 1->8 3x3, relu, maxpool 2; conv 8->16 3x3, relu, maxpool 2; linear 256->4), float32,
cross-entropy and Adam written out below; it prints loss and accuracy per epoch. The ops are
gradgen.nn.functional's (conv2d, relu, max_pool2d, linear, cross_entropy).
"""

import math

import gradgen
import gradgen.nn.functional as F

SIDE = 16
CLASSES = 4
_MASK = (1 << 64) - 1


class SplitMix64:
    """The generator of cnn.cc, bit for bit (64-bit arithmetic masked), so the images match."""

    def __init__(self, seed):
        self.state = seed & _MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * 2.0**-53


def draw_bar(rng):
    """One image (SIDE * SIDE values, row-major) and its class: noise, then a bar of the class's
    orientation (0 horizontal, 1 diagonal, 2 vertical, 3 anti-diagonal) through its centre."""
    label = min(CLASSES - 1, int(rng.uniform() * 4))
    cx, cy = 4 + 8 * rng.uniform(), 4 + 8 * rng.uniform()
    half = 2 + 2.5 * rng.uniform()  # half the bar's length, in pixels
    bright = 0.6 + 0.4 * rng.uniform()
    d = math.sqrt(0.5)
    ux, uy = (1, d, 0, d)[label], (0, d, 1, -d)[label]
    pixels = [0.45 * rng.uniform() for _ in range(SIDE * SIDE)]
    for k in range(int(math.floor(8 * half)) + 1):
        t = -half + 0.25 * k
        x, y = int(math.floor(cx + t * ux + 0.5)), int(math.floor(cy + t * uy + 0.5))
        if 0 <= x < SIDE and 0 <= y < SIDE:
            pixels[y * SIDE + x] = max(pixels[y * SIDE + x], bright)
    return pixels, label


def make_bars(n, seed):
    """Images [n, 1, 16, 16] (float32) and labels [n] (int64)."""
    rng = SplitMix64(seed)
    images, labels = [], []
    for _ in range(n):
        pixels, label = draw_bar(rng)
        images.append([[pixels[r * SIDE : (r + 1) * SIDE] for r in range(SIDE)]])
        labels.append(label)
    return gradgen.tensor(images, dtype=gradgen.float32), gradgen.tensor(labels)


def parameter(sizes, scale, seed):
    with gradgen.no_grad():
        p = (gradgen.randn(*sizes, seed=seed) * scale).to(gradgen.float32)
    return p.requires_grad_()


class Cnn:
    def __init__(self):
        self.w1 = parameter((8, 1, 3, 3), math.sqrt(2.0 / 9), 1)
        self.b1 = parameter((8,), 0, 2)
        self.w2 = parameter((16, 8, 3, 3), math.sqrt(2.0 / 72), 3)
        self.b2 = parameter((16,), 0, 4)
        self.w3 = parameter((CLASSES, 256), math.sqrt(1.0 / 256), 5)
        self.b3 = parameter((CLASSES,), 0, 6)

    def __call__(self, x):
        """Class logits [n, 4] of images x [n, 1, 16, 16]."""
        h = F.max_pool2d(F.relu(F.conv2d(x, self.w1, self.b1, padding=1)), 2)  # [n, 8, 8, 8]
        h = F.max_pool2d(F.relu(F.conv2d(h, self.w2, self.b2, padding=1)), 2)  # [n, 16, 4, 4]
        return F.linear(h.flatten(1), self.w3, self.b3)

    def parameters(self):
        return [self.w1, self.b1, self.w2, self.b2, self.w3, self.b3]


class Adam:
    """Adam (Kingma & Ba), written out: bias-corrected first and second moments of each
    parameter's gradient scale its step."""

    def __init__(self, params, lr, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.lr, self.betas, self.eps = params, lr, betas, eps
        self.m = [gradgen.zeros_like(p) for p in params]
        self.v = [gradgen.zeros_like(p) for p in params]
        self.t = 0

    @gradgen.no_grad()
    def step(self):
        b1, b2 = self.betas
        self.t += 1
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for i, p in enumerate(self.params):
            g = p.grad
            self.m[i] = b1 * self.m[i] + (1 - b1) * g
            self.v[i] = b2 * self.v[i] + (1 - b2) * g * g
            p -= self.lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + self.eps)
            p.grad = None


@gradgen.no_grad()
def accuracy(model, images, labels):
    predicted = model(images).argmax(1)
    return sum((predicted == labels).tolist()) / len(labels)


def main(train_size=4000, test_size=1000, batch_size=50, epochs=6, learning_rate=3e-3):
    """Trains, printing loss and accuracy per epoch; returns (epoch losses, test accuracy)."""
    train_x, train_y = make_bars(train_size, seed=2026)
    test_x, test_y = make_bars(test_size, seed=7)
    print("oriented bars, 16 x 16: %d training images, %d test images, 4 classes" % (train_size, test_size))
    model = Cnn()
    adam = Adam(model.parameters(), learning_rate)
    losses, test_accuracy = [], 0.0
    for epoch in range(1, epochs + 1):
        total, batches = 0.0, 0
        for start in range(0, train_size, batch_size):
            loss = F.cross_entropy(model(train_x[start : start + batch_size]), train_y[start : start + batch_size])
            total += loss.item()
            batches += 1
            loss.backward()
            adam.step()
        losses.append(total / batches)
        train_accuracy = accuracy(model, train_x, train_y)
        test_accuracy = accuracy(model, test_x, test_y)
        print(
            "epoch %d  loss %.4f  train acc %5.1f%%  test acc %5.1f%%"
            % (epoch, losses[-1], 100 * train_accuracy, 100 * test_accuracy)
        )
    print("final: test accuracy %.1f%%" % (100 * test_accuracy))
    return losses, test_accuracy


if __name__ == "__main__":
    main()
