import { ArgumentsLimitError, InvalidArgumentsError, MalformedArgumentsError, ToolExecutionError, ToolNotFoundError } from './tool-call-errors';

describe('errors that report the model\'s input', () => {
  const built = () => [
    new InvalidArgumentsError('search', [{ path: '/city', keyword: 'required', message: 'city: missing, expected a value (required)' }]),
    new MalformedArgumentsError('search', 'expected an object, got an array'),
    new ArgumentsLimitError('ARGUMENTS_TOO_DEEP', 'Arguments for tool "search" are nested deeper than 64 levels.'),
    new ToolNotFoundError('serch', ['search']),
  ];

  it('carry no stack frames: their stack is their name and message', () => {
    for (const error of built()) {
      expect(error.stack).toBe(`${error.name}: ${error.message}`);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it('leave stack capture as they found it, for every other error', () => {
    const before = Error.stackTraceLimit;
    built();
    expect(Error.stackTraceLimit).toBe(before);
    // A failure of the program, not of the model's input, keeps its frames.
    const failure = new ToolExecutionError('search', new Error('database down'));
    expect(failure.stack).toMatch(/\n\s+at /);
  });

  it('leave a limit the application set as it was', () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 50;
    try {
      built();
      expect(Error.stackTraceLimit).toBe(50);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});
