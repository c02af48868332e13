// Kernels of im2col and col2im (nn, issue 26's remaining ops; torch.nn.functional.unfold / fold).
// im2col takes [N, C, H, W] (or unbatched [C, H, W]) to the sliding blocks
// [N, C * kh * kw, L], L = oh * ow blocks: row (c * kh + i) * kw + j, column b = y * ow + x holds
// input (c, y * sh - ph + i * dh, x * sw - pw + j * dw), 0 in the padding. col2im is its adjoint:
// it adds every block element back into an image of output_size (the overlaps summed). These
// are separate from the im2col of convolution.cc, which is that kernel's own layout and loops.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using Pair = std::array<int64_t, 2>;

struct Blocks {
  Pair k, d, p, s;
  int64_t H, W, oh, ow;
};

std::string pair_str(const Pair& v) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ")";
}

Pair two(const char* op, const char* name, IntArrayRef v) {
  if (v.size() != 2) {
    throw std::invalid_argument(std::string(op) + ": It is expected " + name +
                                " equals to 2, but got size " + std::to_string(v.size()));
  }
  return {v[0], v[1]};
}

/// The checks of PyTorch's im2col / col2im shape checks (messages naming op) and the block grid.
Blocks block_grid(const char* op, int64_t H, int64_t W, IntArrayRef kernel_size,
                  IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  Blocks b;
  b.k = two(op, "kernel_size", kernel_size);
  b.d = two(op, "dilation", dilation);
  b.p = two(op, "padding", padding);
  b.s = two(op, "stride", stride);
  if (b.k[0] <= 0 || b.k[1] <= 0) {
    throw std::invalid_argument(std::string(op) +
                                ": kernel size should be greater than zero, but got "
                                "kernel_height: " +
                                std::to_string(b.k[0]) +
                                " kernel_width: " + std::to_string(b.k[1]));
  }
  if (b.d[0] <= 0 || b.d[1] <= 0) {
    throw std::invalid_argument(std::string(op) +
                                ": dilation should be greater than zero, but got "
                                "dilation_height: " +
                                std::to_string(b.d[0]) +
                                " dilation_width: " + std::to_string(b.d[1]));
  }
  if (b.p[0] < 0 || b.p[1] < 0) {
    throw std::invalid_argument(std::string(op) +
                                ": padding should be non-negative, but got pad_height: " +
                                std::to_string(b.p[0]) + " pad_width: " + std::to_string(b.p[1]));
  }
  if (b.s[0] <= 0 || b.s[1] <= 0) {
    throw std::invalid_argument(
        std::string(op) + ": stride should be greater than zero, but got stride_height: " +
        std::to_string(b.s[0]) + " stride_width: " + std::to_string(b.s[1]));
  }
  b.H = H;
  b.W = W;
  b.oh = (H + 2 * b.p[0] - (b.d[0] * (b.k[0] - 1) + 1)) / b.s[0] + 1;
  b.ow = (W + 2 * b.p[1] - (b.d[1] * (b.k[1] - 1) + 1)) / b.s[1] + 1;
  // Integer division truncates towards 0: a negative span still gives a grid below one.
  if (H + 2 * b.p[0] - (b.d[0] * (b.k[0] - 1) + 1) < 0) b.oh = 0;
  if (W + 2 * b.p[1] - (b.d[1] * (b.k[1] - 1) + 1) < 0) b.ow = 0;
  if (b.oh < 1 || b.ow < 1) {
    throw std::invalid_argument(
        std::string(op) + ": Given input with spatial size " + pair_str({H, W}) +
        ", kernel_size=" + pair_str(b.k) + ", dilation=" + pair_str(b.d) +
        ", padding=" + pair_str(b.p) + ", calculated shape of the array of sliding blocks as " +
        pair_str({b.oh, b.ow}) + ", but its components must be at least one.");
  }
  return b;
}

/// Every (image, block) element pair of `planes` channel planes: f(image index or -1 in the
/// padding, block index).
template <typename F>
void for_each_block_element(const Blocks& b, int64_t planes, F&& f) {
  const int64_t L = b.oh * b.ow, kk = b.k[0] * b.k[1];
  for (int64_t c = 0; c < planes; ++c) {
    for (int64_t i = 0; i < b.k[0]; ++i) {
      for (int64_t j = 0; j < b.k[1]; ++j) {
        const int64_t row = c * kk + i * b.k[1] + j;
        for (int64_t y = 0; y < b.oh; ++y) {
          const int64_t h = y * b.s[0] - b.p[0] + i * b.d[0];
          for (int64_t x = 0; x < b.ow; ++x) {
            const int64_t w = x * b.s[1] - b.p[1] + j * b.d[1];
            const bool inside = h >= 0 && h < b.H && w >= 0 && w < b.W;
            f(inside ? (c * b.H + h) * b.W + w : -1, row * L + y * b.ow + x);
          }
        }
      }
    }
  }
}

}  // namespace

