/** ELF files built byte by byte for the tests of src/impl/program-clock.ts: each holds exactly the facts a case needs. */

/** A 64-bit little-endian ELF with a program interpreter or not, and these section names. */
export function elf(options: { interpreter: boolean; sections: readonly string[] }): Buffer {
  const names = ['', ...options.sections, '.shstrtab'];
  const table = Buffer.from(names.map((n) => `${n}\0`).join(''), 'latin1');
  const phnum = options.interpreter ? 1 : 0;
  const tableAt = 64 + 56 * phnum;
  const shoff = tableAt + table.length;
  const out = Buffer.alloc(shoff + 64 * names.length);
  out.writeUInt32BE(0x7f454c46, 0);
  out[4] = 2; // 64-bit
  out[5] = 1; // little-endian
  out[6] = 1;
  out.writeBigUInt64LE(64n, 0x20); // e_phoff
  out.writeBigUInt64LE(BigInt(shoff), 0x28); // e_shoff
  out.writeUInt16LE(56, 0x36);
  out.writeUInt16LE(phnum, 0x38);
  out.writeUInt16LE(64, 0x3a);
  out.writeUInt16LE(names.length, 0x3c);
  out.writeUInt16LE(names.length - 1, 0x3e); // .shstrtab is the last
  if (options.interpreter) out.writeUInt32LE(3, 64); // PT_INTERP
  table.copy(out, tableAt);
  let at = 0;
  names.forEach((name, s) => {
    out.writeUInt32LE(at, shoff + 64 * s); // sh_name
    if (name === '.shstrtab') {
      out.writeBigUInt64LE(BigInt(tableAt), shoff + 64 * s + 0x18); // sh_offset
      out.writeBigUInt64LE(BigInt(table.length), shoff + 64 * s + 0x20); // sh_size
    }
    at += name.length + 1;
  });
  return out;
}
