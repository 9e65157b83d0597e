// CORE-V Xpulp scalar extensions: xcvmem, xcvelw, xcvbi, xcvalu, xcvbitmanip, xcvmac.
// The packed-SIMD extension (xcvsimd) is decoded in isa_xcvsimd.cpp.
//
// Opcode map: custom-0 (0x0B) immediate post-increment loads, cv.elw and the immediate branches;
// custom-1 (0x2B) immediate post-increment stores (funct3 000..010) and the register forms (funct3 011,
// selected by funct7); funct3 100 is the hardware loops (isa_xcvhwlp.cpp); custom-2 (0x5B) the forms with
// 5-bit immediates (bit manipulation, add/sub with normalisation, 16x16 multiply and multiply-accumulate).
#include <algorithm>
#include <array>
#include <bit>
#include <type_traits>

#include "core/decoder.hpp"

namespace pulpsim::isa {

namespace {

using S = int32_t;
using U = uint32_t;

#define X(r) h.x_[r]

// ---- xcvmem, xcvelw ----

template <typename T> U load_ext(Hart& h, U addr) {
    return static_cast<U>(static_cast<std::conditional_t<std::is_signed_v<T>, S, U>>(h.load_insn<T>(addr)));
}

// Addressing: base + offset (no write-back), or base with base += offset afterwards.
// The offset is the immediate or a register: rs2 for loads, rs3 (the rd field) for stores.
enum Addr : uint8_t { kPostImm, kPostReg, kRegReg };

template <typename T, Addr A> void cv_load(Hart& h, const DecodedInsn& d) {
    const U base = X(d.rs1);
    const U off = A == kPostImm ? static_cast<U>(d.imm) : X(d.rs2);
    const U v = load_ext<T>(h, A == kRegReg ? base + off : base);
    // Write-back after the access (a faulting load changes nothing); rd last, so it wins when rd == rs1.
    if (A != kRegReg) {
        X(d.rs1) = base + off;
        h.last_post_inc_ex_end_ = h.last_access_ex_end_; // the base is written through the ALU port
    }
    X(d.rd) = v;
}
template <typename T, Addr A> void cv_store(Hart& h, const DecodedInsn& d) {
    const U base = X(d.rs1);
    const U off = A == kPostImm ? static_cast<U>(d.imm) : X(d.rs3);
    const U addr = A == kRegReg ? base + off : base;
    h.store_insn<T>(addr, static_cast<T>(X(d.rs2)));
    if (A != kRegReg) {
        X(d.rs1) = base + off;
        h.last_post_inc_ex_end_ = h.last_access_ex_end_;
    }
}
// Event load: a plain load word on a core without an event unit; it occupies the pipeline for 4 cycles.
void cv_elw(Hart& h, const DecodedInsn& d) {
    const U v = load_ext<U>(h, X(d.rs1) + static_cast<U>(d.imm));
    h.add_stall(StallKind::MultiCycle, 3);
    X(d.rd) = v;
}

// ---- xcvbi ----

// aux holds the sign-extended 5-bit immediate.
template <bool Eq> void branch_imm(Hart& h, const DecodedInsn& d) {
    const U imm5 = static_cast<U>(static_cast<S>(static_cast<int8_t>(d.aux)));
    if ((X(d.rs1) == imm5) == Eq) {
        ++h.stats_.branches_taken;
        h.branch_to(h.pc_ + static_cast<U>(d.imm));
    }
}

// ---- xcvalu ----

void cv_abs(Hart& h, const DecodedInsn& d) {
    const U a = X(d.rs1);
    X(d.rd) = static_cast<S>(a) < 0 ? 0u - a : a;
}
// cv.slet / cv.sletu are the manual's cv.sle / cv.sleu (rs1 <= rs2).
void cv_slet(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<S>(X(d.rs1)) <= static_cast<S>(X(d.rs2));
}
void cv_sletu(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) <= X(d.rs2);
}
void cv_min(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(std::min(static_cast<S>(X(d.rs1)), static_cast<S>(X(d.rs2))));
}
void cv_minu(Hart& h, const DecodedInsn& d) {
    X(d.rd) = std::min(X(d.rs1), X(d.rs2));
}
void cv_max(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(std::max(static_cast<S>(X(d.rs1)), static_cast<S>(X(d.rs2))));
}
void cv_maxu(Hart& h, const DecodedInsn& d) {
    X(d.rd) = std::max(X(d.rs1), X(d.rs2));
}
void cv_exths(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(static_cast<int16_t>(X(d.rs1)));
}
void cv_exthz(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<uint16_t>(X(d.rs1));
}
void cv_extbs(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(static_cast<int8_t>(X(d.rs1)));
}
void cv_extbz(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<uint8_t>(X(d.rs1));
}

// Clips rs1 to [lo, hi]: hi = 2^(Is2-1)-1 (precomputed in imm; 0 when Is2 = 0) or rs2 & 0x7FFFFFFF, and
// lo = -(hi+1) = ~hi for the signed forms, 0 for the unsigned ones.
template <bool Unsigned, bool Reg> void cv_clip(Hart& h, const DecodedInsn& d) {
    const S a = static_cast<S>(X(d.rs1));
    const S hi = Reg ? static_cast<S>(X(d.rs2) & 0x7fffffffu) : d.imm;
    const S lo = Unsigned ? 0 : ~hi;
    X(d.rd) = static_cast<U>(a <= lo ? lo : a >= hi ? hi : a);
}

// (a +/- b [+ 2^(n-1)]) >> n in 32-bit arithmetic. Immediate forms: a = rs1, b = rs2, n = Is3;
// register forms: a = rD, b = rs1, n = rs2[4:0].
template <bool Sub, bool Unsigned, bool Round, bool Reg> void cv_addn(Hart& h, const DecodedInsn& d) {
    const U a = Reg ? X(d.rd) : X(d.rs1);
    const U b = Reg ? X(d.rs1) : X(d.rs2);
    const unsigned n = Reg ? X(d.rs2) & 31 : static_cast<unsigned>(d.imm);
    U r = Sub ? a - b : a + b;
    if (Round && n) r += 1u << (n - 1);
    X(d.rd) = Unsigned ? r >> n : static_cast<U>(static_cast<S>(r) >> n);
}

// ---- xcvbitmanip ----

// Field parameters: Is3 (length - 1) in bits 9:5, Is2 (position) in bits 4:0, from rs2 or the immediate.
template <bool Reg> inline void field(const Hart& h, const DecodedInsn& d, unsigned& len1, unsigned& pos) {
    const U p = Reg ? h.x_[d.rs2] : static_cast<U>(d.imm);
    len1 = (p >> 5) & 31;
    pos = p & 31;
}
// Bits [min(len1 + pos, 31) : pos].
inline U field_mask(unsigned len1, unsigned pos) {
    const unsigned top = std::min(len1 + pos, 31u);
    return (~0u >> (31 - top)) & (~0u << pos);
}
template <bool Signed, bool Reg> void cv_extract(Hart& h, const DecodedInsn& d) {
    unsigned len1, pos;
    field<Reg>(h, d, len1, pos);
    const unsigned top = std::min(len1 + pos, 31u);
    const U up = X(d.rs1) << (31 - top); // field MSB to bit 31, then back down to bit 0
    X(d.rd) = Signed ? static_cast<U>(static_cast<S>(up) >> (31 - top + pos)) : up >> (31 - top + pos);
}
template <bool Reg> void cv_insert(Hart& h, const DecodedInsn& d) {
    unsigned len1, pos;
    field<Reg>(h, d, len1, pos);
    const U m = field_mask(len1, pos);
    X(d.rd) = (X(d.rd) & ~m) | ((X(d.rs1) << pos) & m);
}
template <bool Reg> void cv_bclr(Hart& h, const DecodedInsn& d) {
    unsigned len1, pos;
    field<Reg>(h, d, len1, pos);
    X(d.rd) = X(d.rs1) & ~field_mask(len1, pos);
}
template <bool Reg> void cv_bset(Hart& h, const DecodedInsn& d) {
    unsigned len1, pos;
    field<Reg>(h, d, len1, pos);
    X(d.rd) = X(d.rs1) | field_mask(len1, pos);
}
void cv_ror(Hart& h, const DecodedInsn& d) {
    X(d.rd) = std::rotr(X(d.rs1), static_cast<int>(X(d.rs2) & 31));
}
void cv_ff1(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(std::countr_zero(X(d.rs1)));
}
void cv_fl1(Hart& h, const DecodedInsn& d) {
    const U a = X(d.rs1);
    X(d.rd) = a ? 31u - static_cast<U>(std::countl_zero(a)) : 32u;
}
// Leading bits equal to the sign bit, not counting the sign bit itself; 0 for a zero operand.
void cv_clb(Hart& h, const DecodedInsn& d) {
    const U a = X(d.rs1);
    X(d.rd) = a ? static_cast<U>(std::countl_zero(static_cast<S>(a) < 0 ? ~a : a)) - 1u : 0u;
}
void cv_cnt(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(std::popcount(X(d.rs1)));
}

// Drops the Is2 top bits (left shift), then reverses the order of the groups of Is3+1 bits, counted from
// bit 31 down; bits left over below the last whole group are lost (radix-8 keeps 10 groups of 3).
void cv_bitrev(Hart& h, const DecodedInsn& d) {
    const unsigned radix_log = (d.imm >> 5) & 3;
    const unsigned g = radix_log == 3 ? 1 : radix_log + 1; // Is3 = 3 behaves as radix-2
    const U s = X(d.rs1) << (d.imm & 31);
    const U gmask = (1u << g) - 1;
    U r = 0;
    for (unsigned k = 0; (k + 1) * g <= 32; ++k)
        r |= ((s >> (32 - g * (k + 1))) & gmask) << (g * k);
    X(d.rd) = r;
}

// ---- xcvmac ----

void cv_mac(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rd) + X(d.rs1) * X(d.rs2);
}
void cv_msu(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rd) - X(d.rs1) * X(d.rs2);
}

