/* xcvsimd: every packed-SIMD instruction in its .h/.b and .sc/.sci flavours.
 * Lane notation: .h [hi, lo], .b [b3, b2, b1, b0] (b0 = bits 7:0). .sc uses the low lane of rs2, .sci a
 * 6-bit immediate, sign-extended unless the manual says otherwise (avgu, minu, maxu, shifts, bit
 * manipulation, shuffles; dotup/sdotup and the unsigned comparisons take an unsigned immediate too).
 */
#include "test_macros.h"

TEST_BEGIN

/* ================= ALU ================= */
/* ---- cv.add ---- */
TEST_CASE(1, a0, 0x80000003, li a1, 0x7FFF0001; li a2, 0x00010002; cv.add.h a0, a1, a2)     /* carry stays in lane */
TEST_CASE(2, a0, 0x0000FFFF, li a1, 0x0000FFFF; li a2, 0x00000000; cv.add.h a0, a1, a2)
TEST_CASE(3, a0, 0x00000000, li a1, 0x0001FFFF; li a2, 0xFFFF0001; cv.add.h a0, a1, a2)     /* no carry into hi */
TEST_CASE(4, a0, 0x807F0008, li a1, 0x7F80FE05; li a2, 0x01FF0203; cv.add.b a0, a1, a2)     /* [80,7F,00,08] */
TEST_CASE(5, a0, 0x800F0011, li a1, 0x7FFF0001; li a2, 0xABCD0010; cv.add.sc.h a0, a1, a2)
TEST_CASE(6, a0, 0x82830108, li a1, 0x7F80FE05; li a2, 0x12345603; cv.add.sc.b a0, a1, a2)
TEST_CASE(7, a0, 0xFFEFFFED, li a1, 0x00050003; cv.add.sci.h a0, a1, -22)                    /* + 0xFFEA */
TEST_CASE(8, a0, 0x2F3F4F5F, li a1, 0x10203040; cv.add.sci.b a0, a1, 31)
TEST_CASE(9, a0, 0xF0001020, li a1, 0x10203040; cv.add.sci.b a0, a1, -32)                    /* + 0xE0 */
/* ---- cv.sub ---- */
TEST_CASE(10, a0, 0xFFFFFFFF, li a1, 0x00010000; li a2, 0x00020001; cv.sub.h a0, a1, a2)    /* no borrow across */
TEST_CASE(11, a0, 0x7E81FC02, li a1, 0x7F80FE05; li a2, 0x01FF0203; cv.sub.b a0, a1, a2)
TEST_CASE(12, a0, 0x000B001B, li a1, 0x00100020; li a2, 0xFFFF0005; cv.sub.sc.h a0, a1, a2)
TEST_CASE(13, a0, 0xFF0F1F2F, li a1, 0x10203040; li a2, 0x00000011; cv.sub.sc.b a0, a1, a2)
TEST_CASE(14, a0, 0xFFFF0004, li a1, 0x00000005; cv.sub.sci.h a0, a1, 1)
TEST_CASE(15, a0, 0x01020304, li a1, 0x00010203; cv.sub.sci.b a0, a1, -1)
/* ---- cv.avg: ((a + b) & mask) >>> 1, the sum truncated to the lane first ---- */
TEST_CASE(16, a0, 0xC0000003, li a1, 0x7FFF0004; li a2, 0x00010002; cv.avg.h a0, a1, a2)    /* 0x8000 >>> 1 */
TEST_CASE(17, a0, 0xFFFE0201, li a1, 0xFCFE0402; li a2, 0x02FE0101; cv.avg.b a0, a1, a2)    /* [-2,-4,5,3] >>> 1 */
TEST_CASE(18, a0, 0x000AFFFA, li a1, 0x0010FFF0; li a2, 0x12340004; cv.avg.sc.h a0, a1, a2) /* [0x14, -12] >>> 1 */
TEST_CASE(19, a0, 0x09F90102, li a1, 0x10F00102; li a2, 0x00000002; cv.avg.sc.b a0, a1, a2)
TEST_CASE(20, a0, 0x00030004, li a1, 0x00070009; cv.avg.sci.h a0, a1, -1)
TEST_CASE(21, a0, 0xC0000204, li a1, 0x7F000408; cv.avg.sci.b a0, a1, 1)                     /* 0x80 >>> 1 = 0xC0 */
/* ---- cv.avgu: logical shift, zero-extended immediate ---- */
TEST_CASE(22, a0, 0x40000003, li a1, 0x7FFF0004; li a2, 0x00010002; cv.avgu.h a0, a1, a2)
TEST_CASE(23, a0, 0x00010018, li a1, 0xFFFF0010; li a2, 0x00030020; cv.avgu.h a0, a1, a2)   /* carry lost: 2 >> 1 */
TEST_CASE(24, a0, 0x7F7E0201, li a1, 0xFCFE0402; li a2, 0x02FE0101; cv.avgu.b a0, a1, a2)
TEST_CASE(25, a0, 0x000A7FFA, li a1, 0x0010FFF0; li a2, 0x00000004; cv.avgu.sc.h a0, a1, a2)
TEST_CASE(26, a0, 0x09790102, li a1, 0x10F00102; li a2, 0x00000002; cv.avgu.sc.b a0, a1, a2)
TEST_CASE(27, a0, 0x00200021, li a1, 0x00010003; cv.avgu.sci.h a0, a1, 63)                   /* + 0x003F */
TEST_CASE(28, a0, 0x001F2021, li a1, 0xC1000103; cv.avgu.sci.b a0, a1, 63)                   /* + 0x3F */
/* ---- cv.min / cv.minu ---- */
TEST_CASE(29, a0, 0x80008000, li a1, 0x80007FFF; li a2, 0x7FFF8000; cv.min.h a0, a1, a2)
TEST_CASE(30, a0, 0x0180FE03, li a1, 0x7F80FE05; li a2, 0x01FF0203; cv.min.b a0, a1, a2)
TEST_CASE(31, a0, 0x0000FFFB, li a1, 0x0005FFFB; li a2, 0x00000000; cv.min.sc.h a0, a1, a2)
TEST_CASE(32, a0, 0xFF80FEFF, li a1, 0x7F80FE05; li a2, 0x000000FF; cv.min.sc.b a0, a1, a2)
TEST_CASE(33, a0, 0xFFFDFFF0, li a1, 0x0005FFF0; cv.min.sci.h a0, a1, -3)
TEST_CASE(34, a0, 0x0A80FE05, li a1, 0x7F80FE05; cv.min.sci.b a0, a1, 10)
TEST_CASE(35, a0, 0x7FFF7FFF, li a1, 0x80007FFF; li a2, 0x7FFF8000; cv.minu.h a0, a1, a2)
TEST_CASE(36, a0, 0x01800203, li a1, 0x7F80FE05; li a2, 0x01FF0203; cv.minu.b a0, a1, a2)
TEST_CASE(37, a0, 0x00050006, li a1, 0x0005FFFB; li a2, 0x00000006; cv.minu.sc.h a0, a1, a2)
TEST_CASE(38, a0, 0x7F808005, li a1, 0x7F80FE05; li a2, 0x00000080; cv.minu.sc.b a0, a1, a2)
TEST_CASE(39, a0, 0x003F0010, li a1, 0xFFFF0010; cv.minu.sci.h a0, a1, 63)                   /* 63, not -1 */
TEST_CASE(40, a0, 0x20202005, li a1, 0x7F80FE05; cv.minu.sci.b a0, a1, 32)                   /* 32, not -32 */
/* ---- cv.max / cv.maxu ---- */
TEST_CASE(41, a0, 0x7FFF7FFF, li a1, 0x80007FFF; li a2, 0x7FFF8000; cv.max.h a0, a1, a2)
TEST_CASE(42, a0, 0x7FFF0205, li a1, 0x7F80FE05; li a2, 0x01FF0203; cv.max.b a0, a1, a2)
TEST_CASE(43, a0, 0x00050000, li a1, 0x0005FFFB; li a2, 0x12340000; cv.max.sc.h a0, a1, a2)
TEST_CASE(44, a0, 0x7FFFFF05, li a1, 0x7F80FE05; li a2, 0x000000FF; cv.max.sc.b a0, a1, a2)
TEST_CASE(45, a0, 0x0005FFFD, li a1, 0x0005FFF0; cv.max.sci.h a0, a1, -3)
TEST_CASE(46, a0, 0x7FE0FE05, li a1, 0x7F80FE05; cv.max.sci.b a0, a1, -32)
TEST_CASE(47, a0, 0x80008000, li a1, 0x80007FFF; li a2, 0x7FFF8000; cv.maxu.h a0, a1, a2)
TEST_CASE(48, a0, 0x7FFFFE05, li a1, 0x7F80FE05; li a2, 0x01FF0203; cv.maxu.b a0, a1, a2)
TEST_CASE(49, a0, 0x0006FFFB, li a1, 0x0005FFFB; li a2, 0x00000006; cv.maxu.sc.h a0, a1, a2)
TEST_CASE(50, a0, 0x8080FE80, li a1, 0x7F80FE05; li a2, 0x00000080; cv.maxu.sc.b a0, a1, a2)
TEST_CASE(51, a0, 0xFFFF003F, li a1, 0xFFFF0010; cv.maxu.sci.h a0, a1, 63)
TEST_CASE(52, a0, 0x7F80FE20, li a1, 0x7F80FE05; cv.maxu.sci.b a0, a1, 32)
/* ---- shifts: amount = low 4 (.h) or 3 (.b) bits of each lane ---- */
TEST_CASE(53, a0, 0x00014000, li a1, 0x80008000; li a2, 0x000F0001; cv.srl.h a0, a1, a2)
TEST_CASE(54, a0, 0x40008000, li a1, 0x80008000; li a2, 0x00110010; cv.srl.h a0, a1, a2)    /* 17 -> 1, 16 -> 0 */
TEST_CASE(55, a0, 0x01104080, li a1, 0x80808080; li a2, 0x07030100; cv.srl.b a0, a1, a2)
TEST_CASE(56, a0, 0x01104080, li a1, 0x80808080; li a2, 0x0F0B0908; cv.srl.b a0, a1, a2)    /* & 7 */
TEST_CASE(57, a0, 0x0F0000F0, li a1, 0xF0000F00; li a2, 0xFFFF0004; cv.srl.sc.h a0, a1, a2)
TEST_CASE(58, a0, 0x0F000800, li a1, 0xF00F8001; li a2, 0x00000004; cv.srl.sc.b a0, a1, a2)
TEST_CASE(59, a0, 0x00010001, li a1, 0x8000FFFF; cv.srl.sci.h a0, a1, 15)
TEST_CASE(60, a0, 0x01010000, li a1, 0x80FF7F01; cv.srl.sci.b a0, a1, 7)
TEST_CASE(61, a0, 0xFFFFC000, li a1, 0x80008000; li a2, 0x000F0001; cv.sra.h a0, a1, a2)
TEST_CASE(62, a0, 0xFFF0C020, li a1, 0x80808040; li a2, 0x07030101; cv.sra.b a0, a1, a2)
TEST_CASE(63, a0, 0xFF0000F0, li a1, 0xF0000F00; li a2, 0x00000004; cv.sra.sc.h a0, a1, a2)
TEST_CASE(64, a0, 0xFF00F800, li a1, 0xF00F8001; li a2, 0x00000004; cv.sra.sc.b a0, a1, a2)
TEST_CASE(65, a0, 0xFFFF0000, li a1, 0x80007FFF; cv.sra.sci.h a0, a1, 15)
TEST_CASE(66, a0, 0xFFFF0000, li a1, 0x80FF7F01; cv.sra.sci.b a0, a1, 7)
TEST_CASE(67, a0, 0x80000010, li a1, 0x00010001; li a2, 0x000F0004; cv.sll.h a0, a1, a2)
TEST_CASE(68, a0, 0x0006000C, li a1, 0x00030003; li a2, 0x00110012; cv.sll.h a0, a1, a2)    /* 17 -> 1, 18 -> 2 */
TEST_CASE(69, a0, 0x80080402, li a1, 0x01010181; li a2, 0x07030201; cv.sll.b a0, a1, a2)    /* 0x81 << 1 = 0x02 */
TEST_CASE(70, a0, 0x0FF0F0F0, li a1, 0x00FF0F0F; li a2, 0x00000004; cv.sll.sc.h a0, a1, a2)
TEST_CASE(71, a0, 0x20406080, li a1, 0x01020304; li a2, 0x00000005; cv.sll.sc.b a0, a1, a2)
TEST_CASE(72, a0, 0x80008000, li a1, 0x00010003; cv.sll.sci.h a0, a1, 15)
TEST_CASE(73, a0, 0x80008080, li a1, 0x01020301; cv.sll.sci.b a0, a1, 7)
/* ---- logic ---- */
TEST_CASE(74, a0, 0x0FF0F00F, li a1, 0x0F00F000; li a2, 0x00F0000F; cv.or.h a0, a1, a2)
TEST_CASE(75, a0, 0x11224488, li a1, 0x01020408; li a2, 0x10204080; cv.or.b a0, a1, a2)
TEST_CASE(76, a0, 0x01010102, li a1, 0x00010002; li a2, 0xFFFF0100; cv.or.sc.h a0, a1, a2)
TEST_CASE(77, a0, 0xF1F2F4F8, li a1, 0x01020408; li a2, 0x000000F0; cv.or.sc.b a0, a1, a2)
TEST_CASE(78, a0, 0xFFE1FFE2, li a1, 0x00010002; cv.or.sci.h a0, a1, -32)                    /* | 0xFFE0 */
TEST_CASE(79, a0, 0x11121314, li a1, 0x01020304; cv.or.sci.b a0, a1, 16)
TEST_CASE(80, a0, 0xF0F00F0F, li a1, 0xFFFF0000; li a2, 0x0F0F0F0F; cv.xor.h a0, a1, a2)
TEST_CASE(81, a0, 0x55555555, li a1, 0xAA55AA55; li a2, 0xFF00FF00; cv.xor.b a0, a1, a2)
TEST_CASE(82, a0, 0xEDCBA987, li a1, 0x12345678; li a2, 0x0000FFFF; cv.xor.sc.h a0, a1, a2)
TEST_CASE(83, a0, 0xEDCBA987, li a1, 0x12345678; li a2, 0x000000FF; cv.xor.sc.b a0, a1, a2)
TEST_CASE(84, a0, 0xEDCBA987, li a1, 0x12345678; cv.xor.sci.h a0, a1, -1)
TEST_CASE(85, a0, 0x0D2B4967, li a1, 0x12345678; cv.xor.sci.b a0, a1, 31)
TEST_CASE(86, a0, 0x02045070, li a1, 0x12345678; li a2, 0x0F0FF0F0; cv.and.h a0, a1, a2)
TEST_CASE(87, a0, 0x12340000, li a1, 0xFFFF0000; li a2, 0x12345678; cv.and.b a0, a1, a2)
TEST_CASE(88, a0, 0x00340078, li a1, 0x12345678; li a2, 0xFFFF00FF; cv.and.sc.h a0, a1, a2)
TEST_CASE(89, a0, 0x02040608, li a1, 0x12345678; li a2, 0x0000000F; cv.and.sc.b a0, a1, a2)
TEST_CASE(90, a0, 0x12305670, li a1, 0x12345678; cv.and.sci.h a0, a1, -16)                   /* & 0xFFF0 */
TEST_CASE(91, a0, 0x02040600, li a1, 0x12345678; cv.and.sci.b a0, a1, 7)
/* ---- cv.abs ---- */
TEST_CASE(92, a0, 0x80000001, li a1, 0x8000FFFF; cv.abs.h a0, a1)                            /* |-32768| wraps */
TEST_CASE(93, a0, 0x7FFF0005, li a1, 0x7FFF0005; cv.abs.h a0, a1)
TEST_CASE(94, a0, 0x80017F7F, li a1, 0x80FF7F81; cv.abs.b a0, a1)

