import * as messages from './messages';

const method = { className: 'WeatherTools', methodName: 'getWeather' };
const parameter = { ...method, parameterIndex: 1, parameterName: 'unit' };
const property = { ...parameter, dtoName: 'UnitDto', propertyName: 'kind' };

describe('startup messages', () => {
  it('say where: class, method, parameter, DTO property', () => {
    expect(messages.describeSite({ className: 'A' })).toBe('A');
    expect(messages.describeSite(method)).toBe('WeatherTools.getWeather');
    expect(messages.describeSite(parameter)).toBe('WeatherTools.getWeather, parameter #2 "unit"');
    expect(messages.describeSite(property)).toBe('WeatherTools.getWeather, parameter #2 "unit", in UnitDto.kind');
    expect(messages.describeSite({ className: 'functionTool', dtoName: 'X' })).toBe('functionTool: X');
  });

  // Every message names the place and ends with a fix.
  const all: [string, string][] = [
    ['invalidToolName', messages.invalidToolNameMessage(method, 'a b')],
    ['duplicateToolName', messages.duplicateToolNameMessage(method, 'x', 'other')],
    ['missingTypeMetadata', messages.missingTypeMetadataMessage(method)],
    ['unknownParameterType', messages.unknownParameterTypeMessage(parameter, 'Object')],
    ['undecoratedParameter', messages.undecoratedParameterMessage(parameter, 'String')],
    ['mixedParameterStyles', messages.mixedParameterStylesMessage(parameter)],
    ['invalidInputSchema', messages.invalidInputSchemaMessage(method, 'it is not an object')],
    ['duplicateParameterName', messages.duplicateParameterNameMessage(parameter, 'unit')],
    ['unsupportedDtoDecorator', messages.unsupportedDtoDecoratorMessage(property, 'IsDate', 'a custom validator')],
    ['invalidDto', messages.invalidDtoMessage(property, 'reason', 'do this')],
    ['contradictoryDtoRules', messages.contradictoryDtoRulesMessage(property, '@IsString, @IsInt')],
    ['noTools', messages.noToolsMessage({ className: 'Empty' })],
  ];
  it.each(all)('%s names the place and ends with the fix', (_name, text) => {
    expect(text).toMatch(/^(WeatherTools\.getWeather|Empty)/);
    expect(text).toMatch(/Fix: [^]+\.$/);
  });

  it.each([
    ['missingProvider', messages.missingProviderMessage(['Tools', 'Api'])],
    ['dependencyCycle', messages.dependencyCycleMessage(['A', 'B', 'A'])],
    ['unknownDependencyType', messages.unknownDependencyTypeMessage(['Tools'], 0)],
    ['providerFactoryFailed', messages.providerFactoryFailedMessage(['Tools', 'Db'], 'down')],
  ])('%s names the dependency chain and ends with the fix', (_name, text) => {
    expect(text).toMatch(/(Tools|A) -> |chain: Tools\)/);
    expect(text).toMatch(/Fix: [^]+\.$/);
  });
});