// 16x16 multiply [accumulate] with a right shift by Is3 and optional rounding. The sum keeps 32 bits, and
// the shift is arithmetic for the signed forms, logical for the unsigned ones: the multiplier shifts its
// sum's low 32 bits extended by bit 31 or by zeros (cv32e40p_mult.sv: short_result), so a carry out of bit 31
// is lost and a signed sum that overflows changes sign.
template <bool Signed, bool High> inline U half(U x) {
    const U v = High ? x >> 16 : x & 0xffff;
    return Signed ? static_cast<U>(static_cast<int32_t>(static_cast<int16_t>(v))) : v;
}
template <bool Signed, bool High, bool Round, bool Acc> void cv_mul16(Hart& h, const DecodedInsn& d) {
    const unsigned n = static_cast<unsigned>(d.imm);
    U sum = half<Signed, High>(X(d.rs1)) * half<Signed, High>(X(d.rs2));
    if (Acc) sum += X(d.rd);
    if (Round && n) sum += U{1} << (n - 1);
    X(d.rd) = Signed ? static_cast<U>(static_cast<S>(sum) >> n) : sum >> n;
}

#undef X

// ---- decoding ----

// Operand shapes of the register forms (custom-1, funct3 011).
enum Shape : uint8_t {
    kR,        // rD, rs1, rs2
    kR1,       // rD, rs1; the rs2 field must be zero
    kRImm,     // rD, rs1, Is2 in the rs2 field
    kRAcc,     // rD, rs1, rs2 and rD as a third source
    kLd,       // rD, rs1, rs2: post-increment or register-register load
    kStPost,   // rs2, rs1, rs3: post-increment store (rs1 is written)
    kStRegReg, // rs2, rs1, rs3: register-register store
};
struct RegOp {
    ExecFn fn = nullptr;
    Shape shape = kR;
    InsnClass cls = InsnClass::Alu;
};

