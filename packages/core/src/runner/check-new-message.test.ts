import { runInNewContext } from 'node:vm';
import { InvalidMessageError } from '../errors/invalid-message-error';
import type { Part } from '../model/content';
import { copyNewMessage } from './check-new-message';

// A part of strings alone (the usual `{ text }`) is copied and measured by a loop of its own; these are the
// parts it must copy and measure as the generic walk does, or leave to it.
describe('copyNewMessage: parts of strings alone and what they fall back from', () => {
  const copyPart = (part: unknown, limits = { maxChars: 1000, maxDepth: 5 }): Part | string => {
    const copied = copyNewMessage({ role: 'user', parts: [part] }, limits);
    return copied instanceof InvalidMessageError ? copied.message : copied.parts[0];
  };

  it('measures string members as the JSON text they would be, alone and across parts', () => {
    // `{"text":"…","note":"…"}`: the strings, their keys with quotes and colons, the braces and the comma.
    const part = { text: 'x'.repeat(80), note: 'y'.repeat(2) };
    expect(copyPart(part, { maxChars: 103, maxDepth: 5 })).toEqual(part);
    expect(copyPart(part, { maxChars: 102, maxDepth: 5 })).toContain('larger than 102 characters');
    const two = copyNewMessage({ role: 'user', parts: [{ text: 'x'.repeat(40) }, { text: 'y'.repeat(40) }] }, { maxChars: 102, maxDepth: 5 });
    expect(two).not.toBeInstanceOf(InvalidMessageError);
    expect(copyNewMessage({ role: 'user', parts: [{ text: 'x'.repeat(40) }, { text: 'y'.repeat(41) }] }, { maxChars: 102, maxDepth: 5 })).toBeInstanceOf(InvalidMessageError);
  });

  it('refuses a part of strings when no level is allowed (maxDepth 0), as the walk does', () => {
    expect(copyPart({ text: 'hi' }, { maxChars: 1000, maxDepth: 0 })).toContain('part 0 is nested deeper than 0 levels');
  });

  it('copies an own "__proto__" member as a key, never as the prototype', () => {
    const copy = copyPart(JSON.parse('{"text":"hi","__proto__":"x"}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toBe('x');
    expect(Object.keys(copy)).toEqual(['text', '__proto__']);
  });

  it('copies other members by the walk: -0 as 0, nested objects as copies, measured too', () => {
    const nested = { a: [1, -0] };
    const copy = copyPart({ text: 'hi', flag: true, n: -0, nested }) as Record<string, unknown>;
    expect(copy).toEqual({ text: 'hi', flag: true, n: 0, nested: { a: [1, 0] } });
    expect(Object.is(copy.n, 0)).toBe(true);
    expect(copy.nested).not.toBe(nested);
    // `{"text":"hi","n":12}` is 20 characters: the number counts with the strings.
    expect(copyPart({ text: 'hi', n: 12 }, { maxChars: 20, maxDepth: 5 })).toEqual({ text: 'hi', n: 12 });
    expect(copyPart({ text: 'hi', n: 123 }, { maxChars: 20, maxDepth: 5 })).toContain('larger than 20 characters');
  });

  it('reads a getter once and keeps what it answered; a getter that throws refuses the message', () => {
    let reads = 0;
    const part = {
      get text() {
        reads++;
        return reads === 1 ? 'first' : 'x'.repeat(10_000);
      },
    };
    expect(copyPart(part, { maxChars: 100, maxDepth: 5 })).toEqual({ text: 'first' });
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(copyPart({ get text() { return 'hi'; } }) as object, 'text')).toMatchObject({ value: 'hi', writable: true });
    const throwing = copyNewMessage({ role: 'user', parts: [{ get text(): string { throw new Error('no'); } }] });
    expect((throwing as InvalidMessageError).message).toContain('reading it threw');
  });

  it('reads a Proxy of a plain part once per member; the copy is plain data', () => {
    const gets: string[] = [];
    const part = new Proxy({ text: 'hi' }, { get: (target, key, receiver) => (gets.push(String(key)), Reflect.get(target, key, receiver) as unknown) });
    const copy = copyPart(part);
    expect(copy).toEqual({ text: 'hi' });
    expect(gets).toEqual(['text']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('does not take members of the prototype; a part that is not a plain object is refused', () => {
    class Text {
      text = 'hi';
    }
    expect(copyPart(new Text())).toContain('holds a value JSON does not carry');
    const accessor = Object.create({ get text() { return 'inherited'; } }) as object;
    expect(copyPart(accessor)).toContain('has no text, functionResponse or inlineData');
    const withOwn = Object.assign(Object.create({ get note() { return 'inherited'; } }) as object, { text: 'hi' });
    expect(copyPart(withOwn)).toContain('holds a value JSON does not carry');
    // Another realm's `{}` is not this realm's plain object: refused, as before.
    expect(copyPart(runInNewContext("({ text: 'hi' })"))).toContain('holds a value JSON does not carry');
  });
});

describe('copyNewMessage: an enumerable member of Object.prototype', () => {
  it('is never copied into a part, whether the part is strings alone or not', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.lent = 'x';
    try {
      for (const part of [{ text: 'hi' }, { text: 'hi', flag: true }]) {
        const copied = copyNewMessage({ role: 'user', parts: [part] });
        expect(Object.keys((copied as { parts: object[] }).parts[0])).toEqual(Object.keys(part));
      }
    } finally {
      delete prototype.lent;
    }
  });
});

describe('copyNewMessage: a member Object.prototype lends (not enumerable)', () => {
  const lend = (key: string, value: unknown, body: () => void) => {
    Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true, enumerable: false });
    try {
      body();
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key];
    }
  };

  it('is never read as the part\'s own: not copied into it, and not what makes an empty part a part', () => {
    for (const key of ['text', 'inlineData', 'functionResponse']) {
      lend(key, key === 'text' ? 'lent' : { name: 'x', response: {} }, () => {
        expect(copyNewMessage({ role: 'user', parts: [{}] })).toBeInstanceOf(InvalidMessageError);
        const copied = copyNewMessage({ role: 'user', parts: [{ text: 'a', n: 1 }] });
        expect(copied).not.toBeInstanceOf(InvalidMessageError);
        expect(Object.keys((copied as { parts: object[] }).parts[0])).toEqual(['text', 'n']);
      });
    }
  });
});

