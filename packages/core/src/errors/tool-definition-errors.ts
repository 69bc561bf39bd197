import {
  type DefinitionSite,
  type ManifestGap,
  contextAsArgumentMessage,
  contradictoryDtoRulesMessage,
  duplicateClassTransformerMessage,
  duplicateParameterNameMessage,
  duplicateToolNameMessage,
  invalidConfirmationRuleMessage,
  invalidDtoMessage,
  invalidInputSchemaMessage,
  invalidToolNameMessage,
  missingTypeMetadataMessage,
  mixedParameterStylesMessage,
  noToolsMessage,
  undecoratedParameterMessage,
  unknownParameterTypeMessage,
  unsupportedDtoDecoratorMessage,
} from './messages';
import { ToolsmithError } from './toolsmith-error';

/**
 * A tool is defined in a way Toolsmith cannot use. Thrown at startup (scan time), never during a run.
 * `site` says where; `code` says what; the message ends with the fix.
 */
export class ToolDefinitionError extends ToolsmithError {
  constructor(
    code: string,
    message: string,
    /** Class, method, parameter or DTO property at fault. */
    readonly site: DefinitionSite,
  ) {
    super(code, message, { details: { site } });
  }
}

/** A tool name does not match `^[a-zA-Z0-9_-]{1,64}$`, or is one of the runner's pause requests' (`message` says which). */
export class InvalidToolNameError extends ToolDefinitionError {
  constructor(site: DefinitionSite, name: string, message = invalidToolNameMessage(site, name)) {
    super('INVALID_TOOL_NAME', message, site);
  }
}

/** Two tools of one class share a name. */
export class DuplicateToolNameError extends ToolDefinitionError {
  constructor(site: DefinitionSite, name: string, firstMethod: string) {
    super('DUPLICATE_TOOL_NAME', duplicateToolNameMessage(site, name, firstMethod), site);
  }
}

/** `design:paramtypes` is missing: the code was compiled without decorator metadata. */
export class MissingTypeMetadataError extends ToolDefinitionError {
  /**
   * `standardDecorators`: the method's `@Tool` ran as a standard decorator (the message then says what that mode needs).
   * `manifest`: a build-time manifest was loaded, and what it lacks for the method (the message names the file).
   */
  constructor(site: DefinitionSite, standardDecorators = false, manifest?: ManifestGap) {
    super('MISSING_TYPE_METADATA', missingTypeMetadataMessage(site, standardDecorators, manifest), site);
  }
}

/** A parameter's type cannot be turned into a schema (`Object`, a union, an untyped array, …). */
export class UnknownParameterTypeError extends ToolDefinitionError {
  constructor(site: DefinitionSite, typeName: string) {
    super('UNKNOWN_PARAMETER_TYPE', unknownParameterTypeMessage(site, typeName), site);
  }
}

/** A non-context, non-DTO parameter lacks `@Param`. */
export class UndecoratedParameterError extends ToolDefinitionError {
  constructor(site: DefinitionSite, typeName: string) {
    super('UNDECORATED_PARAMETER', undecoratedParameterMessage(site, typeName), site);
  }
}

/** A method mixes `@Param` parameters with a DTO parameter, or repeats a parameter name. */
export class InvalidParametersError extends ToolDefinitionError {
  /** The method takes both `@Param` parameters and a DTO parameter; a tool takes one style or the other. */
  static mixedStyles(site: DefinitionSite): InvalidParametersError {
    return new InvalidParametersError(mixedParameterStylesMessage(site), site);
  }
  /** Two of the method's parameters are both named `name`. */
  static duplicateName(site: DefinitionSite, name: string): InvalidParametersError {
    return new InvalidParametersError(duplicateParameterNameMessage(site, name), site);
  }
  /** The manifest puts a model argument where the method takes the `ToolContext` (a manifest of an older generator). */
  static contextAsArgument(site: DefinitionSite): InvalidParametersError {
    return new InvalidParametersError(contextAsArgumentMessage(site), site);
  }
  private constructor(message: string, site: DefinitionSite) {
    super('INVALID_PARAMETERS', message, site);
  }
}

/** An explicit schema (`@Tool({ inputSchema })`, `@Param({ schema })`, `functionTool`) is not usable. */
export class InvalidInputSchemaError extends ToolDefinitionError {
  constructor(site: DefinitionSite, reason: string) {
    super('INVALID_INPUT_SCHEMA', invalidInputSchemaMessage(site, reason), site);
  }
}

/**
 * A tool's `requireConfirmation` is neither a boolean nor a function (`'yes'`, `{}`, `1`): every call would
 * fail. `valueType` names what it is (`a string ("yes")`).
 */
export class InvalidConfirmationRuleError extends ToolDefinitionError {
  constructor(
    site: DefinitionSite,
    /** What the value is, e.g. `a string ("yes")`, `an object`. */
    readonly valueType: string,
  ) {
    super('INVALID_CONFIRMATION_RULE', invalidConfirmationRuleMessage(site, valueType), site);
  }
}

/** A DTO uses a class-validator decorator JSON Schema cannot express, without `@UseClassValidator()`. */
export class UnsupportedDtoDecoratorError extends ToolDefinitionError {
  constructor(site: DefinitionSite, decorator: string, reason: string) {
    super('UNSUPPORTED_DTO_DECORATOR', unsupportedDtoDecoratorMessage(site, decorator, reason), site);
  }
}

/** A DTO class cannot be used as a tool's arguments (no rules, missing `@Type`, contradictory rules, …). */
export class InvalidDtoError extends ToolDefinitionError {
  /** Any other DTO problem: `reason` says what is wrong and `fix` what to do (the message reads `<site>: <reason>. Fix: <fix>.`). */
  static because(site: DefinitionSite, reason: string, fix: string): InvalidDtoError {
    return new InvalidDtoError(invalidDtoMessage(site, reason, fix), site);
  }
  /** The DTO's `@Type` was recorded by another copy of class-transformer than the one core reads. */
  static duplicateClassTransformer(site: DefinitionSite, coreCopy: string, otherCopy: string): InvalidDtoError {
    return new InvalidDtoError(duplicateClassTransformerMessage(site, coreCopy, otherCopy), site);
  }
  /** The decorators listed in `rules` (e.g. `@IsString, @IsInt`) contradict each other, so no value could be valid. */
  static contradictory(site: DefinitionSite, rules: string): InvalidDtoError {
    return new InvalidDtoError(contradictoryDtoRulesMessage(site, rules), site);
  }
  private constructor(message: string, site: DefinitionSite) {
    super('INVALID_DTO', message, site);
  }
}

/** A class given as tools has no `@Tool` methods. */
export class NoToolsError extends ToolDefinitionError {
  constructor(site: DefinitionSite) {
    super('NO_TOOLS', noToolsMessage(site), site);
  }
}
