// A QR code of a link, for a phone's camera (the Share sheet). Written out
// here rather than taken from a library (no bundler, no dependencies):
// byte mode, error correction level M (15% of the code may be unreadable),
// versions 1 to 10 (up to 213 bytes: a share link is ~100), Reed-Solomon
// over GF(256), and the mask of the eight with the lowest penalty, as
// ISO/IEC 18004 describes. Tests/e2e/test_access.py decodes the page's
// code with zxing-cpp.

const M_FORMAT = 0; // the two error correction bits of level M
/** Per version 1-10: codewords in all, error correction codewords per block (level M), blocks (level M). */
const RAW_CODEWORDS = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346];
const EC_PER_BLOCK = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const BLOCKS = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
const ALIGNMENT = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
export const MAX_VERSION = 10;

function dataCodewords(version) {
  return RAW_CODEWORDS[version - 1] - EC_PER_BLOCK[version - 1] * BLOCKS[version - 1];
}

/** Multiplication in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1. */
function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

/** The generator polynomial of `degree` error correction codewords, highest term first (the leading 1 left out). */
function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 2);
  }
  return result;
}

/** The error correction codewords of `data`: the remainder of data·x^n divided by the generator. */
function rsRemainder(data, divisor) {
  const result = new Array(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift();
    result.push(0);
    for (let i = 0; i < divisor.length; i++) result[i] ^= gfMultiply(divisor[i], factor);
  }
  return result;
}

/** The data codewords: mode, length, the bytes, terminator and padding. */
function encodeData(bytes, version) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4); // byte mode
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  const capacity = dataCodewords(version) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const codewords = [];
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; codewords.length < capacity / 8; pad ^= 0xec ^ 0x11) codewords.push(pad);
  return codewords;
}