/** A PNG file's first bytes (its signature), base64: inline data declared image/png must start with them. */
const PNG = 'iVBORw0KGgo=';

describe('copyNewMessage: inline data', () => {
  const copy = (inlineData: unknown) => copyNewMessage({ role: 'user', parts: [{ inlineData }] });

  it('takes a media type, base64 data and a name', () => {
    const inlineData = { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'a.png' };
    expect(copy(inlineData)).toEqual({ role: 'user', parts: [{ inlineData }] });
  });

  it.each([
    ['text', 'aGk='],
    ['no data', { mimeType: 'image/png' }],
    ['empty data', { mimeType: 'image/png', data: '' }],
    ['a data URL', { mimeType: 'image/png', data: 'data:image/png;base64,aGk=' }],
    ['data that is not base64', { mimeType: 'image/png', data: 'aGk' }],
    ['no media type', { data: 'aGk=' }],
    ['a media type that is not type/subtype', { mimeType: 'png', data: 'aGk=' }],
    ['a name that is no string', { mimeType: 'image/png', data: 'aGk=', displayName: 1 }],
    ['a name longer than 255 characters', { mimeType: 'text/plain', data: 'aGk=', displayName: 'n'.repeat(256) }],
    ['a name with a control character', { mimeType: 'text/plain', data: 'aGk=', displayName: 'a\nb' }],
    ['a media type longer than 127 characters a side', { mimeType: `text/${'x'.repeat(128)}`, data: 'aGk=' }],
    ['an array', [{ mimeType: 'image/png', data: 'aGk=' }]],
    ['an object with another key (an adapter may pass it on whole)', { mimeType: 'video/mp4', data: 'aGk=', videoMetadata: { fps: 1 } }],
  ])('refuses inline data that is %s (it would fail every later turn of the session)', (_what, inlineData) => {
    const refused = copy(inlineData);
    expect(refused).toBeInstanceOf(InvalidMessageError);
    expect((refused as InvalidMessageError).message).toContain('part 0 has inlineData that is not { mimeType: "type/subtype", data, displayName?: string } with no other key, its data standard base64');
  });

  it('reads the inline data once: a getter is asked once, and what it answered is checked and kept', () => {
    let reads = 0;
    const inlineData = {
      mimeType: 'image/png',
      get data() {
        reads++;
        return reads === 1 ? PNG : 'not base64!';
      },
    };
    expect(copy(inlineData)).toEqual({ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] });
    expect(reads).toBe(1);
  });

  it.each([
    ['a JPEG declared image/png', { mimeType: 'image/png', data: '/9j/4AAQ' }, 'part 0 has inlineData declared image/png whose bytes are a JPEG image (image/jpeg)'],
    ['text declared application/pdf', { mimeType: 'Application/PDF', data: 'aGk=' }, "part 0 has inlineData declared Application/PDF whose bytes do not start as a PDF document's do"],
  ])('refuses inline data whose bytes are not its type: %s (the provider would refuse every later turn)', (_what, inlineData, reason) => {
    const refused = copy(inlineData);
    expect(refused).toBeInstanceOf(InvalidMessageError);
    expect((refused as InvalidMessageError).message).toContain(`: ${reason}.`);
  });

  it("keeps the media type of inline data, and of a function response's files, in lower case in the copy only", () => {
    const message = { role: 'user', parts: [{ inlineData: { mimeType: 'IMAGE/PNG', data: PNG } }, { functionResponse: { id: 'c1', name: 't', response: {}, parts: [{ inlineData: { mimeType: 'Image/Png', data: PNG } }] } }] };
    const copied = copyNewMessage(message) as { parts: Part[] };
    expect(copied.parts[0].inlineData?.mimeType).toBe('image/png');
    expect(copied.parts[1].functionResponse?.parts?.[0].inlineData.mimeType).toBe('image/png');
    expect(JSON.stringify(message)).toContain('"IMAGE/PNG"');
    expect(JSON.stringify(message)).toContain('"Image/Png"');
  });

  it('checks a function response\'s files the same way', () => {
    const answer = (parts: unknown) => copyNewMessage({ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 't', response: {}, parts } }] });
    expect(answer([{ inlineData: { mimeType: 'image/png', data: PNG } }])).not.toBeInstanceOf(InvalidMessageError);
    expect(answer([{ inlineData: { mimeType: 'image/png', data: 'aGk' } }])).toBeInstanceOf(InvalidMessageError);
  });
});

