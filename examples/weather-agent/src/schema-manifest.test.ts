import { main as toolsmith } from '@toolsmith/cli';
import { scanTools } from '@toolsmith/core';
import { join } from 'node:path';
import { SentimentTools } from './sentiment-tools';

describe('weather-agent schema manifest', () => {
  it('the committed toolsmith.schema.json matches the sources (toolsmith schema --check)', async () => {
    let stderr = '';
    const code = await toolsmith(['schema', '--check', '--quiet', '--project', join(__dirname, '..', 'tsconfig.json')], {
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => void (stderr += text) },
      cwd: join(__dirname, '..'),
    });
    expect(stderr).toContain('is up to date');
    expect(code).toBe(0);
  });

  it('SentimentTools gets its schema from the manifest found next to the code (it has no @Param)', () => {
    const [tool] = scanTools(SentimentTools);
    expect(tool.description).toBe('Analyzes the sentiment of the given text.');
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to analyze' } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(tool.responseSchema).toMatchObject({
      type: 'object',
      properties: { sentiment: { type: 'string', enum: ['negative', 'neutral', 'positive'] }, confidence: { type: 'number' } },
    });
  });

  it('without the manifest the class cannot be scanned: the manifest is what makes it work', () => {
    expect(() => scanTools(SentimentTools, { manifest: null })).toThrow(/SentimentTools\.analyzeSentiment.*@Param/s);
  });
});
