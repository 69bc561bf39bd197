import { mapGeminiParts, mapGeminiResponse, mapGeminiUsage } from './map-gemini-response';

describe('mapGeminiResponse', () => {
  it('reports a blocked prompt as a content-filter error inside a complete response', () => {
    const response = mapGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' as never }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } });
    expect(response).toMatchObject({
      turnComplete: true,
      content: { role: 'model', parts: [] },
      finishReason: { unified: 'content-filter', raw: 'SAFETY' },
      error: { code: 'PROMPT_BLOCKED', message: 'Gemini blocked the prompt (SAFETY).' },
      usage: { inputTokens: 4, outputTokens: 0, totalTokens: 4 },
    });
  });

  it('numbers generated ids per call, keeping ids Gemini sent', () => {
    const response = mapGeminiResponse({
      responseId: 'r1',
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { id: 'g1', name: 'a' } }, { functionCall: { name: 'a' } }] }, finishReason: 'STOP' as never }],
    });
    const ids = response.content!.parts.map((part) => part.functionCall!.id);
    expect(ids[1]).toBe('g1');
    expect(ids[0]).not.toBe(ids[2]);
    expect(response.content!.parts[1].functionCall!.args).toEqual({});
  });
});

describe('mapGeminiParts: arguments', () => {
  it('keeps a number JSON cannot carry in the args, for the argument check to refuse (never null)', () => {
    const parts = mapGeminiParts(JSON.parse('[{"functionCall":{"id":"g1","name":"a","args":{"n":[1,{"m":-1e999}]}}}]') as never);
    expect((parts[0].functionCall!.args as { n: [number, { m: number }] }).n[1].m).toBe(-Infinity);
  });
});

describe('mapGeminiParts: arguments that throw when read, or are larger than the default limits', () => {
  it('hands them on as they are (never throws), for the argument check to answer', () => {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const getter = { get n(): number { throw new Error('boom'); } };
    const wide = { list: new Array<number>(2_000_000).fill(0) };
    for (const args of [getter, { nested: revocable.proxy }, revocable.proxy, wide]) {
      const parts = mapGeminiParts([{ functionCall: { id: 'g1', name: 'a', args: args as Record<string, unknown> } }]);
      expect(parts[0].functionCall!.args).toBe(args);
    }
  });
});

describe('mapGeminiParts', () => {
  it('keeps a signature that arrives on a part of its own, code execution parts as provider data, and skips parts Toolsmith has no form for', () => {
    expect(
      mapGeminiParts([
        { thoughtSignature: 'c2ln' },
        { executableCode: { code: 'print(1)' }, thoughtSignature: 'Y29kZQ' },
        { codeExecutionResult: { outcome: 'OUTCOME_OK' as never, output: '1' } },
        { videoMetadata: { fps: 1 } },
        { text: 'x', thought: true },
      ]),
    ).toEqual([
      { text: '', thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
      { providerData: { provider: 'gemini', data: { executableCode: { code: 'print(1)' } } }, thoughtSignature: 'Y29kZQ', thoughtSignatureProvider: 'gemini' },
      { providerData: { provider: 'gemini', data: { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } } } },
      { text: 'x', thought: true },
    ]);
  });
});

describe('mapGeminiUsage', () => {
  it('counts thinking as output (and as reasoning tokens) and tool-use prompts as input', () => {
    expect(
      mapGeminiUsage({ promptTokenCount: 10, toolUsePromptTokenCount: 5, candidatesTokenCount: 7, thoughtsTokenCount: 3, cachedContentTokenCount: 2 }),
    ).toEqual({ inputTokens: 15, outputTokens: 10, totalTokens: 25, cachedInputTokens: 2, reasoningTokens: 3 });
    expect(mapGeminiUsage(undefined)).toBeUndefined();
  });
});