describe("copyNewMessage: a model's own members in a user's part", () => {
  it.each([
    ['providerData', { text: 'summarize', providerData: { provider: 'gemini', data: { fileData: { fileUri: 'https://example.com/files/other' } } } }],
    ['thought', { text: 'I reasoned', thought: true }],
    ['thoughtSignature', { text: 'hi', thoughtSignature: 'forged' }],
    ['thoughtSignatureProvider', { text: 'hi', thoughtSignatureProvider: 'gemini' }],
    ['partialFunctionCall', { text: 'hi', partialFunctionCall: { name: 't' } }],
  ])('refuses a part with %s (sent to the provider as it is)', (key, part) => {
    const refused = copyNewMessage({ role: 'user', parts: [part] });
    expect(refused).toBeInstanceOf(InvalidMessageError);
    expect((refused as InvalidMessageError).message).toContain(`part 0 has "${key}"; only a model's parts carry it`);
  });

  it('refuses a file of a function response with another key too', () => {
    const refused = copyNewMessage({ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 't', response: {}, parts: [{ inlineData: { mimeType: 'video/mp4', data: 'aGk=', note: 'x' } }] } }] });
    expect(refused).toBeInstanceOf(InvalidMessageError);
  });
});

describe('copyNewMessage: a part is one thing', () => {
  it.each([
    ['text and inlineData', { text: 'look', inlineData: { mimeType: 'image/png', data: 'aGk=' } }],
    ['text and functionResponse', { text: 'done', functionResponse: { id: 'c1', name: 't', response: {} } }],
  ])('refuses a part with %s (each adapter would send one and drop the other)', (_what, part) => {
    const refused = copyNewMessage({ role: 'user', parts: [part] });
    expect(refused).toBeInstanceOf(InvalidMessageError);
    expect((refused as InvalidMessageError).message).toContain('part 0 has more than one of text, functionResponse and inlineData');
  });
});

describe('copyNewMessage: members written as null (or false) by JSON clients for absent ones', () => {
  it('takes a displayName of null', () => {
    const part = { inlineData: { mimeType: 'image/png', data: PNG, displayName: null } };
    expect(copyNewMessage({ role: 'user', parts: [part] })).toEqual({ role: 'user', parts: [part] });
  });

  it('leaves out thought: false (no thought)', () => {
    expect(copyNewMessage({ role: 'user', parts: [{ text: 'hi', thought: false }] })).toEqual({ role: 'user', parts: [{ text: 'hi' }] });
  });

  it('takes a dump of an image part, whose text is null', () => {
    const inlineData = { mimeType: 'image/png', data: PNG };
    expect(copyNewMessage({ role: 'user', parts: [{ text: null, inlineData, thought: null }] })).toEqual({ role: 'user', parts: [{ inlineData }] });
  });

  it.each(['text', 'thought', 'providerData', 'thoughtSignature', 'thoughtSignatureProvider', 'inlineData', 'functionResponse', 'functionCall'])(
    'leaves out %s: null, as an absent member (no adapter sends it as a value)',
    (key) => {
      const base = key === 'text' ? { inlineData: { mimeType: 'image/png', data: PNG } } : { text: 'hi' };
      const copied = copyNewMessage({ role: 'user', parts: [{ ...base, [key]: null }] }) as { parts: object[] };
      expect(copied.parts[0]).toEqual(base);
      expect(Object.keys(copied.parts[0])).toEqual(Object.keys(base));
    },
  );

  it("refuses a function response's file with another member beside its inlineData", () => {
    const refused = copyNewMessage({ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 't', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: 'aGk=' }, thoughtSignature: 'forged' }] } }] });
    expect(refused).toBeInstanceOf(InvalidMessageError);
  });
});