Tensor im2col(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(im2col, self, kernel_size, dilation, padding, stride);
  const char* op = "im2col";
  bool ok = self.dim() == 3 || self.dim() == 4;
  for (int64_t d = self.dim() - 3; ok && d < self.dim(); ++d) ok = self.size(d) != 0;
  if (!ok) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected 3D or 4D (batch mode) tensor with possibly 0 batch "
                                "size and other non-zero dimensions for input, but got: " +
                                shape_str(self.sizes()));
  }
  const bool batched = self.dim() == 4;
  const int64_t N = batched ? self.size(0) : 1, C = self.size(-3);
  const Blocks b =
      block_grid(op, self.size(-2), self.size(-1), kernel_size, dilation, padding, stride);
  const int64_t rows = C * b.k[0] * b.k[1], L = b.oh * b.ow;
  Tensor out =
      batched ? zeros({N, rows, L}, self.scalar_type()) : zeros({rows, L}, self.scalar_type());
  const Tensor x = self.contiguous();
  loops::dispatch_arithmetic(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t n = 0; n < N; ++n) {
      const T* px = x.data_ptr<T>() + n * C * b.H * b.W;
      T* po = out.data_ptr<T>() + n * rows * L;
      for_each_block_element(b, C, [&](int64_t image, int64_t block) {
        po[block] = image < 0 ? T(0) : px[image];
      });
    }
  });
  return out;
}

Tensor& im2col_out(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
                   IntArrayRef padding, IntArrayRef stride, Tensor& out) {
  return write_out("im2col.out", native::im2col(self, kernel_size, dilation, padding, stride), out);
}

Tensor col2im(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
              IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(col2im, self, output_size, kernel_size, dilation, padding,
                                   stride);
  const char* op = "col2im";
  const Pair size = two(op, "output_size", output_size);
  bool ok = self.dim() == 2 || self.dim() == 3;
  for (int64_t d = self.dim() - 2; ok && d < self.dim(); ++d) ok = self.size(d) != 0;
  if (!ok) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected 2D or 3D (batch mode) tensor for input with possibly "
                                "0 batch size and non-zero dimensions for input, but got: " +
                                shape_str(self.sizes()));
  }
  const Pair k = two(op, "kernel_size", kernel_size);
  const int64_t rows = self.size(-2), L = self.size(-1);
  if (k[0] > 0 && k[1] > 0 && rows % (k[0] * k[1]) != 0) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected size of input's dimension 1 to be divisible by the "
                                "product of kernel_size, but got input.size(1)=" +
                                std::to_string(rows) + " and kernel_size=" + pair_str(k));
  }
  Blocks b;
  try {
    b = block_grid(op, size[0], size[1], kernel_size, dilation, padding, stride);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    if (what.find("sliding blocks") == std::string::npos) throw;
    throw std::invalid_argument(std::string(op) + ": Given output_size=" + pair_str(size) +
                                ", kernel_size=" + pair_str(k) +
                                ", calculated shape of the array of sliding blocks is too small "
                                "(non-positive)");
  }
  if (b.oh * b.ow != L) {
    throw std::invalid_argument(
        std::string(op) + ": Given output_size=" + pair_str(size) +
        ", kernel_size=" + pair_str(b.k) + ", dilation=" + pair_str(b.d) +
        ", padding=" + pair_str(b.p) + ", stride=" + pair_str(b.s) +
        ", expected size of input's dimension 2 to match the calculated number of sliding "
        "blocks " +
        std::to_string(b.oh) + " * " + std::to_string(b.ow) + " = " + std::to_string(b.oh * b.ow) +
        ", but got input.size(2)=" + std::to_string(L) + ".");
  }
  const bool batched = self.dim() == 3;
  const int64_t N = batched ? self.size(0) : 1, C = rows / (b.k[0] * b.k[1]);
  Tensor out = batched ? zeros({N, C, size[0], size[1]}, self.scalar_type())
                       : zeros({C, size[0], size[1]}, self.scalar_type());
  const Tensor x = self.contiguous();
  loops::dispatch_arithmetic(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t n = 0; n < N; ++n) {
      const T* px = x.data_ptr<T>() + n * rows * L;
      T* po = out.data_ptr<T>() + n * C * size[0] * size[1];
      for_each_block_element(b, C, [&](int64_t image, int64_t block) {
        if (image >= 0) po[image] += px[block];
      });
    }
  });
  return out;
}

Tensor& col2im_out(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                   IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride, Tensor& out) {
  return write_out("col2im.out",
                   native::col2im(self, output_size, kernel_size, dilation, padding, stride), out);
}

}  // namespace native
}  // namespace gradgen