constexpr std::array<RegOp, 128> make_reg_ops() {
    std::array<RegOp, 128> t{};
    // Loads: funct7 bit 3 = zero-extend, bit 2 = register-register (no write-back), bits 1:0 = size.
    t[0x00] = {cv_load<int8_t, kPostReg>, kLd, InsnClass::Load};
    t[0x01] = {cv_load<int16_t, kPostReg>, kLd, InsnClass::Load};
    t[0x02] = {cv_load<U, kPostReg>, kLd, InsnClass::Load};
    t[0x04] = {cv_load<int8_t, kRegReg>, kLd, InsnClass::Load};
    t[0x05] = {cv_load<int16_t, kRegReg>, kLd, InsnClass::Load};
    t[0x06] = {cv_load<U, kRegReg>, kLd, InsnClass::Load};
    t[0x08] = {cv_load<uint8_t, kPostReg>, kLd, InsnClass::Load};
    t[0x09] = {cv_load<uint16_t, kPostReg>, kLd, InsnClass::Load};
    t[0x0c] = {cv_load<uint8_t, kRegReg>, kLd, InsnClass::Load};
    t[0x0d] = {cv_load<uint16_t, kRegReg>, kLd, InsnClass::Load};
    t[0x10] = {cv_store<uint8_t, kPostReg>, kStPost, InsnClass::Store};
    t[0x11] = {cv_store<uint16_t, kPostReg>, kStPost, InsnClass::Store};
    t[0x12] = {cv_store<U, kPostReg>, kStPost, InsnClass::Store};
    t[0x14] = {cv_store<uint8_t, kRegReg>, kStRegReg, InsnClass::Store};
    t[0x15] = {cv_store<uint16_t, kRegReg>, kStRegReg, InsnClass::Store};
    t[0x16] = {cv_store<U, kRegReg>, kStRegReg, InsnClass::Store};
    // Bit manipulation.
    t[0x18] = {cv_extract<true, true>, kR};
    t[0x19] = {cv_extract<false, true>, kR};
    t[0x1a] = {cv_insert<true>, kRAcc};
    t[0x1c] = {cv_bclr<true>, kR};
    t[0x1d] = {cv_bset<true>, kR};
    t[0x20] = {cv_ror, kR};
    t[0x21] = {cv_ff1, kR1};
    t[0x22] = {cv_fl1, kR1};
    t[0x23] = {cv_clb, kR1};
    t[0x24] = {cv_cnt, kR1};
    // General ALU.
    t[0x28] = {cv_abs, kR1};
    t[0x29] = {cv_slet, kR};
    t[0x2a] = {cv_sletu, kR};
    t[0x2b] = {cv_min, kR};
    t[0x2c] = {cv_minu, kR};
    t[0x2d] = {cv_max, kR};
    t[0x2e] = {cv_maxu, kR};
    t[0x30] = {cv_exths, kR1};
    t[0x31] = {cv_exthz, kR1};
    t[0x32] = {cv_extbs, kR1};
    t[0x33] = {cv_extbz, kR1};
    t[0x38] = {cv_clip<false, false>, kRImm};
    t[0x39] = {cv_clip<true, false>, kRImm};
    t[0x3a] = {cv_clip<false, true>, kR};
    t[0x3b] = {cv_clip<true, true>, kR};
    t[0x40] = {cv_addn<false, false, false, true>, kRAcc};
    t[0x41] = {cv_addn<false, true, false, true>, kRAcc};
    t[0x42] = {cv_addn<false, false, true, true>, kRAcc};
    t[0x43] = {cv_addn<false, true, true, true>, kRAcc};
    t[0x44] = {cv_addn<true, false, false, true>, kRAcc};
    t[0x45] = {cv_addn<true, true, false, true>, kRAcc};
    t[0x46] = {cv_addn<true, false, true, true>, kRAcc};
    t[0x47] = {cv_addn<true, true, true, true>, kRAcc};
    // 32x32 multiply-accumulate.
    t[0x48] = {cv_mac, kRAcc, InsnClass::Mul};
    t[0x49] = {cv_msu, kRAcc, InsnClass::Mul};
    return t;
}
constexpr std::array<RegOp, 128> kRegOps = make_reg_ops();

