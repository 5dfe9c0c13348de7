// $Math's array functions (math.m): dot, norm1, norm2, iamax, sort, gemm,
// and the big-endian imports and exports of ints and reals. Argument errors
// raise "invalid math argument", Inferno's exMathia.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "sys_fd.h"

namespace dis::vm {

namespace {

[[noreturn]] void bad_argument(Call& c) { c.raise("invalid math argument"); }

// The elements of an array argument, 8-byte reals or 4-byte ints (nil: none).
struct Elems {
  std::uint8_t* p;
  std::int32_t n;
};
Elems elems(Call& c, std::uint32_t off) {
  ArrayRef r = array_ref(c.heap(), c.arg_ptr(off));
  return {r.len > 0 ? c.heap().cage().at(r.data) : nullptr, r.len};
}
double real_at(const Elems& a, std::int64_t i) { return ld<double>(a.p + 8 * i); }

void m_dot(Call& c) {
  Elems x = elems(c, 32), y = elems(c, 36);
  if (x.n != y.n) bad_argument(c);
  double s = 0;
  for (std::int32_t i = 0; i < x.n; ++i) s += real_at(x, i) * real_at(y, i);
  c.ret_real(s);
}

void m_norm1(Call& c) {
  Elems x = elems(c, 32);
  double s = 0;
  for (std::int32_t i = 0; i < x.n; ++i) s += std::fabs(real_at(x, i));
  c.ret_real(s);
}

// Scaled by the largest magnitude, so squares neither overflow nor vanish.
void m_norm2(Call& c) {
  Elems x = elems(c, 32);
  double big = 0;
  for (std::int32_t i = 0; i < x.n; ++i) big = std::max(big, std::fabs(real_at(x, i)));
  if (big == 0 || !std::isfinite(big)) {
    c.ret_real(big);
    return;
  }
  double s = 0;
  for (std::int32_t i = 0; i < x.n; ++i) {
    const double t = real_at(x, i) / big;
    s += t * t;
  }
  c.ret_real(big * std::sqrt(s));
}

// The first index of the largest magnitude; 0 for an empty array.
void m_iamax(Call& c) {
  Elems x = elems(c, 32);
  std::int32_t m = 0;
  for (std::int32_t i = 1; i < x.n; ++i)
    if (std::fabs(real_at(x, m)) < std::fabs(real_at(x, i))) m = i;
  c.ret_int(m);
}

// sort(x, pi): reorders the index array pi so that x[pi[i]] increases
// (stably); pi must index x.
void m_sort(Call& c) {
  Elems x = elems(c, 32), pi = elems(c, 36);
  if (x.n != pi.n) bad_argument(c);
  std::vector<std::int32_t> p(static_cast<std::size_t>(pi.n));
  for (std::int32_t i = 0; i < pi.n; ++i) {
    p[static_cast<std::size_t>(i)] = ld<std::int32_t>(pi.p + 4 * i);
    if (p[static_cast<std::size_t>(i)] < 0 || p[static_cast<std::size_t>(i)] >= x.n)
      bad_argument(c);
  }
  std::stable_sort(p.begin(), p.end(),
                   [&](std::int32_t a, std::int32_t b) { return real_at(x, a) < real_at(x, b); });
  for (std::int32_t i = 0; i < pi.n; ++i)
    st<std::int32_t>(pi.p + 4 * i, p[static_cast<std::size_t>(i)]);
}

// A gemm operand: an array holding a rows x cols column-major matrix with
// leading dimension ld, read transposed or not.
struct Matrix {
  Elems e;
  std::int64_t ld;
  bool t;
  double at(std::int64_t i, std::int64_t j) const {
    return t ? real_at(e, j + i * ld) : real_at(e, i + j * ld);
  }
};

// The array must hold every element the rows x cols matrix stored with
// leading dimension ld reaches.
void check_matrix(Call& c, const Elems& e, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (ld < std::max<std::int64_t>(1, rows)) bad_argument(c);
  if (rows > 0 && cols > 0 && (cols - 1) * ld + rows > e.n) c.raise("array bounds error");
}

// gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
// C = alpha op(A) op(B) + beta C, column-major, as BLAS dgemm ('N' or 'T').
void m_gemm(Call& c) {
  const std::int32_t ta = c.arg_int(32), tb = c.arg_int(36);
  const std::int64_t m = c.arg_int(40), n = c.arg_int(44), k = c.arg_int(48);
  const double alpha = c.arg_real(56), beta = c.arg_real(80);
  const std::int64_t lda = c.arg_int(68), ldb = c.arg_int(76), ldc = c.arg_int(92);
  if ((ta != 'N' && ta != 'T') || (tb != 'N' && tb != 'T') || m < 0 || n < 0 || k < 0)
    bad_argument(c);
  Matrix a{elems(c, 64), lda, ta == 'T'}, b{elems(c, 72), ldb, tb == 'T'};
  Elems cm = elems(c, 88);
  check_matrix(c, a.e, a.t ? k : m, a.t ? m : k, lda);
  check_matrix(c, b.e, b.t ? n : k, b.t ? k : n, ldb);
  check_matrix(c, cm, m, n, ldc);
  if (m == 0 || n == 0 || ((alpha == 0 || k == 0) && beta == 1)) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      std::uint8_t* cij = cm.p + 8 * (i + j * ldc);
      double s = 0;
      if (alpha != 0)
        for (std::int64_t l = 0; l < k; ++l) s += a.at(i, l) * b.at(l, j);
      // beta 0 sets C without reading it, as BLAS (a NaN there goes).
      st<double>(cij, alpha * s + (beta == 0 ? 0.0 : beta * ld<double>(cij)));
    }
}

// Big-endian transfers between bytes and elements of `width` bytes; the
// byte array's length must be exactly width times the element count.
template <int Width>
void check_transfer(Call& c, const Elems& b, const Elems& x) {
  if (static_cast<std::int64_t>(b.n) != std::int64_t{Width} * x.n) bad_argument(c);
}
std::uint64_t get_be(const std::uint8_t* p, int w) {
  std::uint64_t v = 0;
  for (int i = 0; i < w; ++i) v = v << 8 | p[i];
  return v;
}
void put_be(std::uint8_t* p, int w, std::uint64_t v) {
  for (int i = w - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

// Elements of Dis type Elem (int or real) travel as Wire (int, float or
// double), big-endian.
template <class Wire, class Elem>
void m_import(Call& c) {
  constexpr int w = sizeof(Wire);
  using Bits = std::conditional_t<w == 4, std::uint32_t, std::uint64_t>;
  Elems b = elems(c, 32), x = elems(c, 36);
  check_transfer<w>(c, b, x);
  for (std::int32_t i = 0; i < x.n; ++i) {
    const auto bits = static_cast<Bits>(get_be(b.p + w * i, w));
    Wire v;
    std::memcpy(&v, &bits, w);
    st<Elem>(x.p + sizeof(Elem) * i, static_cast<Elem>(v));
  }
}
template <class Wire, class Elem>
void m_export(Call& c) {
  constexpr int w = sizeof(Wire);
  using Bits = std::conditional_t<w == 4, std::uint32_t, std::uint64_t>;
  Elems b = elems(c, 32), x = elems(c, 36);
  check_transfer<w>(c, b, x);
  for (std::int32_t i = 0; i < x.n; ++i) {
    const auto v = static_cast<Wire>(ld<Elem>(x.p + sizeof(Elem) * i));
    Bits bits;
    std::memcpy(&bits, &v, w);
    put_be(b.p + w * i, w, bits);
  }
}

}  // namespace

void add_math_array_functions(Impls& impls) {
  impls["dot"] = m_dot;
  impls["norm1"] = m_norm1;
  impls["norm2"] = m_norm2;
  impls["iamax"] = m_iamax;
  impls["sort"] = m_sort;
  impls["gemm"] = m_gemm;
  impls["import_int"] = m_import<std::int32_t, std::int32_t>;
  impls["export_int"] = m_export<std::int32_t, std::int32_t>;
  impls["import_real32"] = m_import<float, double>;
  impls["export_real32"] = m_export<float, double>;
  impls["import_real"] = m_import<double, double>;
  impls["export_real"] = m_export<double, double>;
}

}  // namespace dis::vm
