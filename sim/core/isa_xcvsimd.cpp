// CORE-V packed SIMD (xcvsimd, opcode 0x7B): 16-bit (.h) and 8-bit (.b) lanes, with the second operand a
// vector (rs2), a scalar replicated to every lane (.sc: the low lane of rs2) or a replicated 6-bit
// immediate (.sci).
//
// Encoding: funct5 (bits 31:27), F (bit 26), bit 25, funct3. For most operations funct3 selects the flavour
// (000 .h, 001 .b, 100 .sc.h, 101 .sc.b, 110 .sci.h, 111 .sci.b); in the immediate forms bits 25:20 hold
// Imm6[0], Imm6[5:1]. The complex-number group (F = 1, funct5 01010..01110) uses funct3 for the divisor.
#include <array>
#include <functional>

#include "core/decoder.hpp"

namespace pulpsim::isa {
namespace {

using S = int32_t;
using U = uint32_t;

template <unsigned W> constexpr U kMask = (1u << W) - 1; // W is 8 or 16
template <unsigned W> constexpr S sext(U v) {
    return static_cast<S>(v << (32 - W)) >> (32 - W);
}
// The low lane of x copied to every lane.
template <unsigned W> constexpr U splat(U x) {
    return W == 16 ? (x & 0xffff) * 0x10001u : (x & 0xff) * 0x01010101u;
}

enum Mode : uint8_t { kVV, kSC, kSCI };

// Properties the decoder needs; operations override them.
struct OpBase {
    static constexpr bool kZext = false;  // .sci immediate zero-extended (sign-extended otherwise)
    static constexpr bool kAcc = false;   // reads rD (accumulation or partial update)
    static constexpr bool kUnary = false; // the rs2 field must be zero
    // .sci: the immediates CV32E40P's decoder accepts are those below this (others are illegal).
    template <unsigned W> static constexpr unsigned kImmLimit = 64;
    // .sci: the rs2 field, which holds immediate bits, is still read (CV32E40P's regb_used_o).
    static constexpr bool kReadsRs2Field = false;
    // ... and the APU dispatcher compares it with the FP results in flight (its ALU operand b select is
    // regb): it waits for those too, not only for a load.
    static constexpr bool kApuChecksRs2Field = false;
    static constexpr InsnClass kCls = InsnClass::Alu;
};

// Every handler: rD = Op::vec<W>(rs1, op2, rD), with op2 already replicated for .sc/.sci (the .sci vector is
// built at decode time and kept in imm).
template <typename Op, unsigned W, Mode M> void simd(Hart& h, const DecodedInsn& d) {
    const U b = M == kVV ? h.x_[d.rs2] : M == kSC ? splat<W>(h.x_[d.rs2]) : static_cast<U>(d.imm);
    h.x_[d.rd] = Op::template vec<W>(h.x_[d.rs1], b, h.x_[d.rd]);
}
// The immediate forms whose rs2 field (kept in rs3) waits for a load but not for an FP result: the
// scoreboard has no source of that kind, so the wait is taken here, before the instruction reads anything.
template <typename Op, unsigned W> void simd_field_waits_for_load(Hart& h, const DecodedInsn& d) {
    h.wait_for_non_fp_result(d.rs3);
    simd<Op, W, kSCI>(h, d);
}

// Applies F::lane to each pair of lanes (passed zero-extended); the result is truncated to the lane.
template <typename F> struct Lanewise : OpBase {
    template <unsigned W> static U vec(U a, U b, U) {
        U r = 0;
        for (unsigned s = 0; s < 32; s += W)
            r |= (F::template lane<W>((a >> s) & kMask<W>, (b >> s) & kMask<W>) & kMask<W>) << s;
        return r;
    }
};

// ---- ALU ----
struct Add : Lanewise<Add> {
    template <unsigned W> static U lane(U a, U b) { return a + b; }
};
struct Sub : Lanewise<Sub> {
    template <unsigned W> static U lane(U a, U b) { return a - b; }
};
// The sum is truncated to the lane before the shift, so the carry out is lost.
struct Avg : Lanewise<Avg> {
    template <unsigned W> static U lane(U a, U b) { return static_cast<U>(sext<W>(a + b) >> 1); }
};
struct Avgu : Lanewise<Avgu> {
    static constexpr bool kZext = true;
    template <unsigned W> static U lane(U a, U b) { return ((a + b) & kMask<W>) >> 1; }
};
struct Min : Lanewise<Min> {
    template <unsigned W> static U lane(U a, U b) { return sext<W>(a) < sext<W>(b) ? a : b; }
};
struct Minu : Lanewise<Minu> {
    static constexpr bool kZext = true;
    template <unsigned W> static U lane(U a, U b) { return a < b ? a : b; }
};
struct Max : Lanewise<Max> {
    template <unsigned W> static U lane(U a, U b) { return sext<W>(a) > sext<W>(b) ? a : b; }
};
struct Maxu : Lanewise<Maxu> {
    static constexpr bool kZext = true;
    template <unsigned W> static U lane(U a, U b) { return a > b ? a : b; }
};
// Shift amounts use the low log2(W) bits of each lane.
struct Srl : Lanewise<Srl> {
    static constexpr bool kZext = true;
    template <unsigned W> static constexpr unsigned kImmLimit = W; // a shift by the lane width or more
    template <unsigned W> static U lane(U a, U b) { return a >> (b & (W - 1)); }
};
struct Sra : Lanewise<Sra> {
    static constexpr bool kZext = true;
    template <unsigned W> static constexpr unsigned kImmLimit = W; // a shift by the lane width or more
    template <unsigned W> static U lane(U a, U b) { return static_cast<U>(sext<W>(a) >> (b & (W - 1))); }
};
struct Sll : Lanewise<Sll> {
    static constexpr bool kZext = true;
    template <unsigned W> static constexpr unsigned kImmLimit = W; // a shift by the lane width or more
    template <unsigned W> static U lane(U a, U b) { return a << (b & (W - 1)); }
};
struct Or : Lanewise<Or> {
    template <unsigned W> static U lane(U a, U b) { return a | b; }
};
struct Xor : Lanewise<Xor> {
    template <unsigned W> static U lane(U a, U b) { return a ^ b; }
};
struct And : Lanewise<And> {
    template <unsigned W> static U lane(U a, U b) { return a & b; }
};
struct Abs : Lanewise<Abs> {
    static constexpr bool kUnary = true;
    template <unsigned W> static U lane(U a, U) { return sext<W>(a) < 0 ? 0u - a : a; }
};

// ---- comparisons: all-ones lane when true ----
// Rel compares uint32_t values; signed lanes are sign-extended with bit 31 flipped first, which maps signed
// order onto unsigned order.
template <typename Rel, bool Unsigned = false> struct Cmp : Lanewise<Cmp<Rel, Unsigned>> {
    static constexpr bool kZext = Unsigned;
    template <unsigned W> static U lane(U a, U b) {
        if (!Unsigned) {
            a = static_cast<U>(sext<W>(a)) ^ 0x80000000u;
            b = static_cast<U>(sext<W>(b)) ^ 0x80000000u;
        }
        return Rel{}(a, b) ? ~0u : 0u;
    }
};

// ---- bit manipulation (immediate lane index in the low bits of the .sci vector) ----
template <bool Signed> struct Extract : OpBase {
    static constexpr bool kZext = true;
    template <unsigned W> static constexpr unsigned kImmLimit = 32 / W; // a lane index
    static constexpr bool kReadsRs2Field = true, kApuChecksRs2Field = true;
    template <unsigned W> static U vec(U a, U imm, U) {
        const U v = (a >> ((imm & (32 / W - 1)) * W)) & kMask<W>;
        return Signed ? static_cast<U>(sext<W>(v)) : v;
    }
};
struct Insert : OpBase {
    static constexpr bool kZext = true, kAcc = true;
    template <unsigned W> static constexpr unsigned kImmLimit = 32 / W;
    static constexpr bool kReadsRs2Field = true;
    template <unsigned W> static U vec(U a, U imm, U c) {
        const unsigned s = (imm & (32 / W - 1)) * W;
        return (c & ~(kMask<W> << s)) | ((a & kMask<W>) << s);
    }
};

// ---- dot products: rD = [rD +] sum of lane products, modulo 2^32 ----
template <bool SignedA, bool SignedB, bool Acc> struct Dot : OpBase {
    static constexpr bool kZext = !SignedB, kAcc = Acc;
    static constexpr InsnClass kCls = InsnClass::Mul;
    template <bool Signed, unsigned W> static int64_t ext(U v) {
        return Signed ? int64_t{sext<W>(v & kMask<W>)} : int64_t{v & kMask<W>};
    }
    template <unsigned W> static U vec(U a, U b, U c) {
        U sum = Acc ? c : 0;
        for (unsigned s = 0; s < 32; s += W)
            sum += static_cast<U>(ext<SignedA, W>(a >> s) * ext<SignedB, W>(b >> s));
        return sum;
    }
};

// ---- shuffle and pack ----
// Lane i of the result is lane sel[i] (low bits of lane i of the selector) of rs1.
struct Shuffle : OpBase {
    static constexpr bool kZext = true;
    template <unsigned W> static U vec(U a, U sel, U) {
        U r = 0;
        for (unsigned s = 0; s < 32; s += W)
            r |= ((a >> (((sel >> s) & (32 / W - 1)) * W)) & kMask<W>) << s;
        return r;
    }
};
// cv.shuffle.sci.h: selectors I1 (upper lane) and I0 (lower lane).
struct ShuffleImmH : Shuffle {
    template <unsigned W> static constexpr unsigned kImmLimit = 4; // a lane bit for each of the two
    static constexpr bool kReadsRs2Field = true;
    template <unsigned W> static U vec(U a, U imm, U c) {
        return Shuffle::vec<16>(a, (((imm >> 1) & 1) << 16) | (imm & 1), c);
    }
};
// cv.shuffleIK.sci.b: lane 3 from byte K, lanes 2..0 from I5:I4, I3:I2, I1:I0.
template <unsigned K> struct ShuffleImmB : Shuffle {
    static constexpr bool kReadsRs2Field = true;
    template <unsigned W> static U vec(U a, U imm, U c) {
        const U sel = (K << 24) | (((imm >> 4) & 3) << 16) | (((imm >> 2) & 3) << 8) | (imm & 3);
        return Shuffle::vec<8>(a, sel, c);
    }
};
// Like Shuffle, but the selector bit above the index picks rs1 (1) or rD (0) as the source.
struct Shuffle2 : OpBase {
    static constexpr bool kAcc = true;
    template <unsigned W> static U vec(U a, U sel, U c) {
        constexpr unsigned n = 32 / W;
        U r = 0;
        for (unsigned s = 0; s < 32; s += W) {
            const U lsel = sel >> s;
            r |= (((lsel & n ? a : c) >> ((lsel & (n - 1)) * W)) & kMask<W>) << s;
        }
        return r;
    }
};
struct Pack : OpBase {
    template <unsigned> static U vec(U a, U b, U) { return (a << 16) | (b & 0xffff); }
};
struct PackH : OpBase {
    template <unsigned> static U vec(U a, U b, U) { return (a & 0xffff0000u) | (b >> 16); }
};
struct PackHi : OpBase {
    static constexpr bool kAcc = true;
    template <unsigned> static U vec(U a, U b, U c) {
        return (c & 0xffff) | ((a & 0xff) << 24) | ((b & 0xff) << 16);
    }
};
struct PackLo : OpBase {
    static constexpr bool kAcc = true;
    template <unsigned> static U vec(U a, U b, U c) {
        return (c & 0xffff0000u) | ((a & 0xff) << 8) | (b & 0xff);
    }
};

// ---- complex numbers: {Im = [31:16], Re = [15:0]}, signed 16-bit parts ----
inline S re(U x) {
    return sext<16>(x);
}
inline S im(U x) {
    return static_cast<S>(x) >> 16;
}
inline U pack16(U hi, U lo) {
    return (hi << 16) | (lo & 0xffff);
}

// Real or imaginary part of rs1 * rs2 >> (15 + Div); the other half of rD is kept.
template <bool Imag, unsigned Div> struct CplxMul : OpBase {
    static constexpr bool kAcc = true;
    static constexpr InsnClass kCls = InsnClass::Mul;
    template <unsigned> static U vec(U a, U b, U c) {
        const int64_t p = Imag ? int64_t{re(a)} * im(b) + int64_t{im(a)} * re(b)
                               : int64_t{re(a)} * re(b) - int64_t{im(a)} * im(b);
        const U v = static_cast<U>(p >> (15 + Div));
        return Imag ? pack16(v, c) : pack16(c >> 16, v);
    }
};
struct CplxConj : OpBase {
    static constexpr bool kUnary = true;
    template <unsigned> static U vec(U a, U, U) { return pack16(0u - (a >> 16), a); }
};
// (rs1 - rs2) * -j = {Im: Re(rs2 - rs1), Re: Im(rs1 - rs2)}, each truncated to 16 bits then >> Div.
template <unsigned Div> struct SubRotMj : OpBase {
    template <unsigned> static U vec(U a, U b, U) {
        return pack16(static_cast<U>(sext<16>(b - a) >> Div),
                      static_cast<U>(sext<16>((a >> 16) - (b >> 16)) >> Div));
    }
};
template <unsigned Div> struct AddDiv : Lanewise<AddDiv<Div>> {
    template <unsigned W> static U lane(U a, U b) { return static_cast<U>(sext<W>(a + b) >> Div); }
};
template <unsigned Div> struct SubDiv : Lanewise<SubDiv<Div>> {
    template <unsigned W> static U lane(U a, U b) { return static_cast<U>(sext<W>(a - b) >> Div); }
};

// ---- decode table, indexed by [F][funct5][bit 25][funct3] ----
struct Slot {
    ExecFn fn = nullptr;
    uint8_t width = 16;
    bool imm = false, zext = false, acc = false, unary = false;
    InsnClass cls = InsnClass::Alu;
    uint8_t imm_limit = 64; // Op::kImmLimit
    bool reads_rs2_field = false, apu_checks_rs2_field = false;
};
using Table = std::array<Slot, 2 * 32 * 2 * 8>;

constexpr unsigned index(unsigned f, unsigned funct5, unsigned b25, unsigned f3) {
    return ((f * 32 + funct5) * 2 + b25) * 8 + f3;
}
// Registers the W-bit, mode-M flavour of Op. Immediate forms own bit 25 (an immediate bit).
template <typename Op, unsigned W, Mode M>
constexpr void put(Table& t, unsigned f, unsigned funct5, unsigned f3, unsigned b25 = 0) {
    Slot s{simd<Op, W, M>, W, M == kSCI, Op::kZext, Op::kAcc, Op::kUnary, Op::kCls};
    s.imm_limit = Op::template kImmLimit<W>;
    s.reads_rs2_field = Op::kReadsRs2Field;
    s.apu_checks_rs2_field = Op::kApuChecksRs2Field;
    if constexpr (M == kSCI && Op::kReadsRs2Field && !Op::kApuChecksRs2Field)
        s.fn = simd_field_waits_for_load<Op, W>;
    if (M == kSCI) {
        t[index(f, funct5, 0, f3)] = s;
        t[index(f, funct5, 1, f3)] = s;
    } else {
        t[index(f, funct5, b25, f3)] = s;
    }
}
// The six flavours .h, .b, .sc.h, .sc.b, .sci.h, .sci.b.
template <typename Op> constexpr void put6(Table& t, unsigned f, unsigned funct5) {
    put<Op, 16, kVV>(t, f, funct5, 0);
    put<Op, 8, kVV>(t, f, funct5, 1);
    put<Op, 16, kSC>(t, f, funct5, 4);
    put<Op, 8, kSC>(t, f, funct5, 5);
    put<Op, 16, kSCI>(t, f, funct5, 6);
    put<Op, 8, kSCI>(t, f, funct5, 7);
}
// Complex-number forms: funct3 = 2 * Div.
template <template <unsigned> class Op>
constexpr void put_div(Table& t, unsigned funct5, bool plain, unsigned b25 = 0) {
    if (plain) put<Op<0>, 16, kVV>(t, 1, funct5, 0, b25);
    put<Op<1>, 16, kVV>(t, 1, funct5, 2, b25);
    put<Op<2>, 16, kVV>(t, 1, funct5, 4, b25);
    put<Op<3>, 16, kVV>(t, 1, funct5, 6, b25);
}
template <unsigned Div> using CplxMulR = CplxMul<false, Div>;
template <unsigned Div> using CplxMulI = CplxMul<true, Div>;

constexpr Table make_table() {
    Table t{};
    // F = 0: ALU.
    put6<Add>(t, 0, 0x00);
    put6<Sub>(t, 0, 0x01);
    put6<Avg>(t, 0, 0x02);
    put6<Avgu>(t, 0, 0x03);
    put6<Min>(t, 0, 0x04);
    put6<Minu>(t, 0, 0x05);
    put6<Max>(t, 0, 0x06);
    put6<Maxu>(t, 0, 0x07);
    put6<Srl>(t, 0, 0x08);
    put6<Sra>(t, 0, 0x09);
    put6<Sll>(t, 0, 0x0a);
    put6<Or>(t, 0, 0x0b);
    put6<Xor>(t, 0, 0x0c);
    put6<And>(t, 0, 0x0d);
    put<Abs, 16, kVV>(t, 0, 0x0e, 0);
    put<Abs, 8, kVV>(t, 0, 0x0e, 1);
    // Dot products.
    put6<Dot<false, false, false>>(t, 0, 0x10); // dotup
    put6<Dot<false, true, false>>(t, 0, 0x11);  // dotusp
    put6<Dot<true, true, false>>(t, 0, 0x12);   // dotsp
    put6<Dot<false, false, true>>(t, 0, 0x13);  // sdotup
    put6<Dot<false, true, true>>(t, 0, 0x14);   // sdotusp
    put6<Dot<true, true, true>>(t, 0, 0x15);    // sdotsp
    // Extract / insert: always an immediate, funct3 selects the operation.
    put<Extract<true>, 16, kSCI>(t, 0, 0x17, 0);
    put<Extract<true>, 8, kSCI>(t, 0, 0x17, 1);
    put<Extract<false>, 16, kSCI>(t, 0, 0x17, 2);
    put<Extract<false>, 8, kSCI>(t, 0, 0x17, 3);
    put<Insert, 16, kSCI>(t, 0, 0x17, 4);
    put<Insert, 8, kSCI>(t, 0, 0x17, 5);
    // Shuffle and pack.
    put<Shuffle, 16, kVV>(t, 0, 0x18, 0);
    put<Shuffle, 8, kVV>(t, 0, 0x18, 1);
    put<ShuffleImmH, 16, kSCI>(t, 0, 0x18, 6);
    put<ShuffleImmB<0>, 8, kSCI>(t, 0, 0x18, 7);
    put<ShuffleImmB<1>, 8, kSCI>(t, 0, 0x19, 7);
    put<ShuffleImmB<2>, 8, kSCI>(t, 0, 0x1a, 7);
    put<ShuffleImmB<3>, 8, kSCI>(t, 0, 0x1b, 7);
    put<Shuffle2, 16, kVV>(t, 0, 0x1c, 0);
    put<Shuffle2, 8, kVV>(t, 0, 0x1c, 1);
    put<Pack, 16, kVV>(t, 0, 0x1e, 0, 0);
    put<PackH, 16, kVV>(t, 0, 0x1e, 0, 1);
    put<PackLo, 8, kVV>(t, 0, 0x1f, 1, 0);
    put<PackHi, 8, kVV>(t, 0, 0x1f, 1, 1);
    // F = 1: comparisons.
    put6<Cmp<std::equal_to<U>>>(t, 1, 0x00);
    put6<Cmp<std::not_equal_to<U>>>(t, 1, 0x01);
    put6<Cmp<std::greater<U>>>(t, 1, 0x02);
    put6<Cmp<std::greater_equal<U>>>(t, 1, 0x03);
    put6<Cmp<std::less<U>>>(t, 1, 0x04);
    put6<Cmp<std::less_equal<U>>>(t, 1, 0x05);
    put6<Cmp<std::greater<U>, true>>(t, 1, 0x06);
    put6<Cmp<std::greater_equal<U>, true>>(t, 1, 0x07);
    put6<Cmp<std::less<U>, true>>(t, 1, 0x08);
    put6<Cmp<std::less_equal<U>, true>>(t, 1, 0x09);
    // Complex numbers (half-words, registers only).
    put_div<CplxMulR>(t, 0x0a, true, 0);
    put_div<CplxMulI>(t, 0x0a, true, 1);
    put<CplxConj, 16, kVV>(t, 1, 0x0b, 0);
    put_div<SubRotMj>(t, 0x0c, true);
    put_div<AddDiv>(t, 0x0d, false);
    put_div<SubDiv>(t, 0x0e, false);
    return t;
}
constexpr Table kTable = make_table();

} // namespace

bool decode_xcvsimd(uint32_t raw, DecodedInsn& d) {
    const unsigned f3 = funct3(raw);
    const unsigned b25 = (raw >> 25) & 1;
    const Slot& s = kTable[index((raw >> 26) & 1, raw >> 27, b25, f3)];
    if (!s.fn) return false;
    if (s.unary && rs2(raw) != 0) return false;
    shape_r(d, raw, s.fn, s.cls);
    if (s.imm) {
        const U imm6 = b25 | (((raw >> 20) & 31) << 1);
        if (imm6 >= s.imm_limit) return false;
        const U v = s.zext ? imm6 : static_cast<U>(static_cast<S>(imm6 << 26) >> 26);
        d.imm = static_cast<S>(s.width == 16 ? splat<16>(v) : splat<8>(v));
        d.rs2 = 0;
        // CV32E40P's decoder keeps rs2 in use (regb_used_o) for extract and insert, whose funct3 is a
        // register form's, and for the shuffles: the rs2 field (x1 for a .b lane index of 2 or 3) waits for a
        // load as a source would. For extract the APU's read check compares it with the FP results in flight
        // too, and it is a source; insert and the shuffles (whose ALU operand b is rd or the immediate) wait
        // in their handler for its register's result unless an FP operation writes it, which only FPU
        // latencies of 1 or more can show.
        d.src[1] = s.reads_rs2_field && s.apu_checks_rs2_field ? xsrc(rs2(raw)) : kZeroSlot;
        if (s.reads_rs2_field && !s.apu_checks_rs2_field) d.rs3 = static_cast<uint8_t>(rs2(raw));
    }
    if (s.unary) d.src[1] = kZeroSlot;
    if (s.acc) d.src[2] = xsrc(d.rd);
    return true;
}

} // namespace pulpsim::isa
