#include "core/float_ops.hpp"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#if defined(__FAST_MATH__)
#error "float_ops.cpp relies on IEEE 754 host arithmetic; build it without -ffast-math"
#endif

// Two implementations live here. The integer one (templated on the format, so binary16 shares it) is exact
// for every rounding mode. For NearestEven the hot binary32 operations instead let the host FPU produce the
// correctly rounded result and derive the flags with error-free checks in double precision; anything unusual
// (NaN, infinity, overflow, a tininess borderline) is handed to the integer path. The shortcut relies on the
// host's default floating-point environment (round to nearest, no flush-to-zero), which nothing here or in
// the simulator changes.

namespace pulpsim::fp {
namespace {

template <int kExpBits, int kManBits> struct Format {
    static constexpr int kMan = kManBits;
    static constexpr int kBias = (1 << (kExpBits - 1)) - 1;
    static constexpr int kEmin = 1 - kBias;
    static constexpr int kEmax = kBias;
    static constexpr uint32_t kManMask = (1u << kManBits) - 1;
    static constexpr uint32_t kSign = 1u << (kExpBits + kManBits);
    static constexpr uint32_t kAbs = kSign - 1;
    static constexpr uint32_t kInf = ((1u << kExpBits) - 1) << kManBits;
    static constexpr uint32_t kQuiet = 1u << (kManBits - 1);
    static constexpr uint32_t kNaN = kInf | kQuiet;
    static constexpr uint32_t kMaxFinite = kInf - 1;
};
using F32 = Format<8, 23>;
using F16 = Format<5, 10>;
static_assert(F32::kNaN == kCanonicalNaN32 && F16::kNaN == kCanonicalNaN16);

template <class F> constexpr bool is_nan(uint32_t a) {
    return (a & F::kAbs) > F::kInf;
}
template <class F> constexpr bool is_snan(uint32_t a) {
    return is_nan<F>(a) && !(a & F::kQuiet);
}
template <class F> constexpr uint32_t sign_bit(bool s) {
    return s ? F::kSign : 0;
}

// A finite nonzero magnitude as sig * 2^exp.
struct Unpacked {
    uint64_t sig;
    int exp;
};

template <class F> constexpr Unpacked unpack(uint32_t a) {
    const uint32_t e = (a & F::kAbs) >> F::kMan;
    const uint32_t m = a & F::kManMask;
    if (e == 0) return {m, F::kEmin - F::kMan};
    return {m | (1u << F::kMan), int(e) - F::kBias - F::kMan};
}

constexpr int msb(uint64_t x) {
    return 63 - std::countl_zero(x);
}

// Shifts x < 2^63 right by n >= 0, OR-ing everything shifted out into bit 0 so rounding still sees a nonzero
// remainder. Clamping n to 63 already moves all of x out; no branches, as alignment shifts are
// data-dependent.
constexpr uint64_t shift_right_jam(uint64_t x, int n) {
    n = n < 63 ? n : 63;
    return (x >> n) | ((x & ((uint64_t(1) << n) - 1)) != 0);
}

struct Rounded {
    uint64_t value;
    bool inexact;
};

// Rounds sig / 2^shift (shift >= 1) to an integer; the result may carry into one more bit.
constexpr Rounded round_right(uint64_t sig, int shift, bool negative, Rounding rm) {
    uint64_t kept = 0;
    bool half = false;
    bool sticky = false;
    if (shift < 64) {
        kept = sig >> shift;
        half = (sig >> (shift - 1)) & 1;
        sticky = (sig & ((uint64_t(1) << (shift - 1)) - 1)) != 0;
    } else if (shift == 64) {
        half = sig >> 63;
        sticky = (sig << 1) != 0;
    } else {
        sticky = sig != 0;
    }
    bool up = false;
    switch (rm) {
    case Rounding::TowardZero: up = false; break;
    case Rounding::Down: up = negative && (half || sticky); break;
    case Rounding::Up: up = !negative && (half || sticky); break;
    case Rounding::NearestMaxMagnitude: up = half; break;
    case Rounding::NearestEven:
    default: up = half && (sticky || (kept & 1)); break;
    }
    return {kept + up, half || sticky};
}

template <class F> uint32_t overflow(bool negative, Rounding rm, uint8_t& flags) {
    flags |= kOverflow | kInexact;
    const bool to_max =
        rm == Rounding::TowardZero || (rm == Rounding::Down && !negative) || (rm == Rounding::Up && negative);
    return sign_bit<F>(negative) | (to_max ? F::kMaxFinite : F::kInf);
}

// Rounds (-1)^negative * sig * 2^exp to format F. sig must be nonzero; if it carries a sticky bit in bit 0,
// that bit must sit at least two places below the leading bit minus the format's precision.
template <class F> uint32_t round_pack(bool negative, int exp, uint64_t sig, Rounding rm, uint8_t& flags) {
    const int lz = std::countl_zero(sig);
    sig <<= lz;
    const int e = exp + 63 - lz; // exponent of the leading bit
    const uint32_t s = sign_bit<F>(negative);
    constexpr int kNormalShift = 63 - F::kMan;
    if (e >= F::kEmin) {
        if (e > F::kEmax) return overflow<F>(negative, rm, flags);
        const Rounded r = round_right(sig, kNormalShift, negative, rm);
        // The significand includes the implicit bit, so adding it to (biased exponent - 1) lets a rounding
        // carry step the exponent up.
        const uint32_t bits = (uint32_t(e - F::kEmin) << F::kMan) + uint32_t(r.value);
        if (bits >= F::kInf) return overflow<F>(negative, rm, flags);
        flags |= uint8_t(r.inexact) * kInexact;
        return s | bits;
    }
    const Rounded r = round_right(sig, kNormalShift + (F::kEmin - e), negative, rm);
    if (r.inexact) {
        // Tininess after rounding: only a value just below the smallest normal can round up out of tininess
        // when rounded to full precision with an unbounded exponent.
        const bool tiny = e < F::kEmin - 1 ||
                          round_right(sig, kNormalShift, negative, rm).value != (uint64_t(2) << F::kMan);
        flags |= tiny ? kInexact | kUnderflow : kInexact;
    }
    // A carry to 2^kMan lands in the exponent field as the smallest normal, which is the right encoding.
    return s | uint32_t(r.value);
}

template <class F> uint32_t signed_zero_sum(bool sa, bool sb, Rounding rm) {
    // An exact zero sum of operands with different signs is +0, except -0 when rounding down.
    return sign_bit<F>(rm == Rounding::Down ? (sa || sb) : (sa && sb));
}

template <class F> uint32_t nan_result(uint32_t a, uint32_t b, uint8_t& flags) {
    if (is_snan<F>(a) || is_snan<F>(b)) flags |= kInvalid;
    return F::kNaN;
}

template <class F> uint32_t invalid(uint8_t& flags) {
    flags |= kInvalid;
    return F::kNaN;
}

template <class F> uint32_t soft_add(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    const uint32_t ma = a & F::kAbs;
    const uint32_t mb = b & F::kAbs;
    if (ma > F::kInf || mb > F::kInf) return nan_result<F>(a, b, flags);
    const bool sa = a & F::kSign;
    const bool sb = b & F::kSign;
    if (ma == F::kInf) return (mb == F::kInf && sa != sb) ? invalid<F>(flags) : a;
    if (mb == F::kInf) return b;
    if (mb == 0) return ma == 0 ? signed_zero_sum<F>(sa, sb, rm) : a;
    if (ma == 0) return b;
    // Order by magnitude; selects rather than branches, as the order is data-dependent.
    const uint32_t hi = ma >= mb ? a : b;
    const uint32_t lo = a ^ b ^ hi;
    const Unpacked uh = unpack<F>(hi);
    const Unpacked ul = unpack<F>(lo);
    // 39 guard bits keep every bit of the smaller operand that can affect rounding; anything further down
    // only needs to be seen as nonzero.
    constexpr int kGuard = 39;
    static_assert(F::kMan + 1 + kGuard <= 63);
    const uint64_t big = uh.sig << kGuard;
    const uint64_t small = shift_right_jam(ul.sig << kGuard, uh.exp - ul.exp);
    const uint64_t sum = sa != sb ? big - small : big + small;
    if (sum == 0) return signed_zero_sum<F>(sa, sb, rm);
    return round_pack<F>(hi & F::kSign, uh.exp - kGuard, sum, rm, flags);
}

template <class F> uint32_t soft_mul(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    const uint32_t ma = a & F::kAbs;
    const uint32_t mb = b & F::kAbs;
    if (ma > F::kInf || mb > F::kInf) return nan_result<F>(a, b, flags);
    const bool s = (a ^ b) & F::kSign;
    if (ma == F::kInf || mb == F::kInf)
        return (ma == 0 || mb == 0) ? invalid<F>(flags) : sign_bit<F>(s) | F::kInf;
    if (ma == 0 || mb == 0) return sign_bit<F>(s);
    const Unpacked ua = unpack<F>(a);
    const Unpacked ub = unpack<F>(b);
    return round_pack<F>(s, ua.exp + ub.exp, ua.sig * ub.sig, rm, flags);
}

template <class F> uint32_t soft_div(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    const uint32_t ma = a & F::kAbs;
    const uint32_t mb = b & F::kAbs;
    if (ma > F::kInf || mb > F::kInf) return nan_result<F>(a, b, flags);
    const bool s = (a ^ b) & F::kSign;
    if (ma == F::kInf) return mb == F::kInf ? invalid<F>(flags) : sign_bit<F>(s) | F::kInf;
    if (mb == F::kInf) return sign_bit<F>(s);
    if (mb == 0) {
        if (ma == 0) return invalid<F>(flags);
        flags |= kDivByZero;
        return sign_bit<F>(s) | F::kInf;
    }
    if (ma == 0) return sign_bit<F>(s);
    const Unpacked ua = unpack<F>(a);
    const Unpacked ub = unpack<F>(b);
    // A dividend at bit 62 over a divisor below 2^24 leaves at least 38 quotient bits, plenty for rounding.
    const int shift = 62 - msb(ua.sig);
    const uint64_t n = ua.sig << shift;
    uint64_t q = n / ub.sig;
    q |= (n % ub.sig) != 0;
    return round_pack<F>(s, ua.exp - shift - ub.exp, q, rm, flags);
}

template <class F> uint32_t soft_sqrt(uint32_t a, Rounding rm, uint8_t& flags) {
    const uint32_t ma = a & F::kAbs;
    if (ma > F::kInf) return nan_result<F>(a, a, flags);
    if (ma == 0) return a; // sqrt(-0) = -0
    if (a & F::kSign) return invalid<F>(flags);
    if (ma == F::kInf) return a;
    const Unpacked u = unpack<F>(a);
    // Place the leading bit at 61 or 62 so that the exponent is even; the root then has 31 bits.
    int shift = 62 - msb(u.sig);
    if ((u.exp - shift) & 1) --shift;
    const uint64_t n = u.sig << shift;
    uint64_t r = uint64_t(std::sqrt(double(n)));
    while (r * r > n)
        --r;
    while ((r + 1) * (r + 1) <= n)
        ++r;
    r |= r * r != n;
    return round_pack<F>(false, (u.exp - shift) / 2, r, rm, flags);
}

template <class F> uint32_t soft_fma(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint8_t& flags) {
    const uint32_t ma = a & F::kAbs;
    const uint32_t mb = b & F::kAbs;
    const uint32_t mc = c & F::kAbs;
    const bool inf_times_zero = (ma == F::kInf && mb == 0) || (ma == 0 && mb == F::kInf);
    if (ma > F::kInf || mb > F::kInf || mc > F::kInf) {
        // RISC-V raises invalid for inf*0 even when the addend is a quiet NaN.
        if (is_snan<F>(a) || is_snan<F>(b) || is_snan<F>(c) || inf_times_zero) flags |= kInvalid;
        return F::kNaN;
    }
    const bool sp = (a ^ b) & F::kSign;
    const bool sc = c & F::kSign;
    if (ma == F::kInf || mb == F::kInf) {
        if (inf_times_zero || (mc == F::kInf && sc != sp)) return invalid<F>(flags);
        return sign_bit<F>(sp) | F::kInf;
    }
    if (mc == F::kInf) return c;
    if (ma == 0 || mb == 0) return mc == 0 ? signed_zero_sum<F>(sp, sc, rm) : c;
    const Unpacked ua = unpack<F>(a);
    const Unpacked ub = unpack<F>(b);
    const uint64_t prod = ua.sig * ub.sig;
    if (mc == 0) return round_pack<F>(sp, ua.exp + ub.exp, prod, rm, flags);
    const Unpacked uc = unpack<F>(c);
    // Both terms get their leading bit at 61: the sum cannot overflow, and whenever alignment drops bits of
    // the smaller term (exponent gap >= 2) there is no deep cancellation, so jamming them is safe.
    const uint64_t p = prod << (61 - msb(prod));
    const int ep = ua.exp + ub.exp - (61 - msb(prod));
    const uint64_t q = uc.sig << (61 - msb(uc.sig));
    const int eq = uc.exp - (61 - msb(uc.sig));
    // Larger magnitude first, by selects: the order is data-dependent.
    const bool swap = ep < eq || (ep == eq && p < q);
    const uint64_t big = swap ? q : p;
    const int ebig = swap ? eq : ep;
    const uint64_t small = shift_right_jam(swap ? p : q, ebig - (swap ? ep : eq));
    const uint64_t sum = sp != sc ? big - small : big + small;
    if (sum == 0) return signed_zero_sum<F>(sp, sc, rm);
    return round_pack<F>(swap ? sc : sp, ebig, sum, rm, flags);
}

template <class F> uint32_t minmax(uint32_t a, uint32_t b, bool want_max, uint8_t& flags) {
    const bool na = is_nan<F>(a);
    const bool nb = is_nan<F>(b);
    if (is_snan<F>(a) || is_snan<F>(b)) flags |= kInvalid;
    if (na && nb) return F::kNaN;
    if (na) return b;
    if (nb) return a;
    const bool sa = a & F::kSign;
    const bool sb = b & F::kSign;
    // Ordered so that -0 < +0.
    const bool a_less = sa != sb ? sa : (sa ? (a & F::kAbs) > (b & F::kAbs) : (a & F::kAbs) < (b & F::kAbs));
    return a_less == want_max ? b : a;
}

template <class F> uint32_t compare_eq(uint32_t a, uint32_t b, uint8_t& flags) {
    if (is_nan<F>(a) || is_nan<F>(b)) {
        if (is_snan<F>(a) || is_snan<F>(b)) flags |= kInvalid;
        return 0;
    }
    return a == b || ((a | b) & F::kAbs) == 0;
}

template <class F> uint32_t compare_lt(uint32_t a, uint32_t b, bool or_equal, uint8_t& flags) {
    if (is_nan<F>(a) || is_nan<F>(b)) {
        flags |= kInvalid;
        return 0;
    }
    if (((a | b) & F::kAbs) == 0) return or_equal;
    const bool sa = a & F::kSign;
    const bool sb = b & F::kSign;
    if (sa != sb) return sa;
    if (a == b) return or_equal;
    return sa ? (a & F::kAbs) > (b & F::kAbs) : (a & F::kAbs) < (b & F::kAbs);
}

template <class F> uint32_t classify(uint32_t a) {
    const bool neg = a & F::kSign;
    const uint32_t m = a & F::kAbs;
    if (m > F::kInf) return (a & F::kQuiet) ? 1u << 9 : 1u << 8;
    if (m == F::kInf) return neg ? 1u << 0 : 1u << 7;
    if (m == 0) return neg ? 1u << 3 : 1u << 4;
    if (m < (1u << F::kMan)) return neg ? 1u << 2 : 1u << 5;
    return neg ? 1u << 1 : 1u << 6;
}

// Conversion to a `bits`-wide integer (32 or 16); the result is its two's complement pattern in 32 bits.
template <class F>
uint32_t to_integer(uint32_t a, bool is_signed, Rounding rm, uint8_t& flags, unsigned bits = 32) {
    const uint32_t m = a & F::kAbs;
    const bool neg = a & F::kSign;
    const uint32_t pos_limit = uint32_t(0xffffffffu >> (32 - bits + (is_signed ? 1 : 0)));
    const uint32_t neg_magnitude_limit = is_signed ? pos_limit + 1 : 0u;
    const uint32_t neg_limit = uint32_t(0) - neg_magnitude_limit;
    if (m > F::kInf) {
        flags |= kInvalid;
        return pos_limit;
    }
    if (m == 0) return 0;
    uint64_t mag = uint64_t(1) << 33; // anything out of range
    bool inexact = false;
    if (m != F::kInf) {
        const Unpacked u = unpack<F>(a);
        if (u.exp < 0) {
            const Rounded r = round_right(u.sig, -u.exp, neg, rm);
            mag = r.value;
            inexact = r.inexact;
        } else if (u.exp <= 32) {
            mag = u.sig << u.exp;
        }
    }
    // Saturation raises invalid alone, without inexact.
    if (neg) {
        if (mag > neg_magnitude_limit) {
            flags |= kInvalid;
            return neg_limit;
        }
    } else if (mag > pos_limit) {
        flags |= kInvalid;
        return pos_limit;
    }
    if (inexact) flags |= kInexact;
    return neg ? uint32_t(0) - uint32_t(mag) : uint32_t(mag);
}

template <class F> uint32_t from_integer(bool neg, uint32_t mag, Rounding rm, uint8_t& flags) {
    return mag == 0 ? 0 : round_pack<F>(neg, 0, mag, rm, flags);
}

template <class To, class From> uint32_t convert(uint32_t a, Rounding rm, uint8_t& flags) {
    const uint32_t m = a & From::kAbs;
    const bool neg = a & From::kSign;
    if (m > From::kInf) {
        if (is_snan<From>(a)) flags |= kInvalid;
        return To::kNaN;
    }
    if (m == From::kInf) return sign_bit<To>(neg) | To::kInf;
    if (m == 0) return sign_bit<To>(neg);
    const Unpacked u = unpack<From>(a);
    return round_pack<To>(neg, u.exp, u.sig, rm, flags);
}

// ---- Expanding dot product: two binary16 products and a binary32 addend, one rounding. ----

// GCC and Clang both provide 128-bit integers; the exact sum of the products needs about 82 bits.
using U128 = unsigned __int128;
using S128 = __int128;

constexpr int msb128(U128 x) {
    const uint64_t hi = uint64_t(x >> 64);
    return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(uint64_t(x));
}

constexpr U128 shift_right_jam128(U128 x, int n) {
    if (n <= 0) return x;
    if (n >= 127) return x != 0;
    return (x >> n) | U128((x & ((U128(1) << n) - 1)) != 0);
}

// A nonzero magnitude sig * 2^exp with its sign.
struct WideTerm {
    bool negative;
    int exp;
    U128 sig;
};

// The leading bit goes to bit 125: two such terms add without overflow.
constexpr WideTerm normalize125(WideTerm t) {
    const int shift = 125 - msb128(t.sig);
    return {t.negative, t.exp - shift, t.sig << shift};
}

uint32_t dotpex_impl(uint16_t a0, uint16_t b0, uint16_t a1, uint16_t b1, uint32_t c, Rounding rm,
                     uint8_t& flags) {
    auto inf_times_zero = [](uint16_t x, uint16_t y) {
        const uint32_t mx = x & F16::kAbs, my = y & F16::kAbs;
        return (mx == F16::kInf && my == 0) || (mx == 0 && my == F16::kInf);
    };
    const bool invalid_product = inf_times_zero(a0, b0) || inf_times_zero(a1, b1);
    const bool any_nan =
        is_nan<F16>(a0) || is_nan<F16>(b0) || is_nan<F16>(a1) || is_nan<F16>(b1) || is_nan<F32>(c);
    if (any_nan) {
        // As for fma: invalid for a signalling NaN, and for inf * 0 even next to a quiet NaN.
        if (is_snan<F16>(a0) || is_snan<F16>(b0) || is_snan<F16>(a1) || is_snan<F16>(b1) || is_snan<F32>(c) ||
            invalid_product)
            flags |= kInvalid;
        return F32::kNaN;
    }
    if (invalid_product) return invalid<F32>(flags);

    const bool s0 = (a0 ^ b0) & F16::kSign;
    const bool s1 = (a1 ^ b1) & F16::kSign;
    const bool sc = c & F32::kSign;
    const bool inf0 = (a0 & F16::kAbs) == F16::kInf || (b0 & F16::kAbs) == F16::kInf;
    const bool inf1 = (a1 & F16::kAbs) == F16::kInf || (b1 & F16::kAbs) == F16::kInf;
    const bool infc = (c & F32::kAbs) == F32::kInf;
    if (inf0 || inf1 || infc) {
        const bool has_pos = (inf0 && !s0) || (inf1 && !s1) || (infc && !sc);
        const bool has_neg = (inf0 && s0) || (inf1 && s1) || (infc && sc);
        if (has_pos && has_neg) return invalid<F32>(flags);
        return sign_bit<F32>(has_neg) | F32::kInf;
    }

    // Binary16 products are exact multiples of 2^-48 below 2^32: their sum fits a 128-bit integer.
    auto product = [](uint16_t x, uint16_t y) -> S128 {
        if ((x & F16::kAbs) == 0 || (y & F16::kAbs) == 0) return 0;
        const Unpacked ux = unpack<F16>(x);
        const Unpacked uy = unpack<F16>(y);
        const S128 magnitude = S128(ux.sig * uy.sig) << (ux.exp + uy.exp + 48);
        return ((x ^ y) & F16::kSign) ? -magnitude : magnitude;
    };
    const S128 products = product(a0, b0) + product(a1, b1);
    const bool c_zero = (c & F32::kAbs) == 0;
    if (products == 0) {
        // Exact zero products: the result is c itself, or a zero whose sign follows IEEE addition.
        if (!c_zero) return c;
        const bool all_negative = s0 && s1 && sc;
        const bool any_negative = s0 || s1 || sc;
        return sign_bit<F32>(rm == Rounding::Down ? any_negative : all_negative);
    }
    WideTerm big = normalize125({products < 0, -48, products < 0 ? U128(-products) : U128(products)});
    if (!c_zero) {
        const Unpacked uc = unpack<F32>(c);
        WideTerm small = normalize125({sc, uc.exp, uc.sig});
        if (small.exp > big.exp || (small.exp == big.exp && small.sig > big.sig)) std::swap(big, small);
        // The products span at most 81 bits and c 24, so alignment only drops bits when the exponents
        // differ by more than 40, and then there is no cancellation that could expose the sticky bit.
        const U128 aligned = shift_right_jam128(small.sig, big.exp - small.exp);
        const U128 sum = big.negative != small.negative ? big.sig - aligned : big.sig + aligned;
        if (sum == 0) return sign_bit<F32>(rm == Rounding::Down);
        big.sig = sum;
    }
    const int excess = msb128(big.sig) - 62;
    const uint64_t sig = uint64_t(excess > 0 ? shift_right_jam128(big.sig, excess) : big.sig);
    return round_pack<F32>(big.negative, big.exp + (excess > 0 ? excess : 0), sig, rm, flags);
}

// Host shortcuts for NearestEven binary32. They need IEEE host types evaluated without excess precision
// (not the case on x87).
constexpr bool kHostShortcuts =
    FLT_EVAL_METHOD == 0 && std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559;

constexpr uint32_t kAbs32 = F32::kAbs;
constexpr uint32_t kInf32 = F32::kInf;
constexpr uint32_t kMinNormal32 = 0x00800000u;
// An exact result below this magnitude is tiny after rounding to nearest even: it is the midpoint between
// 2^-126 and the largest 24-bit value under it, and that tie rounds up to 2^-126.
constexpr double kTinyBound = 0x1p-126 - 0x1p-151;

inline float as_float(uint32_t a) {
    return std::bit_cast<float>(a);
}
inline uint32_t as_bits(float f) {
    return std::bit_cast<uint32_t>(f);
}

// s is the correctly rounded a*b+c. The product of two binary32 values is exact in double, so TwoSum gives
// the exact value as ds + err.
inline uint32_t fma32_finish(float s, uint32_t a, uint32_t b, uint32_t c, uint8_t& flags) {
    const uint32_t bits = as_bits(s);
    // Inexact is sticky and usually already raised: then only underflow could still change, and a result of
    // at least 2^-125 is not tiny.
    if (fma32_rne_settled(bits, flags)) [[likely]]
        return bits;
    if ((bits & kAbs32) >= kInf32) [[unlikely]]
        return detail::soft_fma32(a, b, c, Rounding::NearestEven, flags);
    const double p = double(as_float(a)) * double(as_float(b));
    const double dc = as_float(c);
    const double ds = p + dc;
    const double bb = ds - p;
    const double err = (p - (ds - bb)) + (dc - bb);
    // No branches on the flags: inexactness is data-dependent and would mispredict.
    const uint8_t inexact = uint8_t((err != 0) | (double(s) != ds));
    const double mag = std::fabs(ds);
    if (mag == kTinyBound) [[unlikely]] // tininess would depend on the sign of err
        return detail::soft_fma32(a, b, c, Rounding::NearestEven, flags);
    flags |= inexact * (mag < kTinyBound ? kInexact | kUnderflow : kInexact);
    return bits;
}

#if !defined(__FMA__) && defined(__x86_64__)
#define PULPSIM_FMA_DISPATCH 1
// Built for a baseline x86 target: use FMA3 when the host has it, found at run time.
[[gnu::target("fma")]] uint32_t fma32_rne_fma3(uint32_t a, uint32_t b, uint32_t c, uint8_t& flags) {
    return fma32_finish(__builtin_fmaf(as_float(a), as_float(b), as_float(c)), a, b, c, flags);
}
#endif

// Out of line so that fma32 itself needs no stack frame on the FMA3 path.
[[gnu::noinline, maybe_unused]] uint32_t fma32_rne_libm(uint32_t a, uint32_t b, uint32_t c, uint8_t& flags) {
    return fma32_finish(std::fma(as_float(a), as_float(b), as_float(c)), a, b, c, flags);
}

} // namespace

namespace detail {
uint32_t soft_add32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    return soft_add<F32>(a, b, rm, flags);
}
uint32_t soft_mul32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    return soft_mul<F32>(a, b, rm, flags);
}
uint32_t soft_div32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    return soft_div<F32>(a, b, rm, flags);
}
uint32_t soft_sqrt32(uint32_t a, Rounding rm, uint8_t& flags) {
    return soft_sqrt<F32>(a, rm, flags);
}
uint32_t soft_fma32(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint8_t& flags) {
    return soft_fma<F32>(a, b, c, rm, flags);
}
} // namespace detail

