"""gradgen.linalg: PyTorch's torch.linalg names over gradgen's ops (cross, diagonal, vector_norm, multi_dot,
and the decompositions: det, slogdet, inv, inv_ex, solve, solve_ex), and the functions PyTorch
composes of them (issue 23): norm, matrix_norm, pinv, matrix_rank, matmul.

>>> gradgen.linalg.cross(a, b, dim=0)
>>> gradgen.linalg.vector_norm(x, ord=1, dim=(0, 1))
"""

from gradgen import _C


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """torch.linalg.diagonal: the diagonal of each matrix over dims dim1, dim2 (the last two by
    default), a view (the op linalg_diagonal)."""
    return _C.linalg_diagonal(A, offset=offset, dim1=dim1, dim2=dim2)


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


def matmul(input, other, *, out=None):
    """torch.linalg.matmul: matmul's other name."""
    return _call(_C.matmul, input, other, out=out)


def _write_out(result, out):
    # A composite's out=: amax over a new unit dim copies result into out through amax.out
    # (resized as out= tensors are, with the checks of out=: dtype, no autograd).
    if out is None:
        return result
    return _C.amax(result.unsqueeze(-1), [-1], False, out=out)


def _check_matrix(A, name, what="A"):
    if A.dim() < 2:
        raise RuntimeError("%s: The input tensor %s must have at least 2 dimensions." % (name, what))


def _matrix_norm_checks(A, dim, dtype, low_precision):
    _check_matrix(A, "linalg.matrix_norm")
    if not A.is_floating_point():
        raise RuntimeError(
            "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got %s" % _type_name(A.dtype)
        )
    if not low_precision and A.dtype in (_C.float16, _C.bfloat16):
        raise RuntimeError("linalg.matrix_norm: Low precision dtypes not supported. Got %s" % _type_name(A.dtype))
    if len(dim) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got %s" % " ".join(str(d) for d in dim))
    n = A.dim()
    for d in dim:
        if not -n <= d < n:
            raise IndexError(
                "Dimension out of range (expected to be in range of [%d, %d], but got %d)" % (-n, n - 1, d)
            )
    dim = [d % n for d in dim]
    if dim[0] == dim[1]:
        raise RuntimeError("linalg.matrix_norm: dims must be different. Got (%d, %d)" % tuple(dim))
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(
            "linalg.matrix_norm: dtype should be floating point or complex, but got %s" % _type_name(dtype)
        )
    return dim


def _type_name(dtype):
    # PyTorch's ScalarType names in messages: Float, Double, Half, BFloat16, Long, ...
    return {
        "float32": "Float",
        "float64": "Double",
        "float16": "Half",
        "bfloat16": "BFloat16",
        "int64": "Long",
        "int32": "Int",
        "int16": "Short",
        "int8": "Char",
        "uint8": "Byte",
        "bool": "Bool",
    }.get(str(dtype).split(".")[-1], str(dtype))


def _over_last_two(A, dim, reduce, keepdim):
    # reduce(the singular values of the matrices in dims `dim`), back in place with keepdim.
    result = reduce(_C.linalg_svdvals(_C.movedim(A, dim, [-2, -1])))
    if keepdim:
        result = _C.movedim(_C.unsqueeze(_C.unsqueeze(result, -1), -1), [-2, -1], dim)
    return result


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """torch.linalg.matrix_norm: 'fro' (the 2-norm of the elements), 'nuc' (the sum of the
    singular values), 2 / -2 (the largest / smallest singular value), 1 / -1 (the largest /
    smallest column sum of absolute values), inf / -inf (the same over rows), over the two dims
    `dim` of A."""
    dim = list(dim)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError("linalg.matrix_norm: Order %s not supported." % ord)
        dim = _matrix_norm_checks(A, dim, dtype, ord != "nuc")
        if ord == "fro":
            return vector_norm(A, 2, dim, keepdim, dtype=dtype, out=out)
        A = A if dtype is None else A.to(dtype)
        result = _over_last_two(A, dim, lambda s: s.sum(-1), keepdim)
    else:
        ord = float(ord)
        if abs(ord) not in (1.0, 2.0, float("inf")):
            raise RuntimeError("linalg.matrix_norm: Order %s not supported." % _number(ord))
        dim = _matrix_norm_checks(A, dim, dtype, abs(ord) != 2.0)

        def max_min(x, d, keep):
            return x.amax(d, keep) if ord > 0 else x.amin(d, keep)

        if abs(ord) == 2.0:
            A = A if dtype is None else A.to(dtype)
            result = _over_last_two(A, dim, lambda s: max_min(s, -1, False), keepdim)
        else:
            if abs(ord) == float("inf"):
                dim = [dim[1], dim[0]]  # the inf-norm is the 1-norm of the transpose
            if not keepdim and dim[0] < dim[1]:
                dim[1] -= 1
            result = max_min(vector_norm(A, 1.0, dim[0], keepdim, dtype=dtype), dim[1], keepdim)
    return _write_out(result, out)


