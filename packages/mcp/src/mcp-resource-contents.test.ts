import { resourceFileName } from './mcp-resource-contents';

describe('resourceFileName: a remote resource named as a file is kept', () => {
  it('names it by the last segment of its path, decoded, never by its query or fragment', () => {
    expect(resourceFileName('https://files.example/reports/q3%20sales.pdf?sig=SECRET#page=2')).toBe('q3 sales.pdf');
  });

  it('replaces separators and control characters, and cuts a name over 255 characters keeping its extension', () => {
    expect(resourceFileName('file:///notes/a%2Fb%0Ac.txt')).toBe('a_b_c.txt');
    const long = resourceFileName(`https://x.example/${'n'.repeat(600)}.pdf`);
    expect(long).toHaveLength(255);
    expect(long.endsWith('n….pdf')).toBe(true);
    const emoji = resourceFileName(`file:///d/a${'😀'.repeat(200)}.pdf`);
    expect(emoji.length).toBeLessThanOrEqual(255);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(emoji.endsWith('😀….pdf')).toBe(true);
    expect(resourceFileName('file:///d/x%E2%80%A8%C2%85%E2%80%AEy.txt')).toBe('x___y.txt');
  });
});