/* ================= bit manipulation ================= */
TEST_CASE(95, a0, 0xFFFF8765, li a1, 0x12348765; cv.extract.h a0, a1, 0)
TEST_CASE(96, a0, 0x00001234, li a1, 0x12348765; cv.extract.h a0, a1, 1)
TEST_CASE(97, a0, 0x00000001, li a1, 0x80FF7F01; cv.extract.b a0, a1, 0)
TEST_CASE(98, a0, 0x0000007F, li a1, 0x80FF7F01; cv.extract.b a0, a1, 1)
TEST_CASE(99, a0, 0xFFFFFFFF, li a1, 0x80FF7F01; cv.extract.b a0, a1, 2)
TEST_CASE(100, a0, 0xFFFFFF80, li a1, 0x80FF7F01; cv.extract.b a0, a1, 3)
TEST_CASE(101, a0, 0x00008765, li a1, 0x12348765; cv.extractu.h a0, a1, 0)
TEST_CASE(102, a0, 0x00008765, li a1, 0x87651234; cv.extractu.h a0, a1, 1)
TEST_CASE(103, a0, 0x000000FF, li a1, 0x80FF7F01; cv.extractu.b a0, a1, 2)
TEST_CASE(104, a0, 0x00000080, li a1, 0x80FF7F01; cv.extractu.b a0, a1, 3)
TEST_CASE(105, a0, 0xBBBB2222, li a0, 0x11112222; li a1, 0xAAAABBBB; cv.insert.h a0, a1, 1)
TEST_CASE(106, a0, 0x1111BBBB, li a0, 0x11112222; li a1, 0xAAAABBBB; cv.insert.h a0, a1, 0)
TEST_CASE(107, a0, 0x112233AB, li a0, 0x11223344; li a1, 0x000000AB; cv.insert.b a0, a1, 0)
TEST_CASE(108, a0, 0x11AB3344, li a0, 0x11223344; li a1, 0x000000AB; cv.insert.b a0, a1, 2)
TEST_CASE(109, a0, 0xAB223344, li a0, 0x11223344; li a1, 0xFFFFFFAB; cv.insert.b a0, a1, 3)