uint32_t add32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    if (kHostShortcuts && rm == Rounding::NearestEven) [[likely]] {
        const float x = as_float(a);
        const float y = as_float(b);
        const float s = x + y;
        if ((as_bits(s) & kAbs32) < kInf32) [[likely]] {
            // A tiny sum is always exact, so inexact is the only possible flag. TwoSum yields the rounding
            // error exactly; should an intermediate overflow, the sum was inexact and err comes out NaN or
            // infinite, which still compares unequal to zero.
            const float bb = s - x;
            const float err = (x - (s - bb)) + (y - bb);
            flags |= uint8_t(err != 0.0f);
            return as_bits(s);
        }
    }
    return soft_add<F32>(a, b, rm, flags);
}

uint32_t sub32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    return add32(a, b ^ F32::kSign, rm, flags);
}

uint32_t mul32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    if (kHostShortcuts && rm == Rounding::NearestEven) [[likely]] {
        const double p = double(as_float(a)) * double(as_float(b)); // exact: 24x24-bit significands
        const float s = float(p);
        if ((as_bits(s) & kAbs32) < kInf32) [[likely]] {
            flags |= uint8_t(double(s) != p) * (std::fabs(p) < kTinyBound ? kInexact | kUnderflow : kInexact);
            return as_bits(s);
        }
    }
    return soft_mul<F32>(a, b, rm, flags);
}

