// The game server's dependency-injection tokens.
export const SERVER_CONFIG = Symbol('SERVER_CONFIG');
export const CLOCK = Symbol('CLOCK');
export const COMMAND_OBSERVER = Symbol('COMMAND_OBSERVER');
export const JSON_LOG = Symbol('JSON_LOG');
export const BUILD_INFO = Symbol('BUILD_INFO');
