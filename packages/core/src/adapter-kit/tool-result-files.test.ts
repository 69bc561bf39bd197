import { base64Bytes, unsupportedInlineDataNote } from './tool-result-files';

describe('base64Bytes', () => {
  it('counts the bytes of padded base64', () => {
    expect([base64Bytes(''), base64Bytes('QQ=='), base64Bytes('QUI='), base64Bytes('QUJD')]).toEqual([0, 1, 2, 3]);
  });

  it('is a whole number for data that is not whole 4-character groups (stored before it was checked)', () => {
    expect([base64Bytes('QQ'), base64Bytes('QUI'), base64Bytes('QUJD\n')]).toEqual([1, 2, 3]);
  });
});

describe('unsupportedInlineDataNote', () => {
  it('says "1 byte", not "1 bytes"', () => {
    expect(unsupportedInlineDataNote({ mimeType: 'audio/wav', data: 'AA==' }, 'Acme')).toContain('(audio/wav, 1 byte)');
  });

  it('names the file, its type and size, and why it was left out', () => {
    expect(unsupportedInlineDataNote({ mimeType: 'audio/wav', data: 'QUI', displayName: 'memo.wav' }, 'Acme')).toBe(
      '[A file "memo.wav" (audio/wav, 2 bytes) was sent here; it was left out, as files of this type are not sent to Acme in a message.]',
    );
  });
});