bool decode_reg_forms(uint32_t raw, DecodedInsn& d) {
    const RegOp& op = kRegOps[funct7(raw)];
    if (!op.fn) return false;
    shape_r(d, raw, op.fn, op.cls);
    switch (op.shape) {
    case kR: break;
    case kR1:
        if (d.rs2 != 0) return false;
        d.src[1] = kZeroSlot;
        break;
    case kRImm: {
        const unsigned is2 = d.rs2;
        d.imm = is2 ? (S{1} << (is2 - 1)) - 1 : 0; // clip bound 2^(Is2-1)-1
        d.rs2 = 0;
        d.src[1] = kZeroSlot;
        break;
    }
    case kRAcc: d.src[2] = xsrc(d.rd); break;
    case kLd: d.latency = 2; break;
    case kStPost:
    case kStRegReg:
        d.rs3 = d.rd;
        d.rd = 0;
        d.src[2] = xsrc(d.rs3);
        d.dst = op.shape == kStPost ? xdst(d.rs1) : kSinkSlot;
        break;
    }
    return true;
}

// custom-0: immediate post-increment loads, cv.elw, cv.beqimm / cv.bneimm.
bool decode_custom0(uint32_t raw, DecodedInsn& d) {
    const unsigned f3 = funct3(raw);
    if (f3 >= 6) {
        shape_i(d, raw, f3 == 6 ? branch_imm<true> : branch_imm<false>, InsnClass::Branch);
        d.aux =
            static_cast<uint8_t>(static_cast<int8_t>(static_cast<S>(raw << 7) >> 27)); // Imm5 = bits 24:20
        d.imm = imm_b(raw);
        d.rd = 0;
        d.dst = kSinkSlot;
        return true;
    }
    static constexpr ExecFn ops[6] = {cv_load<int8_t, kPostImm>,  cv_load<int16_t, kPostImm>,
                                      cv_load<U, kPostImm>,       cv_elw,
                                      cv_load<uint8_t, kPostImm>, cv_load<uint16_t, kPostImm>};
    shape_i(d, raw, ops[f3], InsnClass::Load);
    d.latency = 2;
    return true;
}