/* ================= dot products (sums modulo 2^32) ================= */
/* dotup: unsigned x unsigned */
TEST_CASE(110, a0, 23, li a1, 0x00030002; li a2, 0x00050004; cv.dotup.h a0, a1, a2)         /* 3*5 + 2*4 */
TEST_CASE(111, a0, 0x00020001, li a1, 0xFFFF0001; li a2, 0x00020003; cv.dotup.h a0, a1, a2) /* 65535*2 + 3 */
TEST_CASE(112, a0, 70, li a1, 0x01020304; li a2, 0x05060708; cv.dotup.b a0, a1, a2)         /* 5+12+21+32 */
TEST_CASE(113, a0, 0xFE01, li a1, 0xFF000000; li a2, 0xFF000000; cv.dotup.b a0, a1, a2)     /* 255*255 */
TEST_CASE(114, a0, 20, li a1, 0x00030002; li a2, 0x12340004; cv.dotup.sc.h a0, a1, a2)      /* 4*(3+2) */
TEST_CASE(115, a0, 20, li a1, 0x01020304; li a2, 0x00000002; cv.dotup.sc.b a0, a1, a2)      /* 2*10 */
TEST_CASE(116, a0, 0xBD, li a1, 0x00010002; cv.dotup.sci.h a0, a1, 63)                       /* 63*3 */
TEST_CASE(117, a0, 0xFC, li a1, 0x01010101; cv.dotup.sci.b a0, a1, 63)                       /* 63*4 */
/* dotusp: unsigned rs1 x signed op2 */
TEST_CASE(118, a0, 0xFFFF0007, li a1, 0xFFFF0002; li a2, 0xFFFF0003; cv.dotusp.h a0, a1, a2) /* -65535 + 6 */
TEST_CASE(119, a0, 0x87, li a1, 0x80FF0102; li a2, 0xFF010203; cv.dotusp.b a0, a1, a2)      /* -128+255+2+6 */
TEST_CASE(120, a0, 0xFFFFFFF6, li a1, 0x00030002; li a2, 0x0000FFFE; cv.dotusp.sc.h a0, a1, a2) /* -2*5 */
TEST_CASE(121, a0, 0xFFFFFF00, li a1, 0xFF000001; li a2, 0x000000FF; cv.dotusp.sc.b a0, a1, a2) /* -(255+1) */
TEST_CASE(122, a0, 0xFFFFFFA0, li a1, 0x00010002; cv.dotusp.sci.h a0, a1, -32)               /* -32*3 */
TEST_CASE(123, a0, 0xFFFFFE00, li a1, 0x80808080; cv.dotusp.sci.b a0, a1, -1)                /* -(4*128) */
/* dotsp: signed x signed */
TEST_CASE(124, a0, 7, li a1, 0xFFFF0002; li a2, 0xFFFF0003; cv.dotsp.h a0, a1, a2)          /* 1 + 6 */
TEST_CASE(125, a0, 0x80000000, li a1, 0x80008000; li a2, 0x80008000; cv.dotsp.h a0, a1, a2) /* 2 * 2^30 */
TEST_CASE(126, a0, 0xFFFFC087, li a1, 0x80FF0102; li a2, 0x7F010203; cv.dotsp.b a0, a1, a2) /* -16256-1+2+6 = -16249 */
TEST_CASE(127, a0, 2, li a1, 0xFFFD0002; li a2, 0x0000FFFE; cv.dotsp.sc.h a0, a1, a2)       /* (-3+2) * -2 */
TEST_CASE(128, a0, 3, li a1, 0xFEFE0001; li a2, 0x000000FF; cv.dotsp.sc.b a0, a1, a2)       /* (-2-2+0+1) * -1 */
TEST_CASE(129, a0, 0xFFFFFFE0, li a1, 0xFFFF0002; cv.dotsp.sci.h a0, a1, -32)                /* (-1+2) * -32 */
TEST_CASE(130, a0, 0xFFFFFF84, li a1, 0xFFFFFFFF; cv.dotsp.sci.b a0, a1, 31)                 /* -4 * 31 */
/* sdot*: rD + dot product */
TEST_CASE(131, a0, 123, li a0, 100; li a1, 0x00030002; li a2, 0x00050004; cv.sdotup.h a0, a1, a2)
TEST_CASE(132, a0, 69, li a0, -1; li a1, 0x01020304; li a2, 0x05060708; cv.sdotup.b a0, a1, a2)
TEST_CASE(133, a0, 21, li a0, 1; li a1, 0x00030002; li a2, 0x00000004; cv.sdotup.sc.h a0, a1, a2)
TEST_CASE(134, a0, 30, li a0, 10; li a1, 0x01020304; li a2, 0x00000002; cv.sdotup.sc.b a0, a1, a2)
TEST_CASE(135, a0, 190, li a0, 1; li a1, 0x00010002; cv.sdotup.sci.h a0, a1, 63)
TEST_CASE(136, a0, 256, li a0, 4; li a1, 0x01010101; cv.sdotup.sci.b a0, a1, 63)
TEST_CASE(137, a0, 7, li a0, 0x10000; li a1, 0xFFFF0002; li a2, 0xFFFF0003; cv.sdotusp.h a0, a1, a2) /* 65536 - 65529 */
TEST_CASE(138, a0, 0x88, li a0, 1; li a1, 0x80FF0102; li a2, 0xFF010203; cv.sdotusp.b a0, a1, a2)
TEST_CASE(139, a0, 0, li a0, 10; li a1, 0x00030002; li a2, 0x0000FFFE; cv.sdotusp.sc.h a0, a1, a2)
TEST_CASE(140, a0, 0, li a0, 0x100; li a1, 0xFF000001; li a2, 0x000000FF; cv.sdotusp.sc.b a0, a1, a2)
TEST_CASE(141, a0, 0, li a0, 96; li a1, 0x00010002; cv.sdotusp.sci.h a0, a1, -32)
TEST_CASE(142, a0, 0xFFFFFE00, li a0, 0; li a1, 0x80808080; cv.sdotusp.sci.b a0, a1, -1)
TEST_CASE(143, a0, 0, li a0, -7; li a1, 0xFFFF0002; li a2, 0xFFFF0003; cv.sdotsp.h a0, a1, a2)
TEST_CASE(144, a0, 0, li a0, 16249; li a1, 0x80FF0102; li a2, 0x7F010203; cv.sdotsp.b a0, a1, a2)
TEST_CASE(145, a0, 0x80000001, li a0, 0x7FFFFFFF; li a1, 0xFFFD0002; li a2, 0x0000FFFE; cv.sdotsp.sc.h a0, a1, a2) /* wraps */
TEST_CASE(146, a0, 0, li a0, -3; li a1, 0xFEFE0001; li a2, 0x000000FF; cv.sdotsp.sc.b a0, a1, a2)
TEST_CASE(147, a0, 0, li a0, 32; li a1, 0xFFFF0002; cv.sdotsp.sci.h a0, a1, -32)
TEST_CASE(148, a0, 0, li a0, 124; li a1, 0xFFFFFFFF; cv.sdotsp.sci.b a0, a1, 31)
TEST_CASE(149, a0, 0x00020008, li a0, 0x00020003; li a2, 0x00010001; cv.sdotsp.h a0, a0, a2) /* rD == rs1: + 2 + 3 */