def _number(x):
    return str(int(x)) if x == int(x) else str(x)


def norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    """torch.linalg.norm: a vector norm (dim one int, or A 1-D with dim None; ord None is 2) or
    a matrix norm (dim two ints, or A 2-D with dim None and ord given), as matrix_norm /
    vector_norm; ord None over every element is the 2-norm of the flattened A."""
    if isinstance(dim, int):
        dim = [dim]
    elif dim is not None:
        dim = list(dim)
    if isinstance(ord, str):
        if dim is not None and len(dim) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. Got %s" % dim)
        if dim is None and A.dim() not in (1, 2):
            raise RuntimeError(
                "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD." % A.dim()
            )
        return matrix_norm(A, ord, [0, 1] if dim is None else dim, keepdim, dtype=dtype, out=out)
    if dim is not None and len(dim) not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. Got %s" % dim)
    if dim is None and ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD." % A.dim()
        )
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and A.dim() == 2)):
        return matrix_norm(A, ord, [0, 1] if dim is None else dim, keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


def _tolerances(A, atol, rtol, name):
    # PyTorch's get_atol_rtol: float64 tensors; rtol by default eps * max(m, n), or 0 when a
    # positive atol is given.
    def as_tensor(v):
        return v if isinstance(v, _C.Tensor) else _C.tensor(float(v), dtype=_C.float64)

    atol_t = as_tensor(0.0 if atol is None else atol)
    if rtol is not None:
        return atol_t, as_tensor(rtol)
    eps = {_C.float64: 2.220446049250313e-16, _C.float16: 0.0009765625, _C.bfloat16: 0.0078125}.get(
        A.dtype, 1.1920928955078125e-07
    )
    default = _C.tensor(eps * max(A.size(-1), A.size(-2)), dtype=_C.float64)
    if atol is None:
        return atol_t, default
    return atol_t, _C.where(_C.gt(atol_t, 0), _C.zeros([], dtype=_C.float64), default)


def _singular_and_largest(A, hermitian):
    if not hermitian:
        S = _C.linalg_svdvals(A)
        return S, S.narrow(-1, 0, 1)
    S = _C.linalg_eigvalsh(A).abs()
    return S, S.amax(-1, True)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """torch.linalg.matrix_rank: the number of singular values (absolute eigenvalues when
    hermitian) above max(atol, rtol * the largest); tol (positional, deprecated form) is atol
    with rtol 0. An int64 tensor of A's batch shape."""
    _check_matrix(A, "torch.linalg.matrix_rank", "input")
    if A.dtype not in (_C.float32, _C.float64):
        raise RuntimeError("torch.linalg.matrix_rank: Expected a floating point or complex tensor as input. Got %s"
                           % _type_name(A.dtype))  # fmt: skip
    if tol is not None:
        atol, rtol = tol, 0.0
    atol_t, rtol_t = _tolerances(A, atol, rtol, "torch.linalg.matrix_rank")
    if A.numel() == 0:
        result = _C.zeros(list(A.shape[:-2]), dtype=_C.int64)
    else:
        S, largest = _singular_and_largest(A, hermitian)
        bound = _C.maximum(atol_t.unsqueeze(-1), rtol_t.unsqueeze(-1) * largest)
        result = _C.gt(S, bound).sum(-1)
    return _write_out(result, out)


def _constant_rank_derivative(P, A, D):
    # The derivative of the pseudo-inverse at constant rank along D (PyTorch's pinv_jvp, whose
    # adjoint is its pinv_backward): -P D P + P P^T D^T (I - A P) + (I - P A) D^T P^T P.
    Dt, Pt = D.transpose(-2, -1), P.transpose(-2, -1)
    right = Dt @ Pt @ P
    return -(P @ D @ P) + P @ Pt @ (Dt - Dt @ A @ P) + right - P @ (A @ right)


def _with_pinv_gradient(A, P):
    """P (A's pseudo-inverse, without history) with PyTorch's gradient of linalg_pinv: its own
    formula (pinv_backward), not the SVD's, which differs where singular values are cut.

    D = A - A.detach() is 0 and carries A's gradient, dP(P, A, D) is linear in D: P + dP(P, A, D)
    has P's value and dP's first derivative. For second derivatives, dP's own P and A must
    follow A: P1 = P + dP(P, A.detach(), D) has pinv's first derivative, and they enter at half
    their change (P + (P1 - P) / 2, A.detach() + D / 2), since each meets D twice in the
    derivative of a product (dP's second derivative in D alone is 0)."""
    if not (A.requires_grad and _C.is_grad_enabled()):
        return P
    A0 = A.detach()
    D = A - A0
    half_P = P + 0.5 * _constant_rank_derivative(P, A0, D)
    return P + _constant_rank_derivative(half_P, A0 + 0.5 * D, D)


def _pinv_value(A, atol_t, rtol_t, hermitian):
    # PyTorch's linalg_pinv: from the SVD (V diag(1/S) U^T), or eigh for a symmetric A, with the
    # singular values at or under max(atol, rtol * the largest) taken as 0.
    if not hermitian:
        U, S, Vh = _C.linalg_svd(A, False)
        V, Uh = Vh.transpose(-2, -1), U.transpose(-2, -1)
        keep = S
        largest = S.narrow(-1, 0, 1) if A.numel() else S
    else:
        S, U = _C.linalg_eigh(A)
        V, Uh = U, U.transpose(-2, -1)
        keep = S.abs()
        largest = keep.amax(-1, True) if A.numel() else keep
    bound = _C.maximum(atol_t.unsqueeze(-1), rtol_t.unsqueeze(-1) * largest)
    S_inv = _C.where(_C.gt(keep, bound), S.reciprocal(), _C.zeros([], dtype=S.dtype)).to(A.dtype)
    return _C.matmul(V * S_inv.unsqueeze(-2), Uh)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """torch.linalg.pinv: the pseudo-inverse of each matrix of A, from its singular values (its
    eigenvalues when hermitian) above max(atol, rtol * the largest), the smaller ones taken as
    0; rcond (positional, deprecated form) is rtol. The gradient is PyTorch's (the derivative at
    constant rank)."""
    if A.dtype not in (_C.float32, _C.float64) or A.dim() < 2:
        raise RuntimeError(
            "linalg.pinv(%s{[%s]}): expected a tensor with 2 or more dimensions of float, double, cfloat or "
            "cdouble types" % (_type_name(A.dtype), ", ".join(str(s) for s in A.shape))
        )
    if rcond is not None:
        rtol = rcond
    atol_t, rtol_t = _tolerances(A, atol, rtol, "linalg.pinv")
    from gradgen.autograd.grad_mode import no_grad

    with no_grad():
        P = _pinv_value(A.detach(), atol_t, rtol_t, hermitian)
    return _write_out(_with_pinv_gradient(A, P), out)


__all__ = [
    "cholesky",
    "cholesky_ex",
    "cross",
    "det",
    "diagonal",
    "inv",
    "inv_ex",
    "matmul",
    "matrix_norm",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "svd",
    "svdvals",
    "vector_norm",
]
