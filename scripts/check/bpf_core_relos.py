#!/usr/bin/env python3
"""List the CO-RE relocations of a BPF object file (scripts/check/bpf-header.sh).

Reads the object's .BTF and .BTF.ext sections (either byte order, so bpfel
and bpfeb objects alike) and prints one line per CO-RE relocation:

    KIND ROOT.FIELD.FIELD...

for example 'field_byte_offset paca_struct___local.preempt.count' or
'field_exists paca_struct___local.preempt'; ROOT is the relocated type's
name (its ___flavour kept), array indices are written [N].
Usage: bpf_core_relos.py OBJECT
"""
import struct
import sys

KINDS = ["field_byte_offset", "field_byte_size", "field_exists", "field_signed",
         "field_lshift_u64", "field_rshift_u64", "type_id_local", "type_id_target",
         "type_exists", "type_size", "enumval_exists", "enumval_value", "type_matches"]
# BTF kinds
INT, PTR, ARRAY, STRUCT, UNION, ENUM, FWD, TYPEDEF, VOLATILE, CONST, RESTRICT, \
    FUNC, FUNC_PROTO, VAR, DATASEC, FLOAT, DECL_TAG, TYPE_TAG, ENUM64 = range(1, 20)
MODIFIERS = (TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG)


def sections(data):
    """The ELF64 sections of an object: {name: bytes}; and the byte order."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit("bpf_core_relos: not an ELF64 object")
    e = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(e + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
    hdrs = []
    for i in range(shnum):
        name, _, _, _, off, size = struct.unpack_from(e + "IIQQQQ", data, shoff + i * shentsize)
        hdrs.append((name, off, size))
    stroff, strsize = hdrs[shstrndx][1], hdrs[shstrndx][2]
    strtab = data[stroff:stroff + strsize]
    out = {}
    for name, off, size in hdrs:
        n = strtab[name:strtab.index(b"\0", name)].decode()
        out[n] = data[off:off + size]
    return out, e


def parse_btf(btf, e):
    magic, _, _, hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from(e + "HBBIIIII", btf, 0)
    if magic != 0xEB9F:
        sys.exit("bpf_core_relos: bad .BTF magic")
    strs = btf[hdr_len + str_off:hdr_len + str_off + str_len]
    types = [None]   # type id 0 is void
    p, end = hdr_len + type_off, hdr_len + type_off + type_len
    while p < end:
        name_off, info, size_type = struct.unpack_from(e + "III", btf, p)
        p += 12
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        t = {"name": name_off, "kind": kind, "type": size_type, "members": []}
        if kind in (INT, VAR, DECL_TAG):
            p += 4
        elif kind == ARRAY:
            elem, _, _ = struct.unpack_from(e + "III", btf, p)
            t["type"] = elem
            p += 12
        elif kind in (STRUCT, UNION):
            for _ in range(vlen):
                m_name, m_type, _ = struct.unpack_from(e + "III", btf, p)
                t["members"].append((m_name, m_type))
                p += 12
        elif kind == ENUM:
            p += 8 * vlen
        elif kind in (FUNC_PROTO,):
            p += 8 * vlen
        elif kind in (DATASEC, ENUM64):
            p += 12 * vlen
        types.append(t)

    def name(off):
        return strs[off:strs.index(b"\0", off)].decode()
    return types, name


def skip_mods(types, tid):
    while tid and types[tid]["kind"] in MODIFIERS:
        tid = types[tid]["type"]
    return tid


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    secs, e = sections(data)
    if ".BTF" not in secs:
        sys.exit("bpf_core_relos: no .BTF section (compile with -g)")
    types, name = parse_btf(secs[".BTF"], e)
    ext = secs.get(".BTF.ext")
    if not ext:
        return
    magic, _, _, hdr_len = struct.unpack_from(e + "HBBI", ext, 0)
    if magic != 0xEB9F or hdr_len < 32:
        return   # no CO-RE relocation section
    relo_off, relo_len = struct.unpack_from(e + "II", ext, 24)
    p, end = hdr_len + relo_off, hdr_len + relo_off + relo_len
    if relo_len == 0:
        return
    rec_size, = struct.unpack_from(e + "I", ext, p)
    p += 4
    while p < end:
        _, num = struct.unpack_from(e + "II", ext, p)
        p += 8
        for _ in range(num):
            _, type_id, access_off, kind = struct.unpack_from(e + "IIII", ext, p)
            p += rec_size
            tid = skip_mods(types, type_id)
            path = name(types[tid]["name"]) or "(anon)"
            spec = [int(x) for x in name(access_off).split(":")]
            if spec and spec[0]:
                path += "[%d]" % spec[0]
            for idx in spec[1:]:
                t = types[tid]
                if t["kind"] in (STRUCT, UNION):
                    m_name, m_type = t["members"][idx]
                    path += "." + (name(m_name) or "(anon)")
                    tid = skip_mods(types, m_type)
                elif t["kind"] == ARRAY:
                    path += "[%d]" % idx
                    tid = skip_mods(types, t["type"])
                else:
                    break
            print(KINDS[kind] if kind < len(KINDS) else "kind%d" % kind, path)


if __name__ == "__main__":
    main()