uint32_t div32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
    if (kHostShortcuts && rm == Rounding::NearestEven) {
        const float x = as_float(a);
        const float y = as_float(b);
        const float q = x / y;
        // Normal results above 2^-126 cannot be tiny; the rest take the exact path.
        if ((as_bits(q) & kAbs32) - (kMinNormal32 + 1) < kInf32 - (kMinNormal32 + 1)) {
            flags |= uint8_t(double(q) * double(y) != double(x));
            return as_bits(q);
        }
    }
    return soft_div<F32>(a, b, rm, flags);
}

uint32_t sqrt32(uint32_t a, Rounding rm, uint8_t& flags) {
    if (kHostShortcuts && rm == Rounding::NearestEven && a - 1 < kInf32 - 1) { // positive, nonzero, finite
        const float r = std::sqrt(as_float(a));
        flags |= uint8_t(double(r) * double(r) != double(as_float(a)));
        return as_bits(r);
    }
    return soft_sqrt<F32>(a, rm, flags);
}

uint32_t fma32(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint8_t& flags) {
    if (kHostShortcuts && rm == Rounding::NearestEven) [[likely]] {
#if defined(__FMA__)
        return fma32_finish(__builtin_fmaf(as_float(a), as_float(b), as_float(c)), a, b, c, flags);
#elif defined(PULPSIM_FMA_DISPATCH)
        return __builtin_cpu_supports("fma") ? fma32_rne_fma3(a, b, c, flags)
                                             : fma32_rne_libm(a, b, c, flags);
#else
        return fma32_rne_libm(a, b, c, flags);
#endif
    }
    return soft_fma<F32>(a, b, c, rm, flags);
}