/* ================= shuffle and pack ================= */
/* shuffle.h: lane i = rs1 lane rs2[16*i] */
TEST_CASE(150, a0, 0xBBBBAAAA, li a1, 0xAAAABBBB; li a2, 0x00000001; cv.shuffle.h a0, a1, a2)
TEST_CASE(151, a0, 0xAAAABBBB, li a1, 0xAAAABBBB; li a2, 0x00010000; cv.shuffle.h a0, a1, a2)
TEST_CASE(152, a0, 0xBBBBBBBB, li a1, 0xAAAABBBB; li a2, 0xFFFEFFFE; cv.shuffle.h a0, a1, a2) /* only bits 16, 0 */
TEST_CASE(153, a0, 0xBBBBAAAA, li a1, 0xAAAABBBB; cv.shuffle.sci.h a0, a1, 1)               /* I1 = 0, I0 = 1 */
TEST_CASE(154, a0, 0xAAAABBBB, li a1, 0xAAAABBBB; cv.shuffle.sci.h a0, a1, 2)
TEST_CASE(155, a0, 0xAAAAAAAA, li a1, 0xAAAABBBB; cv.shuffle.sci.h a0, a1, 3)
TEST_CASE(156, a0, 0xBBBBBBBB, li a1, 0xAAAABBBB; cv.shuffle.sci.h a0, a1, 0)
/* shuffle.b: byte i = rs1 byte rs2[8*i+1:8*i] */
TEST_CASE(157, a0, 0x11223344, li a1, 0x44332211; li a2, 0x00010203; cv.shuffle.b a0, a1, a2)
TEST_CASE(158, a0, 0x11223344, li a1, 0x44332211; li a2, 0xFCFDFEFF; cv.shuffle.b a0, a1, a2)
TEST_CASE(159, a0, 0x44444411, li a1, 0x44332211; li a2, 0x03030300; cv.shuffle.b a0, a1, a2)
/* shuffleIK.sci.b: byte 3 = rs1 byte K, bytes 2..0 from I5:I4, I3:I2, I1:I0 */
TEST_CASE(160, a0, 0x11443322, li a1, 0x44332211; cv.shufflei0.sci.b a0, a1, 57)            /* 11 10 01 */
TEST_CASE(161, a0, 0x22111111, li a1, 0x44332211; cv.shufflei1.sci.b a0, a1, 0)
TEST_CASE(162, a0, 0x33223344, li a1, 0x44332211; cv.shufflei2.sci.b a0, a1, 27)            /* 01 10 11 */
TEST_CASE(163, a0, 0x44444444, li a1, 0x44332211; cv.shufflei3.sci.b a0, a1, 63)
TEST_CASE(164, a0, 0x11112233, li a1, 0x44332211; cv.shufflei0.sci.b a0, a1, 6)             /* 00 01 10 */
/* shuffle2: the bit above the index selects rs1 (1) or rD (0) */
TEST_CASE(165, a0, 0xBBBBDDDD, li a0, 0xDDDDCCCC; li a1, 0xAAAABBBB; li a2, 0x00020001; cv.shuffle2.h a0, a1, a2)
TEST_CASE(166, a0, 0xCCCCAAAA, li a0, 0xDDDDCCCC; li a1, 0xAAAABBBB; li a2, 0x00000003; cv.shuffle2.h a0, a1, a2)
TEST_CASE(167, a0, 0x44772255, li a0, 0x88776655; li a1, 0x44332211; li a2, 0x07020500; cv.shuffle2.b a0, a1, a2)
TEST_CASE(168, a0, 0x55667788, li a0, 0x88776655; li a1, 0x44332211; li a2, 0x00010203; cv.shuffle2.b a0, a1, a2)
/* pack */
TEST_CASE(169, a0, 0x5678DEF0, li a1, 0x12345678; li a2, 0x9ABCDEF0; cv.pack a0, a1, a2)
TEST_CASE(170, a0, 0x12349ABC, li a1, 0x12345678; li a2, 0x9ABCDEF0; cv.pack.h a0, a1, a2)
TEST_CASE(171, a0, 0xABCD3344, li a0, 0x11223344; li a1, 0x000000AB; li a2, 0x000000CD; cv.packhi.b a0, a1, a2)
TEST_CASE(172, a0, 0x1122ABCD, li a0, 0x11223344; li a1, 0xFFFFFFAB; li a2, 0x123456CD; cv.packlo.b a0, a1, a2)