// custom-1 funct3 000..010: immediate post-increment stores.
bool decode_store_post_imm(uint32_t raw, DecodedInsn& d) {
    static constexpr ExecFn ops[3] = {cv_store<uint8_t, kPostImm>, cv_store<uint16_t, kPostImm>,
                                      cv_store<U, kPostImm>};
    shape_r(d, raw, ops[funct3(raw)], InsnClass::Store);
    d.rd = 0;
    d.imm = imm_s(raw);
    d.dst = xdst(d.rs1);
    return true;
}

// custom-2, indexed by funct3 and f2 (bits 31:30).
struct ImmOp {
    ExecFn fn = nullptr;
    bool acc = false; // rD is a source
};
constexpr ImmOp kImmOps[8][4] = {
    {{cv_extract<true, false>}, {cv_extract<false, false>}, {cv_insert<false>, true}, {}},
    {{cv_bclr<false>}, {cv_bset<false>}, {}, {cv_bitrev}},
    {{cv_addn<false, false, false, false>},
     {cv_addn<false, true, false, false>},
     {cv_addn<false, false, true, false>},
     {cv_addn<false, true, true, false>}},
    {{cv_addn<true, false, false, false>},
     {cv_addn<true, true, false, false>},
     {cv_addn<true, false, true, false>},
     {cv_addn<true, true, true, false>}},
    {{cv_mul16<true, false, false, false>},
     {cv_mul16<true, true, false, false>},
     {cv_mul16<true, false, true, false>},
     {cv_mul16<true, true, true, false>}},
    {{cv_mul16<false, false, false, false>},
     {cv_mul16<false, true, false, false>},
     {cv_mul16<false, false, true, false>},
     {cv_mul16<false, true, true, false>}},
    {{cv_mul16<true, false, false, true>, true},
     {cv_mul16<true, true, false, true>, true},
     {cv_mul16<true, false, true, true>, true},
     {cv_mul16<true, true, true, true>, true}},
    {{cv_mul16<false, false, false, true>, true},
     {cv_mul16<false, true, false, true>, true},
     {cv_mul16<false, false, true, true>, true},
     {cv_mul16<false, true, true, true>, true}},
};

bool decode_custom2(uint32_t raw, DecodedInsn& d) {
    const unsigned f3 = funct3(raw);
    const ImmOp& op = kImmOps[f3][raw >> 30];
    if (!op.fn) return false;
    if (f3 <= 1) {
        // Bit manipulation: Is3 in bits 29:25, Is2 in bits 24:20, kept as (Is3 << 5) | Is2 like rs2[9:0].
        if (f3 == 1 && (raw >> 30) == 3 && ((raw >> 27) & 7) != 0) return false; // cv.bitrev: 2-bit radix
        shape_i(d, raw, op.fn);
        d.imm = static_cast<S>((raw >> 20) & 0x3ff);
    } else {
        shape_r(d, raw, op.fn, f3 >= 4 ? InsnClass::Mul : InsnClass::Alu);
        d.imm = static_cast<S>((raw >> 25) & 31); // Is3
    }
    if (op.acc) d.src[2] = xsrc(d.rd);
    return true;
}

} // namespace

bool decode_xpulp(uint32_t raw, DecodedInsn& d, const CoreTiming&) {
    switch (opcode(raw)) {
    case 0x0b: return decode_custom0(raw, d);
    case 0x2b:
        switch (funct3(raw)) {
        case 0:
        case 1:
        case 2: return decode_store_post_imm(raw, d);
        case 3: return decode_reg_forms(raw, d);
        default: return false; // 100: hardware loops (isa_xcvhwlp.cpp); 101..111: unused
        }
    case 0x5b: return decode_custom2(raw, d);
    case 0x7b: return decode_xcvsimd(raw, d);
    default: return false;
    }
}

} // namespace pulpsim::isa