uint32_t min32(uint32_t a, uint32_t b, uint8_t& flags) {
    return minmax<F32>(a, b, false, flags);
}
uint32_t max32(uint32_t a, uint32_t b, uint8_t& flags) {
    return minmax<F32>(a, b, true, flags);
}
uint32_t eq32(uint32_t a, uint32_t b, uint8_t& flags) {
    return compare_eq<F32>(a, b, flags);
}
uint32_t lt32(uint32_t a, uint32_t b, uint8_t& flags) {
    return compare_lt<F32>(a, b, false, flags);
}
uint32_t le32(uint32_t a, uint32_t b, uint8_t& flags) {
    return compare_lt<F32>(a, b, true, flags);
}
uint32_t classify32(uint32_t a) {
    return classify<F32>(a);
}

int32_t to_int32(uint32_t a, Rounding rm, uint8_t& flags) {
    return int32_t(to_integer<F32>(a, true, rm, flags));
}
uint32_t to_uint32(uint32_t a, Rounding rm, uint8_t& flags) {
    return to_integer<F32>(a, false, rm, flags);
}

uint32_t from_int32(int32_t v, Rounding rm, uint8_t& flags) {
    return from_integer<F32>(v < 0, v < 0 ? 0u - uint32_t(v) : uint32_t(v), rm, flags);
}
uint32_t from_uint32(uint32_t v, Rounding rm, uint8_t& flags) {
    return from_integer<F32>(false, v, rm, flags);
}

