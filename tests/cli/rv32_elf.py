"""Small RV32 executables the command-line tests write themselves, and the few instructions they need.

    write_program(path, [segment(0x80000000, [addi(A0, ZERO, 0), ...], executable=True)], entry=0x80000000)

Each segment is one PT_LOAD holding its words; the file has no section headers.
"""
import struct

ZERO, A0, A1, A2, A7 = 0, 10, 11, 12, 17
ECALL = 0x00000073
JUMP_BACK_4 = 0xFFDFF06F  # jal x0, -4


def addi(rd, rs1, imm):
    return ((imm & 0xFFF) << 20) | (rs1 << 15) | (rd << 7) | 0x13


def lui(rd, upper):
    return ((upper & 0xFFFFF) << 12) | (rd << 7) | 0x37


def segment(vaddr, words, executable=False, memsz=None):
    data = b"".join(struct.pack("<I", w) for w in words)
    return {"vaddr": vaddr, "data": data, "memsz": len(data) if memsz is None else memsz, "executable": executable}


def write_program(path, segments, entry):
    """An ELF32 little-endian RISC-V executable: the ELF header, one program header per segment, their bytes."""
    ehsize, phentsize = 52, 32
    offset = ehsize + phentsize * len(segments)
    headers, contents = b"", b""
    for s in segments:
        offset += (-offset) % 4
        contents += b"\0" * ((offset - ehsize - phentsize * len(segments)) - len(contents))
        flags = 0x5 if s["executable"] else 0x6  # R+X or R+W
        headers += struct.pack("<8I", 1, offset, s["vaddr"], s["vaddr"], len(s["data"]), s["memsz"], flags, 4)
        contents += s["data"]
        offset += len(s["data"])
    ident = b"\x7fELF\x01\x01\x01" + b"\0" * 9
    header = ident + struct.pack("<HHIIIIIHHHHHH", 2, 243, 1, entry, ehsize, 0, 0, ehsize, phentsize,
                                 len(segments), 0, 0, 0)
    with open(path, "wb") as f:
        f.write(header + headers + contents)
    return path
