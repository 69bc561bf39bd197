import type { Content } from '@toolsmith/core';
import { convertToOpenAIChatMessages, convertToOpenAIResponsesInput } from './convert-to-openai-messages';

const conversation: Content[] = [
  { role: 'user', parts: [{ text: 'Weather in Paris and Oslo?' }] },
  {
    role: 'model',
    parts: [
      { text: 'thinking…', thought: true },
      { text: 'Checking.' },
      { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } },
      { functionCall: { id: 'call_2', name: 'get_weather', args: '{"city": "Os' } },
    ],
  },
  {
    role: 'user',
    parts: [
      { functionResponse: { id: 'call_2', name: 'get_weather', response: { error: { code: 'MALFORMED_ARGUMENTS', message: 'bad' } }, isError: true } },
      { functionResponse: { id: 'call_1', name: 'get_weather', response: { temp: 21 } } },
    ],
  },
  { role: 'model', parts: [{ text: 'Paris is 21°C.' }] },
  { role: 'user', parts: [{ text: 'Thanks' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
];

describe('convertToOpenAIChatMessages', () => {
  it('maps system, user, assistant tool calls and one tool message per call in call order', () => {
    expect(convertToOpenAIChatMessages({ systemInstruction: 'Be brief.', contents: conversation })).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Os' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"error":{"code":"MALFORMED_ARGUMENTS","message":"bad"}}' },
      { role: 'assistant', content: 'Paris is 21°C.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Thanks' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ]);
  });

  it('sends null content for an assistant message with only tool calls', () => {
    const messages = convertToOpenAIChatMessages({ contents: [{ role: 'model', parts: [{ functionCall: { id: 'a', name: 'f', args: {} } }] }] });
    expect(messages[0]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] });
    expect(messages[1]).toMatchObject({ role: 'tool', tool_call_id: 'a' });
  });

  it('sends a note in place of inline data OpenAI is not sent, so the history stays sendable; media types without case, sent in lower case', () => {
    const contents: Content[] = [
      {
        role: 'user',
        parts: [
          { text: 'look' },
          { inlineData: { mimeType: 'image/heic', data: 'aGk=', displayName: 'a.heic' } },
          { inlineData: { mimeType: 'IMAGE/PNG', data: 'aGk=' } },
          { inlineData: { mimeType: 'audio/wav', data: 'aGk=' } },
        ],
      },
    ];
    const note = '[A file "a.heic" (image/heic, 2 bytes) was attached here; it was left out, as files of this type are not sent to OpenAI in a message.]';
    expect(convertToOpenAIChatMessages({ contents })[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'text', text: note },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,aGk=' } },
        { type: 'text', text: '[A file (audio/wav, 2 bytes) was attached here; it was left out, as this model takes no audio.]' },
      ],
    });
    expect(convertToOpenAIResponsesInput(contents)[0]).toEqual({
      role: 'user',
      content: [
        { type: 'input_text', text: 'look' },
        { type: 'input_text', text: note },
        { type: 'input_image', image_url: 'data:image/png;base64,aGk=', detail: 'auto' },
        { type: 'input_text', text: '[A file (audio/wav, 2 bytes) was attached here; it was left out, as files of this type are not sent to OpenAI in a message.]' },
      ],
    });
  });
});

describe("a user's documents", () => {
  const contents: Content[] = [
    {
      role: 'user',
      parts: [
        { inlineData: { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', data: 'aGk=' } },
        { inlineData: { mimeType: 'text/plain', data: 'aGk=', displayName: 'notes' } },
      ],
    },
  ];

  it('the Responses API is sent those input_file reads, named with their extension', () => {
    expect(convertToOpenAIResponsesInput(contents)[0]).toEqual({
      role: 'user',
      content: [
        { type: 'input_file', filename: 'document.docx', file_data: 'data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,aGk=' },
        { type: 'input_file', filename: 'notes.txt', file_data: 'data:text/plain;base64,aGk=' },
      ],
    });
  });

  it('Chat Completions, which takes PDFs only, is sent notes', () => {
    expect(convertToOpenAIChatMessages({ contents })[0].content).toEqual([
      { type: 'text', text: '[A file (application/vnd.openxmlformats-officedocument.wordprocessingml.document, 2 bytes) was attached here; it was left out, as files of this type are not sent to OpenAI in a message.]' },
      { type: 'text', text: '[A file "notes" (text/plain, 2 bytes) was attached here; it was left out, as files of this type are not sent to OpenAI in a message.]' },
    ]);
  });
});

describe('audio on Chat Completions', () => {
  const contents: Content[] = [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/mpeg', data: 'aGk=' } }, { inlineData: { mimeType: 'Audio/WAV', data: 'aGk=' } }] }];

  it('a model that takes audio is sent a user\'s WAV and MP3 as input_audio', () => {
    expect(convertToOpenAIChatMessages({ contents }, undefined, { audio: true, images: true })[0]).toEqual({
      role: 'user',
      content: [
        { type: 'input_audio', input_audio: { data: 'aGk=', format: 'mp3' } },
        { type: 'input_audio', input_audio: { data: 'aGk=', format: 'wav' } },
      ],
    });
  });

  it("an audio model is sent no images or documents: notes saying why", () => {
    const image: Content[] = [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'aGk=' } }, { inlineData: { mimeType: 'application/pdf', data: 'aGk=' } }] }];
    expect(convertToOpenAIChatMessages({ contents: image }, undefined, { audio: true, images: false })[0].content).toEqual([
      { type: 'text', text: '[A file (image/png, 2 bytes) was attached here; it was left out, as this model takes no images or documents.]' },
      { type: 'text', text: '[A file (application/pdf, 2 bytes) was attached here; it was left out, as this model takes no images or documents.]' },
    ]);
  });

  it('another model is sent notes', () => {
    expect(convertToOpenAIChatMessages({ contents })[0].content).toEqual([
      { type: 'text', text: '[A file (audio/mpeg, 2 bytes) was attached here; it was left out, as this model takes no audio.]' },
      { type: 'text', text: '[A file (Audio/WAV, 2 bytes) was attached here; it was left out, as this model takes no audio.]' },
    ]);
  });
});

describe('convertToOpenAIResponsesInput', () => {
  it('maps messages, function_call items and one function_call_output per call', () => {
    expect(convertToOpenAIResponsesInput(conversation)).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris and Oslo?' }] },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city": "Os' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
      { type: 'function_call_output', call_id: 'call_2', output: '{"error":{"code":"MALFORMED_ARGUMENTS","message":"bad"}}' },
      { role: 'assistant', content: 'Paris is 21°C.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Thanks' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        ],
      },
    ]);
  });
});
