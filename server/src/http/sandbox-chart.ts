/**
 * The sandbox paid API's image: a small bar chart of the demo report's weekly paid requests, as
 * a PNG (8-bit greyscale, drawn here, compressed with node:zlib). Made anew each call from fixed
 * figures, so every call answers the same bytes: a test can compare what an agent received with
 * what the seller sent.
 */
import { crc32, deflateSync } from 'node:zlib';

const WIDTH = 64;
const HEIGHT = 32;
/** Paid requests per weekday, in thousands: the bars. */
const BARS = [12, 15, 14, 19, 22, 17, 21];
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const SANDBOX_CHART_MEDIA_TYPE = 'image/png';

export function sandboxChartPng(): Buffer {
  const top = Math.max(...BARS);
  const barWidth = Math.floor(WIDTH / BARS.length);
  const rows: Buffer[] = [];
  for (let y = 0; y < HEIGHT; y++) {
    // Each scanline starts with its filter type (0: none); white background, black bars.
    const row = Buffer.alloc(1 + WIDTH, 0xff);
    row[0] = 0;
    BARS.forEach((value, index) => {
      const barTop = HEIGHT - Math.round((value / top) * (HEIGHT - 2));
      if (y < barTop) return;
      for (let x = index * barWidth + 1; x < (index + 1) * barWidth - 1; x++) row[1 + x] = 0x20;
    });
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 0, 0, 0, 0], 8); // bit depth 8, greyscale, deflate, adaptive filtering, no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, checksum]);
}
