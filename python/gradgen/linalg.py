"""gradgen.linalg: PyTorch's torch.linalg names over gradgen's ops (cross, vector_norm, multi_dot,
and the decompositions: det, slogdet, inv, inv_ex, solve, solve_ex).

>>> gradgen.linalg.cross(a, b, dim=0)
>>> gradgen.linalg.vector_norm(x, ord=1, dim=(0, 1))
"""

from gradgen import _C


def cross(input, other, *, dim=-1, out=None):
    """torch.linalg.cross: the cross product of 3-vectors along dim (the op linalg_cross)."""
    if out is None:
        return _C.linalg_cross(input, other, dim=dim)
    return _C.linalg_cross(input, other, dim=dim, out=out)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.vector_norm: the ord-norm of x over dim (None: every element; the op
    linalg_vector_norm). dim may be an int or a sequence of ints, as PyTorch's."""
    if isinstance(dim, int):
        dim = [dim]
    elif dim is not None:
        dim = list(dim)
    kwargs = {"dtype": dtype} if dtype is not None else {}
    if out is not None:
        kwargs["out"] = out
    return _C.linalg_vector_norm(x, ord, dim, keepdim, **kwargs)


def multi_dot(tensors, *, out=None):
    """torch.linalg.multi_dot: the product of two or more matrices (the first and last may be
    vectors) in the cheapest order (the op linalg_multi_dot)."""
    if out is None:
        return _C.linalg_multi_dot(list(tensors))
    return _C.linalg_multi_dot(list(tensors), out=out)


def _call(op, *args, out=None, **kwargs):
    # The op's out= variant when out is given (a tensor, or a tuple for several outputs).
    if out is None:
        return op(*args, **kwargs)
    return op(*args, out=out, **kwargs)


def det(A, *, out=None):
    """torch.linalg.det: the determinant of each square matrix of A (the op linalg_det)."""
    return _call(_C.linalg_det, A, out=out)


def slogdet(A, *, out=None):
    """torch.linalg.slogdet: (sign, logabsdet) of each determinant; out=(sign, logabsdet)."""
    return _call(_C.linalg_slogdet, A, out=out)


def inv(A, *, out=None):
    """torch.linalg.inv: the inverse of each square matrix; a singular one raises."""
    return _call(_C.linalg_inv, A, out=out)


def inv_ex(A, *, check_errors=False, out=None):
    """torch.linalg.inv_ex: (inverse, info), info the first zero pivot of a singular matrix."""
    return _call(_C.linalg_inv_ex, A, check_errors=check_errors, out=out)


def solve(A, B, *, left=True, out=None):
    """torch.linalg.solve: X with A X = B (left) or X A = B; B may be a (batch of) vector(s)."""
    return _call(_C.linalg_solve, A, B, left=left, out=out)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """torch.linalg.solve_ex: (result, info) of solve, raising only with check_errors."""
    return _call(_C.linalg_solve_ex, A, B, left=left, check_errors=check_errors, out=out)


def cholesky(A, *, upper=False, out=None):
    """torch.linalg.cholesky: L with A = L L^T (upper: U with A = U^T U), from one triangle of A;
    a matrix that is not positive-definite raises."""
    return _call(_C.linalg_cholesky, A, upper=upper, out=out)


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """torch.linalg.cholesky_ex: (L, info), info the order of the first leading minor that is not
    positive-definite."""
    return _call(_C.linalg_cholesky_ex, A, upper=upper, check_errors=check_errors, out=out)


def qr(A, mode="reduced", *, out=None):
    """torch.linalg.qr: (Q, R) with A = Q R; mode 'reduced', 'complete' or 'r' (R only)."""
    return _call(_C.linalg_qr, A, mode, out=out)


def svd(A, full_matrices=True, *, driver=None, out=None):
    """torch.linalg.svd: (U, S, Vh) with A = U diag(S) Vh, S decreasing (U's and Vh's signs are
    any valid choice, as in PyTorch); full_matrices gives square U and Vh."""
    kwargs = {} if driver is None else {"driver": driver}
    return _call(_C.linalg_svd, A, full_matrices, out=out, **kwargs)


def svdvals(A, *, driver=None, out=None):
    """torch.linalg.svdvals: the singular values of A, decreasing."""
    kwargs = {} if driver is None else {"driver": driver}
    return _call(_C.linalg_svdvals, A, out=out, **kwargs)


def eigh(A, UPLO="L", *, out=None):
    """torch.linalg.eigh: (eigenvalues, eigenvectors) of a symmetric A read from its lower
    (UPLO='L') or upper ('U') triangle; eigenvalues ascending, eigenvectors as columns."""
    return _call(_C.linalg_eigh, A, UPLO, out=out)


def eigvalsh(A, UPLO="L", *, out=None):
    """torch.linalg.eigvalsh: the eigenvalues of a symmetric A, ascending."""
    return _call(_C.linalg_eigvalsh, A, UPLO, out=out)


__all__ = [
    "cholesky",
    "cholesky_ex",
    "cross",
    "det",
    "inv",
    "inv_ex",
    "multi_dot",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "svd",
    "svdvals",
    "vector_norm",
]
