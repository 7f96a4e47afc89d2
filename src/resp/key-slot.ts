/**
 * Redis Cluster's key -> slot function (CRC16/XMODEM of the hash tag, mod 16384), so the script
 * loader can find the master that serves a key without asking the server.
 */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff];
  return crc;
}

/** The bytes Redis hashes: the first `{...}` with something inside, else the whole key. */
export function hashTagOf(key: Uint8Array): Uint8Array {
  const open = key.indexOf(0x7b);
  if (open === -1) return key;
  const close = key.indexOf(0x7d, open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.subarray(open + 1, close);
}

export function keySlot(key: string | Uint8Array): number {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  return crc16(hashTagOf(bytes)) % 16384;
}
