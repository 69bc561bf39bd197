/** Injection token of the resolved {@link ToolsmithModuleOptions}. */
export const TOOLSMITH_MODULE_OPTIONS = Symbol('TOOLSMITH_MODULE_OPTIONS');

/**
 * Injection token of the runner's `SessionService` (the one given in the options, else an in-memory one),
 * for controllers that create or read sessions.
 */
export const TOOLSMITH_SESSION_SERVICE = Symbol('TOOLSMITH_SESSION_SERVICE');

/** Internal: the instances of the plugin classes listed in the module options, in order. */
export const TOOLSMITH_PLUGIN_INSTANCES = Symbol('TOOLSMITH_PLUGIN_INSTANCES');