uint16_t add16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags) {
    return uint16_t(soft_add<F16>(a, b, rm, flags));
}
uint16_t sub16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags) {
    return uint16_t(soft_add<F16>(a, b ^ F16::kSign, rm, flags));
}
uint16_t mul16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags) {
    return uint16_t(soft_mul<F16>(a, b, rm, flags));
}
uint16_t div16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags) {
    return uint16_t(soft_div<F16>(a, b, rm, flags));
}
uint16_t sqrt16(uint16_t a, Rounding rm, uint8_t& flags) {
    return uint16_t(soft_sqrt<F16>(a, rm, flags));
}
uint16_t fma16(uint16_t a, uint16_t b, uint16_t c, Rounding rm, uint8_t& flags) {
    return uint16_t(soft_fma<F16>(a, b, c, rm, flags));
}
uint16_t min16(uint16_t a, uint16_t b, uint8_t& flags) {
    return uint16_t(minmax<F16>(a, b, false, flags));
}
uint16_t max16(uint16_t a, uint16_t b, uint8_t& flags) {
    return uint16_t(minmax<F16>(a, b, true, flags));
}
uint32_t eq16(uint16_t a, uint16_t b, uint8_t& flags) {
    return compare_eq<F16>(a, b, flags);
}
uint32_t lt16(uint16_t a, uint16_t b, uint8_t& flags) {
    return compare_lt<F16>(a, b, false, flags);
}
uint32_t le16(uint16_t a, uint16_t b, uint8_t& flags) {
    return compare_lt<F16>(a, b, true, flags);
}
uint32_t classify16(uint16_t a) {
    return classify<F16>(a);
}