/* ================= comparisons: all-ones lane when true ================= */
/* .b, a = [7F, 80, FE, 05] = [127, -128/128, -2/254, 5], b = [7F, 01, FF, 04] = [127, 1, -1/255, 4] */
#define CA li a1, 0x7F80FE05; li a2, 0x7F01FF04
TEST_CASE(173, a0, 0xFF000000, CA; cv.cmpeq.b a0, a1, a2)
TEST_CASE(174, a0, 0x00FFFFFF, CA; cv.cmpne.b a0, a1, a2)
TEST_CASE(175, a0, 0x000000FF, CA; cv.cmpgt.b a0, a1, a2)
TEST_CASE(176, a0, 0xFF0000FF, CA; cv.cmpge.b a0, a1, a2)
TEST_CASE(177, a0, 0x00FFFF00, CA; cv.cmplt.b a0, a1, a2)
TEST_CASE(178, a0, 0xFFFFFF00, CA; cv.cmple.b a0, a1, a2)
TEST_CASE(179, a0, 0x00FF00FF, CA; cv.cmpgtu.b a0, a1, a2)
TEST_CASE(180, a0, 0xFFFF00FF, CA; cv.cmpgeu.b a0, a1, a2)
TEST_CASE(181, a0, 0x0000FF00, CA; cv.cmpltu.b a0, a1, a2)
TEST_CASE(182, a0, 0xFF00FF00, CA; cv.cmpleu.b a0, a1, a2)
/* .h, a = [8000, 0005], b = [0001, 0005] */
#define CH li a1, 0x80000005; li a2, 0x00010005
TEST_CASE(183, a0, 0x0000FFFF, CH; cv.cmpeq.h a0, a1, a2)
TEST_CASE(184, a0, 0xFFFF0000, CH; cv.cmpne.h a0, a1, a2)
TEST_CASE(185, a0, 0x00000000, CH; cv.cmpgt.h a0, a1, a2)
TEST_CASE(186, a0, 0x0000FFFF, CH; cv.cmpge.h a0, a1, a2)
TEST_CASE(187, a0, 0xFFFF0000, CH; cv.cmplt.h a0, a1, a2)
TEST_CASE(188, a0, 0xFFFFFFFF, CH; cv.cmple.h a0, a1, a2)
TEST_CASE(189, a0, 0xFFFF0000, CH; cv.cmpgtu.h a0, a1, a2)
TEST_CASE(190, a0, 0xFFFFFFFF, CH; cv.cmpgeu.h a0, a1, a2)
TEST_CASE(191, a0, 0x00000000, CH; cv.cmpltu.h a0, a1, a2)
TEST_CASE(192, a0, 0x0000FFFF, CH; cv.cmpleu.h a0, a1, a2)
TEST_CASE(193, a0, 0xFFFF0000, li a1, 0x00020005; li a2, 0x00010006; cv.cmpgt.h a0, a1, a2)
TEST_CASE(194, a0, 0x0000FFFF, li a1, 0x00020005; li a2, 0x00010006; cv.cmpltu.h a0, a1, a2)
/* .sc.h, a = [8000, 0007], scalar 5 */
#define CSH li a1, 0x80000007; li a2, 0x12340005
TEST_CASE(195, a0, 0xFFFF0000, li a1, 0x00050007; li a2, 0x12340005; cv.cmpeq.sc.h a0, a1, a2)
TEST_CASE(196, a0, 0xFFFFFFFF, CSH; cv.cmpne.sc.h a0, a1, a2)
TEST_CASE(197, a0, 0x0000FFFF, CSH; cv.cmpgt.sc.h a0, a1, a2)
TEST_CASE(198, a0, 0x0000FFFF, CSH; cv.cmpge.sc.h a0, a1, a2)
TEST_CASE(199, a0, 0xFFFF0000, CSH; cv.cmplt.sc.h a0, a1, a2)
TEST_CASE(200, a0, 0xFFFF0000, CSH; cv.cmple.sc.h a0, a1, a2)
TEST_CASE(201, a0, 0xFFFFFFFF, CSH; cv.cmpgtu.sc.h a0, a1, a2)
TEST_CASE(202, a0, 0xFFFFFFFF, CSH; cv.cmpgeu.sc.h a0, a1, a2)
TEST_CASE(203, a0, 0x00000000, CSH; cv.cmpltu.sc.h a0, a1, a2)
TEST_CASE(204, a0, 0x00000000, CSH; cv.cmpleu.sc.h a0, a1, a2)
/* .sc.b, a = [127, -128/128, -2/254, 5], scalar FE = -2/254 */
#define CSB li a1, 0x7F80FE05; li a2, 0x000000FE
TEST_CASE(205, a0, 0x0000FF00, CSB; cv.cmpeq.sc.b a0, a1, a2)
TEST_CASE(206, a0, 0xFFFF00FF, CSB; cv.cmpne.sc.b a0, a1, a2)
TEST_CASE(207, a0, 0xFF0000FF, CSB; cv.cmpgt.sc.b a0, a1, a2)
TEST_CASE(208, a0, 0xFF00FFFF, CSB; cv.cmpge.sc.b a0, a1, a2)
TEST_CASE(209, a0, 0x00FF0000, CSB; cv.cmplt.sc.b a0, a1, a2)
TEST_CASE(210, a0, 0x00FFFF00, CSB; cv.cmple.sc.b a0, a1, a2)
TEST_CASE(211, a0, 0x00000000, CSB; cv.cmpgtu.sc.b a0, a1, a2)
TEST_CASE(212, a0, 0x0000FF00, CSB; cv.cmpgeu.sc.b a0, a1, a2)
TEST_CASE(213, a0, 0xFFFF00FF, CSB; cv.cmpltu.sc.b a0, a1, a2)
TEST_CASE(214, a0, 0xFFFFFFFF, CSB; cv.cmpleu.sc.b a0, a1, a2)
/* .sci.h: a = [FFFF, 0040] against -1 (signed) or 63 (unsigned, zero-extended) */
TEST_CASE(215, a0, 0xFFFF0000, li a1, 0xFFFF0040; cv.cmpeq.sci.h a0, a1, -1)
TEST_CASE(216, a0, 0x0000FFFF, li a1, 0xFFFF0040; cv.cmpne.sci.h a0, a1, -1)
TEST_CASE(217, a0, 0x0000FFFF, li a1, 0xFFFF0040; cv.cmpgt.sci.h a0, a1, -1)
TEST_CASE(218, a0, 0xFFFFFFFF, li a1, 0xFFFF0040; cv.cmpge.sci.h a0, a1, -1)
TEST_CASE(219, a0, 0x00000000, li a1, 0xFFFF0040; cv.cmplt.sci.h a0, a1, -1)
TEST_CASE(220, a0, 0xFFFF0000, li a1, 0xFFFF0040; cv.cmple.sci.h a0, a1, -1)
TEST_CASE(221, a0, 0xFFFFFFFF, li a1, 0xFFFF0040; cv.cmpgtu.sci.h a0, a1, 63)
TEST_CASE(222, a0, 0xFFFF0000, li a1, 0x003F003E; cv.cmpgeu.sci.h a0, a1, 63)
TEST_CASE(223, a0, 0x0000FFFF, li a1, 0x003F003E; cv.cmpltu.sci.h a0, a1, 63)
TEST_CASE(224, a0, 0xFFFF0000, li a1, 0x003F0040; cv.cmpleu.sci.h a0, a1, 63)
/* .sci.b: a = [127, -128/128, -2/254, 5] against -2 (signed) or 32 */
TEST_CASE(225, a0, 0x0000FF00, li a1, 0x7F80FE05; cv.cmpeq.sci.b a0, a1, -2)
TEST_CASE(226, a0, 0xFFFF00FF, li a1, 0x7F80FE05; cv.cmpne.sci.b a0, a1, -2)
TEST_CASE(227, a0, 0xFF0000FF, li a1, 0x7F80FE05; cv.cmpgt.sci.b a0, a1, -2)
TEST_CASE(228, a0, 0xFF00FFFF, li a1, 0x7F80FE05; cv.cmpge.sci.b a0, a1, -2)
TEST_CASE(229, a0, 0x00FF0000, li a1, 0x7F80FE05; cv.cmplt.sci.b a0, a1, -2)
TEST_CASE(230, a0, 0x00FFFF00, li a1, 0x7F80FE05; cv.cmple.sci.b a0, a1, -2)
TEST_CASE(231, a0, 0xFFFFFF00, li a1, 0x7F80FE05; cv.cmpgtu.sci.b a0, a1, 32)
TEST_CASE(232, a0, 0xFFFF0000, li a1, 0x7F201F05; cv.cmpgeu.sci.b a0, a1, 32)          /* [127, 32, 31, 5] */
TEST_CASE(233, a0, 0x000000FF, li a1, 0x7F80FE05; cv.cmpltu.sci.b a0, a1, 32)
TEST_CASE(234, a0, 0x00FFFFFF, li a1, 0x7F201F05; cv.cmpleu.sci.b a0, a1, 32)

