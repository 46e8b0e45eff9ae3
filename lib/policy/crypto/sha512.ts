/**
 * SHA-512 (FIPS 180-4) and HMAC-SHA512 (RFC 2104) in pure TypeScript.
 *
 * Kafka derives a delegation token's HMAC as HmacSHA512(key = UTF-8(delegation.token.secret.key),
 * data = UTF-8(tokenId)) (DelegationTokenControlManager#createHmac) and looks tokens up by
 * the standard Base64 of that HMAC. The policy core must run in the browser as well as in
 * Node, without WebCrypto's async API, so the digest is computed here. Each 64-bit word is a
 * pair of 32-bit halves (hi, lo) in plain numbers: a token export can hold thousands of tokens
 * whose HMACs are derived on every CLI call, so this has to be fast (BigInt words were ~1 ms
 * per HMAC; halves are ~50x faster).
 */

const K_HEX: readonly string[] = [
  "428a2f98d728ae22",
  "7137449123ef65cd",
  "b5c0fbcfec4d3b2f",
  "e9b5dba58189dbbc",
  "3956c25bf348b538",
  "59f111f1b605d019",
  "923f82a4af194f9b",
  "ab1c5ed5da6d8118",
  "d807aa98a3030242",
  "12835b0145706fbe",
  "243185be4ee4b28c",
  "550c7dc3d5ffb4e2",
  "72be5d74f27b896f",
  "80deb1fe3b1696b1",
  "9bdc06a725c71235",
  "c19bf174cf692694",
  "e49b69c19ef14ad2",
  "efbe4786384f25e3",
  "0fc19dc68b8cd5b5",
  "240ca1cc77ac9c65",
  "2de92c6f592b0275",
  "4a7484aa6ea6e483",
  "5cb0a9dcbd41fbd4",
  "76f988da831153b5",
  "983e5152ee66dfab",
  "a831c66d2db43210",
  "b00327c898fb213f",
  "bf597fc7beef0ee4",
  "c6e00bf33da88fc2",
  "d5a79147930aa725",
  "06ca6351e003826f",
  "142929670a0e6e70",
  "27b70a8546d22ffc",
  "2e1b21385c26c926",
  "4d2c6dfc5ac42aed",
  "53380d139d95b3df",
  "650a73548baf63de",
  "766a0abb3c77b2a8",
  "81c2c92e47edaee6",
  "92722c851482353b",
  "a2bfe8a14cf10364",
  "a81a664bbc423001",
  "c24b8b70d0f89791",
  "c76c51a30654be30",
  "d192e819d6ef5218",
  "d69906245565a910",
  "f40e35855771202a",
  "106aa07032bbd1b8",
  "19a4c116b8d2d0c8",
  "1e376c085141ab53",
  "2748774cdf8eeb99",
  "34b0bcb5e19b48a8",
  "391c0cb3c5c95a63",
  "4ed8aa4ae3418acb",
  "5b9cca4f7763e373",
  "682e6ff3d6b2b8a3",
  "748f82ee5defb2fc",
  "78a5636f43172f60",
  "84c87814a1f0ab72",
  "8cc702081a6439ec",
  "90befffa23631e28",
  "a4506cebde82bde9",
  "bef9a3f7b2c67915",
  "c67178f2e372532b",
  "ca273eceea26619c",
  "d186b8c721c0c207",
  "eada7dd6cde0eb1e",
  "f57d4f7fee6ed178",
  "06f067aa72176fba",
  "0a637dc5a2c898a6",
  "113f9804bef90dae",
  "1b710b35131c471b",
  "28db77f523047d84",
  "32caab7b40c72493",
  "3c9ebe0a15c9bebc",
  "431d67c49c100d4c",
  "4cc5d4becb3e42b6",
  "597f299cfc657e2a",
  "5fcb6fab3ad6faec",
  "6c44198c4a475817",
];

const H0_HEX: readonly string[] = [
  "6a09e667f3bcc908",
  "bb67ae8584caa73b",
  "3c6ef372fe94f82b",
  "a54ff53a5f1d36f1",
  "510e527fade682d1",
  "9b05688c2b3e6c1f",
  "1f83d9abfb41bd6b",
  "5be0cd19137e2179",
];

