/** A PNG of `width` by `height` pixels as base64, as far as its header tells (signature, IHDR, IEND; no pixels): what Anthropic's size limits read. */
export function pngOfSize(width: number, height: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  Buffer.from([8, 6, 0, 0, 0]).copy(header, 24);
  return Buffer.concat([header, Buffer.from('0000000049454e44ae426082', 'hex')]).toString('base64');
}
