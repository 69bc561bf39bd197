import type { Content, InlineData } from '@toolsmith/core';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';
import { pngOfSize } from './__fixtures__/png-of-size';

describe('convertToAnthropicMessages', () => {
  it('puts the system instruction in `system` and maps roles', () => {
    expect(
      convertToAnthropicMessages(
        [
          { role: 'user', parts: [{ text: 'Hi' }] },
          { role: 'model', parts: [{ text: 'Hello!' }] },
        ],
        'You are terse.',
      ),
    ).toEqual({
      system: 'You are terse.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      ],
    });
  });

  it('merges consecutive same-role messages and drops empty text', () => {
    const { messages, system } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'user', parts: [{ text: '' }, { text: 'b' }] },
      { role: 'model', parts: [{ text: '' }] },
      { role: 'user', parts: [{ text: 'c' }] },
    ]);
    expect(system).toBeUndefined();
    expect(messages).toEqual([{ role: 'user', content: ['a', 'b', 'c'].map((text) => ({ type: 'text', text })) }]);
  });

  it('answers every tool_use with one tool_result, results first, in call order', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 't1', name: 'a', args: {} } },
          { functionCall: { id: 't2', name: 'b', args: 'not json' } },
        ],
      },
      { role: 'user', parts: [{ text: 'also this' }, { functionResponse: { id: 't1', name: 'a', response: { ok: true } } }] },
    ]);
    expect(messages[1].content).toEqual([
      { type: 'tool_use', id: 't1', name: 'a', input: {} },
      // Unparseable raw arguments cannot go back as `input`; the call was already answered with an error.
      { type: 'tool_use', id: 't2', name: 'b', input: {} },
    ]);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: '{"ok":true}' },
        { type: 'tool_result', tool_use_id: 't2', content: expect.stringContaining('MISSING_RESULT'), is_error: true },
        { type: 'text', text: 'also this' },
      ],
    });
  });

  it('sends thinking back with its signature and drops unsigned thoughts', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'pondering', thought: true, thoughtSignature: 'sig==' },
          { text: 'unsigned', thought: true },
          { text: 'answer' },
        ],
      },
    ]);
    expect(messages[1].content).toEqual([
      { type: 'thinking', thinking: 'pondering', signature: 'sig==' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it("sends back only Anthropic's own signed thinking: another provider's signature is dropped with its thought", () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'gemini thinks', thought: true, thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
          { text: 'claude thinks', thought: true, thoughtSignature: 'EqQB', thoughtSignatureProvider: 'anthropic' },
          { text: 'answer', thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
        ],
      },
    ]);
    expect(messages[1].content).toEqual([
      { type: 'thinking', thinking: 'claude thinks', signature: 'EqQB' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it('maps inline images, PDFs and UTF-8 text (media types without case), and sends a note in place of other media and of text that is not UTF-8, so the history stays sendable', () => {
    const { messages } = convertToAnthropicMessages([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'IMAGE/PNG', data: 'iVBO' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
          { inlineData: { mimeType: 'Text/Plain', data: Buffer.from('café ☕', 'utf8').toString('base64'), displayName: 'notes.txt' } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('café', 'latin1').toString('base64') } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('hi', 'utf16le').toString('base64') } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('\ufeffhi', 'utf16le').toString('base64') } },
          { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
        ],
      },
    ]);
    expect(messages[0].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'café ☕' } },
      { type: 'text', text: '[A file (text/plain, 4 bytes) was attached here; it was left out, as its bytes are not UTF-8 text.]' },
      { type: 'text', text: '[A file (text/plain, 4 bytes) was attached here; it was left out, as its bytes are not UTF-8 text.]' },
      { type: 'text', text: '[A file (text/plain, 6 bytes) was attached here; it was left out, as its bytes are not UTF-8 text.]' },
      { type: 'text', text: '[A file (audio/wav, 3 bytes) was attached here; it was left out, as files of this type are not sent to Anthropic in a message.]' },
    ]);
  });

  it('sends a note in place of a model turn\'s file (an assistant turn holds no images), of an image over 5 MB of base64, and of empty or blank text', () => {
    const big = 'A'.repeat(5 * 1024 * 1024 + 4);
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: big } }, { inlineData: { mimeType: 'text/plain', data: Buffer.from('\ufeff', 'utf8').toString('base64') } }, { inlineData: { mimeType: 'text/plain', data: Buffer.from(' \n\t ', 'utf8').toString('base64') } }] },
      { role: 'model', parts: [{ text: 'Here it is.' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[A file (image/png, 3932163 bytes) was attached here; it was left out, as images over 5 MB (of base64) are not sent to Anthropic.]' },
          { type: 'text', text: '[A file (text/plain, 3 bytes) was attached here; it was left out, as it holds no text.]' },
          { type: 'text', text: '[A file (text/plain, 4 bytes) was attached here; it was left out, as it holds no text.]' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Here it is.' },
          { type: 'text', text: '[A file (image/png, 3 bytes) the model gave was here; it was left out, as an assistant turn holds no files.]' },
        ],
      },
    ]);
  });

  describe("Anthropic's limits on an image's pixels (8000 a side; 2000 a side in a request of more than 20 images)", () => {
    const image = (width: number, height: number, displayName?: string): InlineData => ({ mimeType: 'image/png', data: pngOfSize(width, height), ...(displayName ? { displayName } : {}) });
    const sent = (file: InlineData) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: file.data } });
    const userImages = (files: InlineData[]): Content[] => [{ role: 'user', parts: files.map((inlineData) => ({ inlineData })) }];

    it('sends an image of 8000 pixels a side and a note in place of one over 8000 wide or high, in a message and in a tool result', () => {
      const fits = image(8000, 8000);
      const wide = image(8001, 10);
      const high = image(10, 12000, 'scan.png');
      const { messages } = convertToAnthropicMessages([
        ...userImages([fits, wide]),
        { role: 'model', parts: [{ functionCall: { id: 't1', name: 'render', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'render', response: {}, parts: [{ inlineData: high }, { inlineData: fits }] } }] },
      ]);
      expect(messages[0].content).toEqual([
        sent(fits),
        { type: 'text', text: "[A file (image/png, 45 bytes) was attached here; it was left out, as it is 8001x10 pixels, over Anthropic's limit of 8000 pixels a side.]" },
      ]);
      expect(messages[2].content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'text', text: '{}' },
            { type: 'text', text: '[The tool returned the file "scan.png" (image/png, 45 bytes); it was left out, as it is 10x12000 pixels, over Anthropic\'s limit of 8000 pixels a side.]' },
            sent(fits),
          ],
        },
      ]);
    });

    const note = (file: InlineData, reason: string) => ({ type: 'text', text: `[A file (image/png, ${Buffer.from(file.data, 'base64').length} bytes) was attached here; it is not sent in this request, as ${reason}.]` });
    const NEWEST_20 = 'Anthropic takes at most 20 images in a request holding one over 2000 pixels a side (the newest files are sent)';
    const over2000 = (size: string) => `it is ${size} pixels, and ${NEWEST_20}`;
    const PAST_28_MB = "the request's files would take it past 28 MB (Anthropic takes at most 32 MB a request) (the newest files are sent)";

    it('with more than 20 images and some over 2000 pixels a side, sends the newest 20', () => {
      const large = image(2001, 100);
      const tall = image(30, 2001, 'tall.png');
      const small = Array.from({ length: 19 }, (_, index) => image(2000, 2000 - index));
      const { messages } = convertToAnthropicMessages([
        ...userImages([large, ...small]),
        { role: 'model', parts: [{ functionCall: { id: 't1', name: 'render', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'render', response: {}, parts: [{ inlineData: tall }] } }] },
      ]);
      // 21 images, 2 over 2000 pixels: the newest (tall.png, a tool's) and 19 more are sent.
      expect(messages[0].content).toEqual([note(large, NEWEST_20), ...small.map(sent)]);
      expect(messages[2].content[0]).toMatchObject({ content: [{ type: 'text' }, sent(tall)] });
    });

    it('a computer-use agent with 2560x1440 screenshots: the newest 20 are sent, the oldest is a note', () => {
      const shots = Array.from({ length: 21 }, (_, index) => image(2560, 1440 + index));
      const turns = shots.flatMap((shot, index): Content[] => [...userImages([shot]), { role: 'model', parts: [{ text: `step ${index}` }] }]);
      const { messages } = convertToAnthropicMessages(turns);
      expect(messages.filter((message) => message.role === 'user').map((message) => message.content[0])).toEqual([note(shots[0], NEWEST_20), ...shots.slice(1).map(sent)]);
    });

    it('a computer-use agent whose tool returns a 2560x1440 screenshot and a small crop at each step: the newest 10 steps are sent, the current screen among them', () => {
      const contents: Content[] = [];
      const steps = Array.from({ length: 30 }, (_, step) => ({ shot: image(2560, 1440 + step, `screen-${step}.png`), crop: image(600, 400 + step, `zoom-${step}.png`) }));
      for (const [step, { shot, crop }] of steps.entries()) {
        contents.push({ role: 'model', parts: [{ functionCall: { id: `c${step}`, name: 'computer', args: {} } }] });
        contents.push({ role: 'user', parts: [{ functionResponse: { id: `c${step}`, name: 'computer', response: {}, parts: [{ inlineData: shot }, { inlineData: crop }] } }] });
      }
      const { messages } = convertToAnthropicMessages(contents);
      const results = messages.filter((message) => message.role === 'user').map((message) => (message.content[0] as { content: { type: string }[] }).content.slice(1).map((block) => block.type));
      expect(results).toEqual([...Array.from({ length: 20 }, () => ['text', 'text']), ...Array.from({ length: 10 }, () => ['image', 'image'])]);
    });

    it('an image over 2000 pixels a side among small ones: the newest images are sent, 20 when the large one is among them (99 small and 1 large)', () => {
      const small = Array.from({ length: 99 }, (_, index) => image(100, 100 + index));
      const large = image(3000, 2000);
      const { messages } = convertToAnthropicMessages(userImages([...small.slice(0, 50), large, ...small.slice(50)]));
      // The newest 49 are sent, so the large one (the 50th) is not; the older small ones are.
      expect(messages[0].content).toEqual([...small.slice(0, 50).map(sent), note(large, over2000('3000x2000')), ...small.slice(50).map(sent)]);
      const newest = [...small.slice(0, 25), large];
      expect(convertToAnthropicMessages(userImages(newest)).messages[0].content).toEqual([...small.slice(0, 6).map((file) => note(file, NEWEST_20)), ...small.slice(6, 25).map(sent), sent(large)]);
    });

    it('sends the newest image over 2000 pixels a side before older heavy images (the newest files first)', () => {
      const heavy = (index: number): InlineData => ({ mimeType: 'image/png', data: Buffer.concat([Buffer.from(pngOfSize(100, 100 + index), 'base64'), Buffer.alloc(3_600_000, index + 1)]).toString('base64') });
      const files = [...Array.from({ length: 7 }, (_, index) => heavy(index)), ...Array.from({ length: 14 }, (_, index) => image(64, 64 + index)), image(3000, 1000)];
      const content = convertToAnthropicMessages(userImages(files)).messages[0].content;
      expect(content.map((block) => block.type)).toEqual([...Array.from({ length: 2 }, () => 'text'), ...Array.from({ length: 20 }, () => 'image')]);
      expect(content.at(-1)).toEqual(sent(files[21]));
    });

    it('sends the newest 100 images of a request (the lower of Anthropic\'s limits) and a note in place of each older one', () => {
      const files = Array.from({ length: 103 }, (_, index) => image(100, 100 + index));
      const reason = 'Anthropic takes at most 100 images in a request (the newest files are sent)';
      const { messages } = convertToAnthropicMessages([
        ...userImages(files.slice(0, 102)),
        { role: 'model', parts: [{ functionCall: { id: 't1', name: 'render', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'render', response: {}, parts: [{ inlineData: files[102] }] } }] },
      ]);
      expect(messages[0].content).toEqual([note(files[0], reason), note(files[1], reason), note(files[2], reason), ...files.slice(3, 102).map(sent)]);
      expect(messages[2].content[0]).toMatchObject({ content: [{ type: 'text' }, sent(files[102])] });
    });

    it("leaves out the oldest files past 28 MB as sent (under Anthropic's 32 MB a request)", () => {
      const pdf = (megabytes: number, displayName: string): InlineData => ({ mimeType: 'application/pdf', data: `JVBE${'A'.repeat(megabytes * 1024 * 1024 - 4)}`, displayName });
      const [oldest, old, recent, newest] = [pdf(8, 'a.pdf'), pdf(8, 'b.pdf'), pdf(8, 'c.pdf'), pdf(8, 'd.pdf')];
      const shot = image(100, 100);
      const { messages } = convertToAnthropicMessages([...userImages([oldest, shot]), { role: 'model', parts: [{ text: 'Seen.' }] }, ...userImages([old, recent, newest])]);
      expect(messages[0].content).toEqual([{ type: 'text', text: `[A file "a.pdf" (application/pdf, ${8 * 768 * 1024} bytes) was attached here; it is not sent in this request, as ${PAST_28_MB}.]` }, sent(shot)]);
      expect(messages[2].content.map((block) => block.type)).toEqual(['document', 'document', 'document']);
    });

    it('measures a text document as it is sent, JSON-escaped: 6 MB of control characters take 36 MB', () => {
      const escapes: InlineData = { mimeType: 'text/plain', data: Buffer.alloc(6 * 1000 * 1000, 0x1b).toString('base64') };
      const quotes: InlineData = { mimeType: 'text/plain', data: Buffer.alloc(4 * 1000 * 1000, 0x22).toString('base64') };
      // Alone over 28 MB: never sent, whatever the request holds.
      const overAlone = "it takes 36.0 MB as sent (its text JSON-escaped), over the 28 MB a request's files may take (Anthropic takes at most 32 MB a request)";
      expect(convertToAnthropicMessages(userImages([escapes])).messages[0].content).toEqual([{ type: 'text', text: `[A file (text/plain, 6000000 bytes) was attached here; it was left out, as ${overAlone}.]` }]);
      // 4 MB of quotes take 8 MB sent (under 6 MB of base64): with 21 MB of PDFs, the request would take 29 MB.
      const pdf: InlineData = { mimeType: 'application/pdf', data: `JVBE${'A'.repeat(21 * 1000 * 1000 - 4)}` };
      expect(convertToAnthropicMessages(userImages([quotes, pdf])).messages[0].content.map((block) => block.type)).toEqual(['text', 'document']);
      expect(convertToAnthropicMessages(userImages([quotes])).messages[0].content.map((block) => block.type)).toEqual(['document']);
    });

    it("leaves out a file that alone takes more than 28 MB as sent, on every request, and sends the files beside it", () => {
      const pdf: InlineData = { mimeType: 'application/pdf', data: `JVBE${'A'.repeat(29 * 1000 * 1000 - 4)}`, displayName: 'big.pdf' };
      const shot = image(100, 100);
      const { messages } = convertToAnthropicMessages([
        { role: 'model', parts: [{ functionCall: { id: 't1', name: 'fetch', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'fetch', response: {}, parts: [{ inlineData: pdf }] } }] },
        ...userImages([shot]),
      ]);
      const reason = "it takes 29.0 MB as sent (its base64), over the 28 MB a request's files may take (Anthropic takes at most 32 MB a request)";
      expect(messages[1].content[0]).toMatchObject({ content: [{ type: 'text' }, { type: 'text', text: `[The tool returned the file "big.pdf" (application/pdf, ${(29 * 1000 * 1000 * 3) / 4} bytes); it was left out, as ${reason}.]` }] });
      expect(messages[1].content[1]).toEqual(sent(shot));
    });

    it("counts Anthropic's own blocks sent back (a web fetch's 8 MB PDF) first: the files get the rest of the 28 MB", () => {
      const pdf64 = `JVBE${'A'.repeat(8 * 1000 * 1000 - 4)}`;
      const fetched = {
        type: 'web_fetch_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: { type: 'web_fetch_result', url: 'https://example.com/r.pdf', content: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf64 } } },
      };
      const pdf = (megabytes: number): InlineData => ({ mimeType: 'application/pdf', data: `JVBE${'A'.repeat(megabytes * 1000 * 1000 - 4)}` });
      const [older, newer] = [pdf(5), pdf(15)];
      const contents: Content[] = [
        ...userImages([older]),
        { role: 'model', parts: [{ providerData: { provider: 'anthropic', data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_fetch', input: {} } } }, { providerData: { provider: 'anthropic', data: fetched } }] },
        ...userImages([newer]),
      ];
      // 8 MB + 15 MB + 5 MB = 28 MB of base64, plus the block's JSON around its PDF: over 28 MB, so the older PDF is a note.
      const { messages } = convertToAnthropicMessages(contents);
      expect(messages[0].content).toEqual([{ type: 'text', text: `[A file (application/pdf, ${5 * 750 * 1000} bytes) was attached here; it is not sent in this request, as ${PAST_28_MB}.]` }]);
      expect(messages[1].content[1]).toBe(fetched);
      expect(messages[2].content.map((block) => block.type)).toEqual(['document']);
      // Another provider's blocks are not sent, so not counted (the model turn is empty: the user turns merge).
      const elsewhere = contents.map((content) => (content.role === 'model' ? { role: 'model' as const, parts: content.parts.map((part) => ({ providerData: { provider: 'gemini', data: part.providerData?.data ?? {} } })) } : content));
      expect(convertToAnthropicMessages(elsewhere).messages[0].content.map((block) => block.type)).toEqual(['document', 'document']);
    });

    it("counts the images in Anthropic's own blocks toward the limits on a request's images", () => {
      const held = { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngOfSize(3000, 2000) } }] };
      const small = Array.from({ length: 20 }, (_, index) => image(100, 100 + index));
      const { messages } = convertToAnthropicMessages([{ role: 'model', parts: [{ providerData: { provider: 'anthropic', data: held } }] }, ...userImages(small)]);
      // 21 images, one over 2000 pixels a side: the oldest user image is a note.
      expect(messages[1].content).toEqual([note(small[0], NEWEST_20), ...small.slice(1).map(sent)]);
    });

    it('measures a text document without building its JSON string (20 MB of control characters would be a 120 MB string)', () => {
      const escapes: InlineData = { mimeType: 'text/plain', data: Buffer.alloc(1000, 0x1b).toString('base64') };
      const stringify = jest.spyOn(JSON, 'stringify');
      try {
        expect(convertToAnthropicMessages(userImages([escapes])).messages[0].content).toMatchObject([{ type: 'document' }]);
        expect(stringify).not.toHaveBeenCalled();
      } finally {
        stringify.mockRestore();
      }
    });

    it('with 20 images, sends those over 2000 pixels a side; images Anthropic refuses on their own, model turns\' files and other files are not counted', () => {
      const large = image(4000, 3000);
      const small = Array.from({ length: 19 }, (_, index) => image(100, 100 + index));
      const others: InlineData[] = [image(8001, 1), { mimeType: 'image/png', data: 'A'.repeat(5 * 1024 * 1024 + 4) }, { mimeType: 'application/pdf', data: 'JVBE' }, { mimeType: 'image/bmp', data: 'Qk0=' }];
      const { messages } = convertToAnthropicMessages([...userImages([large, ...small, ...others]), { role: 'model', parts: [{ inlineData: image(10, 10) }] }]);
      expect(messages[0].content.slice(0, 20)).toEqual([large, ...small].map(sent));
      expect(messages[0].content.slice(20)).toMatchObject([{ type: 'text' }, { type: 'text' }, { type: 'document' }, { type: 'text' }]);
    });

    it('counts an image whose size cannot be read from its header as over 2000 pixels a side (it may be), and sends it within 20 images', () => {
      const unreadable: InlineData = { mimeType: 'image/jpeg', data: Buffer.from('ffd8ffe000104a464946', 'hex').toString('base64') };
      const small = Array.from({ length: 20 }, (_, index) => image(10, 10 + index));
      const unreadableNote = { type: 'text', text: `[A file (image/jpeg, 10 bytes) was attached here; it is not sent in this request, as its size cannot be read from its header, and ${NEWEST_20}.]` };
      expect(convertToAnthropicMessages(userImages([unreadable, ...small])).messages[0].content).toEqual([unreadableNote, ...small.map(sent)]);
      expect(convertToAnthropicMessages(userImages([...small, unreadable])).messages[0].content).toEqual([note(small[0], NEWEST_20), ...small.slice(1).map(sent), { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: unreadable.data } }]);
    });

    it("reads a stored file's size again when its data is replaced (the size is kept per file object)", () => {
      const file: InlineData = { mimeType: 'image/png', data: pngOfSize(100, 100) };
      expect(convertToAnthropicMessages(userImages([file])).messages[0].content[0]).toEqual(sent(file));
      file.data = pngOfSize(9000, 100);
      expect(convertToAnthropicMessages(userImages([file])).messages[0].content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('9000x100 pixels') });
    });
  });

  it("cuts a document's title to Anthropic's 500 characters (core keeps names to 255; a session stored before may hold longer)", () => {
    const file = { mimeType: 'application/pdf', data: 'JVBE' };
    const { messages } = convertToAnthropicMessages([
      { role: 'model', parts: [{ functionCall: { id: 't1', name: 'f', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'f', response: {}, parts: [{ inlineData: { ...file, displayName: `${'n'.repeat(499)}é🎉x` } }] } }] },
    ]);
    expect(messages[1].content[0]).toMatchObject({ content: [{ type: 'text' }, { type: 'document', title: `${'n'.repeat(499)}é` }] });
  });

  it("sends Anthropic's own blocks back unchanged and skips other providers' data", () => {
    const block = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } };
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'News?' }] },
      {
        role: 'model',
        parts: [
          { providerData: { provider: 'anthropic', data: block } },
          { providerData: { provider: 'gemini', data: { executableCode: { language: 'PYTHON', code: 'print(1)' } } } },
          { text: 'Nothing new.' },
        ],
      },
    ]);
    expect(messages[1]).toEqual({ role: 'assistant', content: [block, { type: 'text', text: 'Nothing new.' }] });
  });

  it("sends a call that carries another adapter's providerData (Google's extra_content from OpenAIModel) as a plain tool_use", () => {
    const extra = { google: { thought_signature: 'c2ln' } };
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'Paris?' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } }, providerData: { provider: 'openai', data: { extra_content: extra, server: 'https://x/v1' } } }] },
    ]);
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }] });
  });
});