/** Splits the data into blocks, adds each block's error correction, and interleaves them. */
function addErrorCorrection(data, version) {
  const blocks = BLOCKS[version - 1];
  const ecLength = EC_PER_BLOCK[version - 1];
  const raw = RAW_CODEWORDS[version - 1];
  const shortBlocks = blocks - (raw % blocks);
  const shortLength = Math.floor(raw / blocks) - ecLength;
  const divisor = rsDivisor(ecLength);
  const dataBlocks = [];
  const ecBlocks = [];
  for (let i = 0, offset = 0; i < blocks; i++) {
    const length = shortLength + (i < shortBlocks ? 0 : 1);
    const block = data.slice(offset, offset + length);
    offset += length;
    dataBlocks.push(block);
    ecBlocks.push(rsRemainder(block, divisor));
  }
  const result = [];
  for (let i = 0; i <= shortLength; i++) {
    for (const block of dataBlocks) if (i < block.length) result.push(block[i]);
  }
  for (let i = 0; i < ecLength; i++) for (const block of ecBlocks) result.push(block[i]);
  return result;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class Grid {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = new Uint8Array(this.size * this.size);
    this.isFunction = new Uint8Array(this.size * this.size);
  }
  get(x, y) {
    return this.dark[y * this.size + x] === 1;
  }
  setFunction(x, y, dark) {
    this.dark[y * this.size + x] = dark ? 1 : 0;
    this.isFunction[y * this.size + x] = 1;
  }

  drawFunctionPatterns() {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.setFunction(6, i, i % 2 === 0);
      this.setFunction(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      // The finder and its light separator.
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          const distance = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < size && y >= 0 && y < size) this.setFunction(x, y, distance !== 2 && distance !== 4);
        }
      }
    }
    const positions = ALIGNMENT[this.version - 1];
    const last = positions.length - 1;
    positions.forEach((cx, i) => {
      positions.forEach((cy, j) => {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) this.setFunction(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
        }
      });
    });
    this.drawFormat(0); // reserves the area; drawn again with the chosen mask
    if (this.version >= 7) {
      let remainder = this.version;
      for (let i = 0; i < 12; i++) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
      const bits = (this.version << 12) | remainder;
      for (let i = 0; i < 18; i++) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.setFunction(a, b, dark);
        this.setFunction(b, a, dark);
      }
    }
  }

  /** The 15 format bits (level M, `mask`, BCH-protected) in both copies, and the dark module. */
  drawFormat(mask) {
    const data = (M_FORMAT << 3) | mask;
    let remainder = data;
    for (let i = 0; i < 10; i++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
    const bits = ((data << 10) | remainder) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const size = this.size;
    for (let i = 0; i <= 5; i++) this.setFunction(8, i, bit(i));
    this.setFunction(8, 7, bit(6));
    this.setFunction(8, 8, bit(7));
    this.setFunction(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.setFunction(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.setFunction(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.setFunction(8, size - 15 + i, bit(i));
    this.setFunction(8, size - 8, true);
  }

  /** The codewords' bits in the zigzag order, two columns at a time from the right, skipping the timing column. */
  drawCodewords(codewords) {
    const size = this.size;
    let index = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let vertical = 0; vertical < size; vertical++) {
        const y = upward ? size - 1 - vertical : vertical;
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          if (this.isFunction[y * size + x] || index >= codewords.length * 8) continue;
          this.dark[y * size + x] = (codewords[index >>> 3] >>> (7 - (index & 7))) & 1;
          index++;
        }
      }
    }
  }

  applyMask(mask) {
    const size = this.size;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (!this.isFunction[y * size + x] && MASKS[mask](x, y)) this.dark[y * size + x] ^= 1;
      }
    }
  }

  /** ISO/IEC 18004's penalty: long runs, 2×2 blocks, finder-like patterns, and imbalance of dark and light. */
  penalty() {
    const size = this.size;
    let score = 0;
    const line = (get) => {
      let run = 1;
      const values = [];
      for (let i = 0; i < size; i++) values.push(get(i) ? 1 : 0);
      for (let i = 1; i <= size; i++) {
        if (i < size && values[i] === values[i - 1]) {
          run++;
        } else {
          if (run >= 5) score += 3 + run - 5;
          run = 1;
        }
      }
      const text = values.join('');
      for (const pattern of ['10111010000', '00001011101']) {
        for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) score += 40;
      }
    };
    for (let y = 0; y < size; y++) line((x) => this.get(x, y));
    for (let x = 0; x < size; x++) line((y) => this.get(x, y));
    let dark = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (this.get(x, y)) dark++;
        if (x + 1 < size && y + 1 < size) {
          const c = this.get(x, y);
          if (c === this.get(x + 1, y) && c === this.get(x, y + 1) && c === this.get(x + 1, y + 1)) score += 3;
        }
      }
    }
    const total = size * size;
    score += 10 * Math.floor(Math.abs(dark * 20 - total * 10) / total);
    return score;
  }
}

/**
 * The QR code of `text` (UTF-8, byte mode, level M) in the smallest version
 * that holds it: `{size, version, mask, dark(x, y)}`. Throws past version 10.
 */
export function encodeQR(text) {
  const bytes = Array.from(new TextEncoder().encode(text));
  let version = 1;
  while (version <= MAX_VERSION && 4 + (version <= 9 ? 8 : 16) + bytes.length * 8 > dataCodewords(version) * 8) version++;
  if (version > MAX_VERSION) {
    throw new Error(`The link is ${bytes.length} bytes, more than a QR code of version ${MAX_VERSION} holds (${dataCodewords(MAX_VERSION) - 3})`);
  }
  const codewords = addErrorCorrection(encodeData(bytes, version), version);
  const grid = new Grid(version);
  grid.drawFunctionPatterns();
  grid.drawCodewords(codewords);
  let best = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    grid.applyMask(mask);
    grid.drawFormat(mask);
    const penalty = grid.penalty();
    if (penalty < bestPenalty) {
      best = mask;
      bestPenalty = penalty;
    }
    grid.applyMask(mask); // XOR again: undone
  }
  grid.applyMask(best);
  grid.drawFormat(best);
  return { size: grid.size, version, mask: best, dark: (x, y) => grid.get(x, y) };
}

/** Draws `text`'s QR code on `canvas`, black on white with the 4-module quiet zone, `scale` device pixels a module. */
export function drawQR(canvas, text, scale = 6) {
  const code = encodeQR(text);
  const side = (code.size + 8) * scale;
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, side, side);
  context.fillStyle = '#000';
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) if (code.dark(x, y)) context.fillRect((x + 4) * scale, (y + 4) * scale, scale, scale);
  }
  return code;
}