describe("Gemini's speech output (raw PCM)", () => {
  const pcm = Buffer.from([1, 0, 2, 0, 0xff, 0x7f, 0, 0x80]);

  it('is kept as a WAV file with the rate its media type names, 16-bit mono', () => {
    const [part] = mapGeminiParts([{ inlineData: { mimeType: 'audio/L16;codec=pcm;rate=24000', data: pcm.toString('base64') } }]);
    expect(part.inlineData!.mimeType).toBe('audio/wav');
    const wav = Buffer.from(part.inlineData!.data, 'base64');
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.toString('latin1', 8, 16)).toBe('WAVEfmt ');
    expect({ size: wav.readUInt32LE(4), format: wav.readUInt16LE(20), channels: wav.readUInt16LE(22), rate: wav.readUInt32LE(24), byteRate: wav.readUInt32LE(28), bits: wav.readUInt16LE(34), dataSize: wav.readUInt32LE(40) }).toEqual({
      size: 36 + pcm.length,
      format: 1,
      channels: 1,
      rate: 24000,
      byteRate: 48000,
      bits: 16,
      dataSize: pcm.length,
    });
    expect(wav.subarray(44)).toEqual(pcm);
  });

  it('another rate and channels are kept; none named is 24 kHz mono; other audio and empty data are left as they are', () => {
    const rated = Buffer.from(mapGeminiParts([{ inlineData: { mimeType: 'audio/pcm; rate=16000; channels=2', data: pcm.toString('base64') } }])[0].inlineData!.data, 'base64');
    expect([rated.readUInt16LE(22), rated.readUInt32LE(24)]).toEqual([2, 16000]);
    const plain = Buffer.from(mapGeminiParts([{ inlineData: { mimeType: 'audio/L16', data: pcm.toString('base64') } }])[0].inlineData!.data, 'base64');
    expect([plain.readUInt16LE(22), plain.readUInt32LE(24)]).toEqual([1, 24000]);
    expect(mapGeminiParts([{ inlineData: { mimeType: 'audio/mp3', data: 'AAAA' } }, { inlineData: { mimeType: 'audio/L16;rate=24000', data: '' } }])).toEqual([
      { inlineData: { mimeType: 'audio/mp3', data: 'AAAA' } },
      { inlineData: { mimeType: 'audio/L16;rate=24000', data: '' } },
    ]);
  });
});

describe("Gemini's speech output that cannot be made a WAV file", () => {
  const pcm = Buffer.from([1, 0, 2, 0, 0xff, 0x7f, 0, 0x80]).toString('base64');
  const wavOf = (mimeType: unknown, data: unknown) => mapGeminiParts([{ inlineData: { mimeType, data } as never }])[0].inlineData!;

  it('a media type or data that is not a string is left as it came, for core to refuse (nothing thrown)', () => {
    expect(wavOf(42, pcm)).toEqual({ mimeType: 42, data: pcm });
    expect(wavOf({}, pcm)).toEqual({ mimeType: {}, data: pcm });
    expect(wavOf('audio/L16', 12345)).toEqual({ mimeType: 'audio/L16', data: 12345 });
    expect(wavOf('audio/L16', null)).toEqual({ mimeType: 'audio/L16', data: null });
  });

  it('a rate or channels that is not a positive whole number, or more than a WAV header holds, stays raw PCM', () => {
    for (const mimeType of ['audio/L16;rate=abc', 'audio/L16;rate=0', 'audio/L16;rate=16000.5', 'audio/L16;channels=40000', 'audio/L16;channels=70000', 'audio/L16;rate=1073741824;channels=2', 'audio/L16;rate=99999999999999999999', 'audio/L16;rate="16000']) {
      expect(wavOf(mimeType, pcm)).toEqual({ mimeType, data: pcm });
    }
  });

  it('a quoted rate (RFC 2045) is read', () => {
    const wav = Buffer.from(wavOf('audio/L16; rate="16000"; channels="2"', pcm).data, 'base64');
    expect([wav.readUInt16LE(22), wav.readUInt32LE(24)]).toEqual([2, 16000]);
  });

  it('data that is not base64, or not a whole number of samples, stays raw PCM; URL-safe or unpadded base64 is read', () => {
    for (const data of ['!!!!not base64 at all ***', Buffer.alloc(17, 1).toString('base64'), Buffer.alloc(6, 1).toString('base64')]) {
      expect(wavOf('audio/L16;channels=2', data)).toEqual({ mimeType: 'audio/L16;channels=2', data });
    }
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01]);
    for (const data of [bytes.toString('base64url'), bytes.toString('base64').replace(/=+$/, '')]) {
      expect(Buffer.from(wavOf('audio/L16', data).data, 'base64').subarray(44)).toEqual(bytes);
    }
  });

  it('data of only padding, more padding than base64 has, or with whitespace is left as it came (core refuses it), never an empty WAV', () => {
    for (const data of ['=', '==', '====', `${pcm}==`, `${pcm.slice(0, 8)}====`, `${pcm.slice(0, 4)} ${pcm.slice(4)}`, `${pcm}\n`, ` ${pcm}`]) {
      expect([data, wavOf('audio/L16', data)]).toEqual([data, { mimeType: 'audio/L16', data }]);
    }
  });

  it('a part with both text and a file keeps both, as two parts', () => {
    expect(mapGeminiParts([{ text: 'hi', inlineData: { mimeType: 'image/png', data: 'AAAA' } }])).toEqual([{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }]);
  });
});