const hiOf = (hex: string) => parseInt(hex.slice(0, 8), 16) | 0;
const loOf = (hex: string) => parseInt(hex.slice(8), 16) | 0;
const KH = Int32Array.from(K_HEX, hiOf);
const KL = Int32Array.from(K_HEX, loOf);
const H0H = Int32Array.from(H0_HEX, hiOf);
const H0L = Int32Array.from(H0_HEX, loOf);

const TWO_32 = 0x100000000;

/** High and low halves of the 64-bit rotate-right of (h, l) by n (0 < n < 64, n !== 32). */
const rotrH = (h: number, l: number, n: number) =>
  n < 32 ? (h >>> n) | (l << (32 - n)) : (l >>> (n - 32)) | (h << (64 - n));
const rotrL = (h: number, l: number, n: number) =>
  n < 32 ? (l >>> n) | (h << (32 - n)) : (h >>> (n - 32)) | (l << (64 - n));

const read32 = (b: Uint8Array, i: number) => (b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!;

/** SHA-512 digest (64 bytes) of `message`. */
export function sha512(message: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil((message.length + 17) / 128) * 128);
  padded.set(message);
  padded[message.length] = 0x80;
  const bits = message.length * 8; // < 2^53: the 128-bit length's upper 64 bits stay zero
  const bitsHi = Math.floor(bits / TWO_32);
  const end = padded.length;
  for (let i = 0; i < 4; i++) {
    padded[end - 8 + i] = (bitsHi >>> (24 - 8 * i)) & 0xff;
    padded[end - 4 + i] = (bits >>> (24 - 8 * i)) & 0xff;
  }

  const hh = Int32Array.from(H0H);
  const hl = Int32Array.from(H0L);
  const wh = new Int32Array(80);
  const wl = new Int32Array(80);
  for (let block = 0; block < padded.length; block += 128) {
    for (let t = 0; t < 16; t++) {
      wh[t] = read32(padded, block + t * 8);
      wl[t] = read32(padded, block + t * 8 + 4);
    }
    for (let t = 16; t < 80; t++) {
      const h15 = wh[t - 15]!,
        l15 = wl[t - 15]!,
        h2 = wh[t - 2]!,
        l2 = wl[t - 2]!;
      const s0h = rotrH(h15, l15, 1) ^ rotrH(h15, l15, 8) ^ (h15 >>> 7);
      const s0l = rotrL(h15, l15, 1) ^ rotrL(h15, l15, 8) ^ ((l15 >>> 7) | (h15 << 25));
      const s1h = rotrH(h2, l2, 19) ^ rotrH(h2, l2, 61) ^ (h2 >>> 6);
      const s1l = rotrL(h2, l2, 19) ^ rotrL(h2, l2, 61) ^ ((l2 >>> 6) | (h2 << 26));
      const lo = (wl[t - 16]! >>> 0) + (s0l >>> 0) + (wl[t - 7]! >>> 0) + (s1l >>> 0);
      wh[t] = (wh[t - 16]! + s0h + wh[t - 7]! + s1h + Math.floor(lo / TWO_32)) | 0;
      wl[t] = lo | 0;
    }
    let ah = hh[0]!,
      al = hl[0]!,
      bh = hh[1]!,
      bl = hl[1]!,
      ch = hh[2]!,
      cl = hl[2]!,
      dh = hh[3]!,
      dl = hl[3]!;
    let eh = hh[4]!,
      el = hl[4]!,
      fh = hh[5]!,
      fl = hl[5]!,
      gh = hh[6]!,
      gl = hl[6]!,
      xh = hh[7]!,
      xl = hl[7]!;
    for (let t = 0; t < 80; t++) {
      const S1h = rotrH(eh, el, 14) ^ rotrH(eh, el, 18) ^ rotrH(eh, el, 41);
      const S1l = rotrL(eh, el, 14) ^ rotrL(eh, el, 18) ^ rotrL(eh, el, 41);
      const chH = (eh & fh) ^ (~eh & gh);
      const chL = (el & fl) ^ (~el & gl);
      const t1lo = (xl >>> 0) + (S1l >>> 0) + (chL >>> 0) + (KL[t]! >>> 0) + (wl[t]! >>> 0);
      const t1h = (xh + S1h + chH + KH[t]! + wh[t]! + Math.floor(t1lo / TWO_32)) | 0;
      const t1l = t1lo | 0;
      const S0h = rotrH(ah, al, 28) ^ rotrH(ah, al, 34) ^ rotrH(ah, al, 39);
      const S0l = rotrL(ah, al, 28) ^ rotrL(ah, al, 34) ^ rotrL(ah, al, 39);
      const majH = (ah & bh) ^ (ah & ch) ^ (bh & ch);
      const majL = (al & bl) ^ (al & cl) ^ (bl & cl);
      const t2lo = (S0l >>> 0) + (majL >>> 0);
      const t2h = (S0h + majH + Math.floor(t2lo / TWO_32)) | 0;
      const t2l = t2lo | 0;
      xh = gh;
      xl = gl;
      gh = fh;
      gl = fl;
      fh = eh;
      fl = el;
      const elo = (dl >>> 0) + (t1l >>> 0);
      eh = (dh + t1h + Math.floor(elo / TWO_32)) | 0;
      el = elo | 0;
      dh = ch;
      dl = cl;
      ch = bh;
      cl = bl;
      bh = ah;
      bl = al;
      const alo = (t1l >>> 0) + (t2l >>> 0);
      ah = (t1h + t2h + Math.floor(alo / TWO_32)) | 0;
      al = alo | 0;
    }
    const nh = [ah, bh, ch, dh, eh, fh, gh, xh];
    const nl = [al, bl, cl, dl, el, fl, gl, xl];
    for (let i = 0; i < 8; i++) {
      const lo = (hl[i]! >>> 0) + (nl[i]! >>> 0);
      hh[i] = (hh[i]! + nh[i]! + Math.floor(lo / TWO_32)) | 0;
      hl[i] = lo | 0;
    }
  }

  const out = new Uint8Array(64);
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 4; j++) {
      out[i * 8 + j] = (hh[i]! >>> (24 - 8 * j)) & 0xff;
      out[i * 8 + 4 + j] = (hl[i]! >>> (24 - 8 * j)) & 0xff;
    }
  }
  return out;
}