int32_t to_int32_from16(uint16_t a, Rounding rm, uint8_t& flags) {
    return int32_t(to_integer<F16>(a, true, rm, flags));
}
uint32_t to_uint32_from16(uint16_t a, Rounding rm, uint8_t& flags) {
    return to_integer<F16>(a, false, rm, flags);
}

uint16_t from_int32_to16(int32_t v, Rounding rm, uint8_t& flags) {
    return uint16_t(from_integer<F16>(v < 0, v < 0 ? 0u - uint32_t(v) : uint32_t(v), rm, flags));
}
uint16_t from_uint32_to16(uint32_t v, Rounding rm, uint8_t& flags) {
    return uint16_t(from_integer<F16>(false, v, rm, flags));
}

uint32_t f16_to_f32(uint16_t a, uint8_t& flags) {
    return convert<F32, F16>(a, Rounding::NearestEven, flags);
}
uint16_t f32_to_f16(uint32_t a, Rounding rm, uint8_t& flags) {
    return uint16_t(convert<F16, F32>(a, rm, flags));
}

uint16_t to_int16_from16(uint16_t a, Rounding rm, uint8_t& flags) {
    return uint16_t(to_integer<F16>(a, true, rm, flags, 16));
}
uint16_t to_uint16_from16(uint16_t a, Rounding rm, uint8_t& flags) {
    return uint16_t(to_integer<F16>(a, false, rm, flags, 16));
}

uint32_t dotpex16_to32(uint16_t a0, uint16_t b0, uint16_t a1, uint16_t b1, uint32_t c, Rounding rm,
                       uint8_t& flags) {
    return dotpex_impl(a0, b0, a1, b1, c, rm, flags);
}

} // namespace pulpsim::fp
