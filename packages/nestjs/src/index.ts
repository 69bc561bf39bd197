// @toolsmith/nestjs: the whole public API.

export { ToolsmithModule } from './toolsmith.module';
export type {
  ToolsmithAgentFactory,
  ToolsmithAgentOptions,
  ToolsmithFeatureOptions,
  ToolsmithModuleAsyncOptions,
  ToolsmithModuleOptions,
} from './toolsmith-module-options.interface';
export { InjectRunner, getRunnerToken } from './inject-runner.decorator';
export type { ToolFilterSelector, ToolSelector, ToolsetPrefixSelector } from './tool-selector';
export { TOOLSMITH_MODULE_OPTIONS, TOOLSMITH_SESSION_SERVICE } from './toolsmith.tokens';
export { ToolsetExplorer } from './toolset-explorer';
export type { DiscoveredToolset } from './discovered-toolset';
export { NestContainerAdapter } from './nest-container-adapter';
export { HttpToolError } from './http-tool-error';
export { NESTJS_ERROR_CODES } from './nestjs-error-codes';
export type { NestjsErrorCode } from './nestjs-error-codes';