const BLOCK_SIZE = 128;

/** HMAC-SHA512(key, data), as javax.crypto.Mac "HmacSHA512" computes it. */
export function hmacSha512(key: Uint8Array, data: Uint8Array): Uint8Array {
  const k = key.length > BLOCK_SIZE ? sha512(key) : key;
  const inner = new Uint8Array(BLOCK_SIZE + data.length);
  const outer = new Uint8Array(BLOCK_SIZE + 64);
  for (let i = 0; i < BLOCK_SIZE; i++) {
    const byte = k[i] ?? 0;
    inner[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  inner.set(data, BLOCK_SIZE);
  outer.set(sha512(inner), BLOCK_SIZE);
  return sha512(outer);
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard Base64 with padding (java.util.Base64.getEncoder()). */
export function toBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2];
    const n = (b0 << 16) | ((b1 ?? 0) << 8) | (b2 ?? 0);
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]!;
    out += b1 === undefined ? "=" : BASE64[(n >> 6) & 63]!;
    out += b2 === undefined ? "=" : BASE64[n & 63]!;
  }
  return out;
}

/**
 * UTF-8 bytes of a string as Java's String.getBytes(StandardCharsets.UTF_8) produces them:
 * a lone surrogate becomes `?` (0x3F), where TextEncoder would write U+FFFD.
 */
export function utf8(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        out.push(0x3f);
        continue;
      }
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      out.push(0x3f);
      continue;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

/**
 * The token HMAC as Kafka stores and looks it up: Base64(HmacSHA512(UTF-8(secret), UTF-8(tokenId))).
 */
export function tokenHmac(secretKey: string, tokenId: string): string {
  return toBase64(hmacSha512(utf8(secretKey), utf8(tokenId)));
}