/* ================= complex numbers {Im = [31:16], Re = [15:0]} ================= */
/* cplxmul.r: Re = (Re1*Re2 - Im1*Im2) >> {15,16,17,18}, Im of rD kept */
TEST_CASE(235, a0, 0x12342000, li a0, 0x12340000; li a1, 0x00004000; li a2, 0x00004000; cv.cplxmul.r a0, a1, a2) /* 2^28 >> 15 */
TEST_CASE(236, a0, 0xABCDE000, li a0, 0xABCD1111; li a1, 0x40000000; li a2, 0x40000000; cv.cplxmul.r a0, a1, a2) /* -2^28 >> 15 */
TEST_CASE(237, a0, 0x00008000, li a0, 0; li a1, 0x00008000; li a2, 0x00008000; cv.cplxmul.r a0, a1, a2)   /* 2^30 >> 15, truncated */
TEST_CASE(238, a0, 0x0000F000, li a0, 0; li a1, 0x0000C000; li a2, 0x00004000; cv.cplxmul.r.div2 a0, a1, a2) /* -2^28 >> 16 */
TEST_CASE(239, a0, 0x0000F800, li a0, 0; li a1, 0x0000C000; li a2, 0x00004000; cv.cplxmul.r.div4 a0, a1, a2)
TEST_CASE(240, a0, 0x0000FC00, li a0, 0; li a1, 0x0000C000; li a2, 0x00004000; cv.cplxmul.r.div8 a0, a1, a2)
TEST_CASE(241, a0, 0x00000500, li a0, 0; li a1, 0x20004000; li a2, 0xE0004000; cv.cplxmul.r.div8 a0, a1, a2) /* (2^28 + 2^26) >> 18 = 0x400 + 0x100 */
/* cplxmul.i: Im = (Re1*Im2 + Im1*Re2) >> {15,16,17,18}, Re of rD kept */
TEST_CASE(242, a0, 0x2800ABCD, li a0, 0x1111ABCD; li a1, 0x20004000; li a2, 0x40002000; cv.cplxmul.i a0, a1, a2) /* (2^28 + 2^26) >> 15 */
TEST_CASE(243, a0, 0x14000000, li a0, 0; li a1, 0x20004000; li a2, 0x40002000; cv.cplxmul.i.div2 a0, a1, a2)
TEST_CASE(244, a0, 0x0A000000, li a0, 0; li a1, 0x20004000; li a2, 0x40002000; cv.cplxmul.i.div4 a0, a1, a2)
TEST_CASE(245, a0, 0x05000000, li a0, 0; li a1, 0x20004000; li a2, 0x40002000; cv.cplxmul.i.div8 a0, a1, a2)
TEST_CASE(246, a0, 0xE0000000, li a0, 0; li a1, 0x0000C000; li a2, 0x40000000; cv.cplxmul.i a0, a1, a2)  /* -2^28 >> 15 */
/* cplxconj: {-Im, Re} */
TEST_CASE(247, a0, 0xEDCC5678, li a1, 0x12345678; cv.cplxconj a0, a1)
TEST_CASE(248, a0, 0x80000001, li a1, 0x80000001; cv.cplxconj a0, a1)                  /* -(-32768) wraps */
TEST_CASE(249, a0, 0x0000FFFF, li a1, 0x0000FFFF; cv.cplxconj a0, a1)
/* subrotmj: (rs1 - rs2) * -j = {Im: Re2 - Re1, Re: Im1 - Im2}, 16-bit, then >>> {0,1,2,3} */
TEST_CASE(250, a0, 0x00040006, li a1, 0x000A0003; li a2, 0x00040007; cv.subrotmj a0, a1, a2)
TEST_CASE(251, a0, 0xFFFCFFFD, li a1, 0x00000007; li a2, 0x00030003; cv.subrotmj a0, a1, a2)
TEST_CASE(252, a0, 0x00007FFF, li a1, 0x80000000; li a2, 0x00010000; cv.subrotmj a0, a1, a2)     /* -32769 wraps */
TEST_CASE(253, a0, 0xFFFEFFFE, li a1, 0x00000007; li a2, 0x00030003; cv.subrotmj.div2 a0, a1, a2) /* [-4, -3] >>> 1 */
TEST_CASE(254, a0, 0x00003FFF, li a1, 0x80000000; li a2, 0x00010000; cv.subrotmj.div2 a0, a1, a2) /* 0x7FFF >>> 1 */
TEST_CASE(255, a0, 0xFFFFFFFF, li a1, 0x00000007; li a2, 0x00030003; cv.subrotmj.div4 a0, a1, a2)
TEST_CASE(256, a0, 0x00080008, li a1, 0x00400000; li a2, 0x00000040; cv.subrotmj.div8 a0, a1, a2)
/* add.divN / sub.divN: ((a +/- b) & 0xFFFF) >>> {1,2,3} per half */
TEST_CASE(257, a0, 0x00040003, li a1, 0x00060004; li a2, 0x00020002; cv.add.div2 a0, a1, a2)
TEST_CASE(258, a0, 0xC0000000, li a1, 0x7FFF0000; li a2, 0x00010000; cv.add.div2 a0, a1, a2)     /* 0x8000 >>> 1 */
TEST_CASE(259, a0, 0x0005FFFC, li a1, 0x0010FFF0; li a2, 0x00040000; cv.add.div4 a0, a1, a2)     /* [20, -16] >>> 2 */
TEST_CASE(260, a0, 0x0008FFFF, li a1, 0x00400000; li a2, 0x0000FFF8; cv.add.div8 a0, a1, a2)     /* [64, -8] >>> 3 */
TEST_CASE(261, a0, 0x0002FFFE, li a1, 0x00060004; li a2, 0x00020008; cv.sub.div2 a0, a1, a2)     /* [4, -4] >>> 1 */
TEST_CASE(262, a0, 0x3FFF0000, li a1, 0x80000000; li a2, 0x00010000; cv.sub.div2 a0, a1, a2)     /* 0x7FFF >>> 1 */
TEST_CASE(263, a0, 0x0004FFFF, li a1, 0x00100000; li a2, 0x00000004; cv.sub.div4 a0, a1, a2)     /* [16, -4] >>> 2 */
TEST_CASE(264, a0, 0x0008FFFF, li a1, 0x00400000; li a2, 0x00000008; cv.sub.div8 a0, a1, a2)     /* [64, -8] >>> 3 */

TEST_END
